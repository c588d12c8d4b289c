import { ErrorBody } from '@lootsmith/protocol';
import { CLUB_REQUEST } from '@lootsmith/test-support/game-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, boot, dumpStore, type Harness, SERVER_KEY } from './support/harness.ts';

// Server bugs the reliability suites found, each pinned by the smallest request that showed it.
let t: Harness;
beforeAll(async () => {
  t = await boot();
});
afterAll(async () => {
  await t?.close();
});

describe('regressions', () => {
  it('answers an undecodable URL with the one error body, not Fastify’s own', async () => {
    for (const url of ['/%', '/api/v1/player/%E0%A4%A/inventory', '/v1/%zz']) {
      const res = await t.server.app.inject({ url, headers: auth(SERVER_KEY) });
      expect(res.statusCode).toBe(400);
      expect(ErrorBody.safeParse(res.json()).success, res.body).toBe(true);
    }
  });

  it('refuses a JSON null body instead of reading it as {}', async () => {
    const token = await t.token('nora');
    const before = dumpStore(t.db);
    const res = await t.server.app.inject({
      method: 'PATCH',
      url: '/api/v1/player/nora',
      headers: { ...auth(SERVER_KEY), 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    expect(dumpStore(t.db)).toBe(before);
    expect(token).toBeTruthy();
  });

  it('does not count a malformed create-item against the 5-an-hour limit', async () => {
    const token = await t.token('olga');
    const before = dumpStore(t.db);
    for (let i = 0; i < 7; i++) {
      const res = await t.server.app.inject({
        method: 'POST',
        url: '/api/v1/player/olga/create-item',
        headers: auth(token),
        payload: { crafting_station: 'workbench', materials: 'oak_wood' },
      });
      expect(res.statusCode).toBe(400);
    }
    expect(dumpStore(t.db)).toBe(before);
    const ok = await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/player/olga/create-item',
      headers: auth(token),
      payload: CLUB_REQUEST,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('does not count a create-item the game refuses against the 5-an-hour limit (fuzz-server, full run)', async () => {
    const token = await t.token('oleg');
    await t.server.app.inject({ url: '/api/v1/player/oleg/inventory', headers: auth(token) });
    const before = dumpStore(t.db);
    const refused = [
      { ...CLUB_REQUEST, crafting_station: 'nowhere' },
      { ...CLUB_REQUEST, materials: [{ id: 'gold_nugget', quantity: 1 }] },
      { ...CLUB_REQUEST, materials: [{ id: 'oak_wood', quantity: 99 }] },
    ];
    for (let i = 0; i < 7; i++) {
      const res = await t.server.app.inject({
        method: 'POST',
        url: '/api/v1/player/oleg/create-item',
        headers: auth(token),
        payload: refused[i % refused.length],
      });
      expect(res.statusCode).toBe(400);
    }
    expect(dumpStore(t.db)).toBe(before);
  });

  it('does not remember a refused bad body sent with an Idempotency-Key', async () => {
    const token = await t.token('pia');
    const before = dumpStore(t.db);
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: { ...auth(token), 'idempotency-key': 'bad-body-0001' },
      payload: { client_id: 'pia', items: [] },
    });
    expect(res.statusCode).toBe(400);
    expect(dumpStore(t.db)).toBe(before);
  });
});
