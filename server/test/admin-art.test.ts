import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GameDefinition, IconArt } from '@lootsmith/protocol';
import { type Booted, bootWithFake } from '@lootsmith/test-support/boot';
import { writeGameFile } from '@lootsmith/test-support/game-file';
import { solidPng } from '@lootsmith/test-support/png';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

// The console's view of the game's art: the loaded references, a fresh sheet from the configured
// image backend, and a candidate definition's art painting the playground's icons before it is saved.

const PASSWORD = 'console-password-art-0123456789';
const scratch = mkdtempSync(join(tmpdir(), 'lootsmith-admin-art-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let t: Booted | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Eight colours of a game's own, its darkest for the outline, on a 32×32 grid. */
const PALETTE = ['#1a1c2c', '#5d275d', '#b13e53', '#ef7d57', '#ffcd75', '#38b764', '#3b5dc9', '#f4f4f4'];
const ART: IconArt = { palette: PALETTE, pixel_size: 32, outline: '#1a1c2c', references: [] };
const REFERENCE = solidPng(24, [0x3b, 0x5d, 0xc9]);

/** A signed-in console's requests (its cookie, and the CSRF token on changes). */
async function signIn(b: Booted) {
  const res = await b.server.app.inject({
    method: 'POST',
    url: '/api/v1/admin/session',
    payload: { credential: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  const cookie = String(res.headers['set-cookie']).split(';')[0] as string;
  const csrf = res.json().csrf_token as string;
  return (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    b.server.app.inject({
      method,
      url,
      headers: { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }) },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
}

const hex = (r: number, g: number, b: number) =>
  `#${((r << 16) | (g << 8) | b).toString(16).padStart(6, '0')}`;

/**
 * What the art promises of a served icon: a PNG of the game's icon size, hard alpha, every opaque
 * pixel a palette colour, each cell of the `grid`×`grid` one colour; empty when kept, else what is not.
 */
async function brokenArt(png: Buffer, size: number, grid: number, palette: string[]): Promise<string[]> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if ((await sharp(png).metadata()).format !== 'png') return ['not a PNG'];
  if (info.width !== size || info.height !== size) return [`${info.width}×${info.height}, not ${size}²`];
  const broken = new Set<string>();
  const block = Math.floor(size / grid);
  const offset = (size - block * grid) >> 1;
  const pixel = (x: number, y: number) => {
    const p = (y * size + x) * 4;
    const alpha = data[p + 3] as number;
    return alpha ? hex(data[p] as number, data[p + 1] as number, data[p + 2] as number) : null;
  };
  let opaque = 0;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const alpha = data[(y * size + x) * 4 + 3] as number;
      if (alpha !== 0 && alpha !== 255) broken.add(`alpha ${alpha}`);
      const colour = pixel(x, y);
      if (colour) opaque++;
      if (colour && !palette.includes(colour)) broken.add(`${colour} is not in the palette`);
      const cell = [Math.floor((x - offset) / block), Math.floor((y - offset) / block)] as const;
      const inside = x >= offset && y >= offset && cell[0] < grid && cell[1] < grid;
      const first = inside ? pixel(offset + cell[0] * block, offset + cell[1] * block) : null;
      if (colour !== first) broken.add(inside ? `cell ${cell} is not one colour` : 'drawn off the grid');
    }
  if (opaque === 0) broken.add('nothing drawn');
  return [...broken].slice(0, 5);
}

/** A served icon's bytes, fetched as a game would. */
async function served(b: Booted, url: string): Promise<Buffer> {
  const res = await b.server.app.inject({ url });
  expect(res.statusCode, url).toBe(200);
  return res.rawPayload;
}

/** A game file with art and one reference beside it, in a folder of its own. */
function gameWithArt(): string {
  const dir = mkdtempSync(join(scratch, 'game-'));
  writeFileSync(join(dir, 'blue-gem.png'), REFERENCE);
  return writeGameFile(
    (game: GameDefinition) => ({ art: { ...game.art, ...ART, references: ['blue-gem.png'] } }),
    dir,
  );
}

describe('the console shows the game’s art', () => {
  it('serves the loaded references by index, behind the console’s door; 404 past the last', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD, LOOTSMITH_GAME_FILE: gameWithArt() });
    const app = t.server.app;
    expect((await app.inject({ url: '/api/v1/admin/game/references/0' })).statusCode).toBe(401);
    const player = await t.token('ana');
    const asPlayer = await app.inject({
      url: '/api/v1/admin/game/references/0',
      headers: { authorization: `Bearer ${player}` },
    });
    expect(asPlayer.statusCode).toBe(403);

    const call = await signIn(t);
    const state = (await call('GET', '/api/v1/admin/game')).json();
    expect(state.definition.art).toMatchObject({ ...ART, references: ['blue-gem.png'] });
    const reference = await call('GET', '/api/v1/admin/game/references/0');
    expect(reference.statusCode).toBe(200);
    expect(reference.headers['content-type']).toBe('image/png');
    expect(reference.rawPayload.equals(REFERENCE)).toBe(true);
    const past = await call('GET', '/api/v1/admin/game/references/1');
    expect(past.statusCode).toBe(404);
    expect(past.json().error.message).toMatch(/1 reference icon/);
    expect((await call('GET', '/api/v1/admin/game/references/first')).statusCode).toBe(400);
  });

  it('paints a fresh sheet, one icon per item type, in a candidate’s art; the loaded game’s without', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const call = await signIn(t);
    const state = (await call('GET', '/api/v1/admin/game')).json();
    const types = state.item_types as string[];
    const candidate = { ...state.definition, art: { ...state.definition.art, ...ART } };

    const sheet = await call('POST', '/api/v1/admin/playground/sheet', { definition: candidate });
    expect(sheet.statusCode, sheet.body).toBe(200);
    const { icon_size, icons } = sheet.json() as {
      icon_size: number;
      icons: Array<{ type: string; name: string; icon: { id: string; url: string; prompt: string } }>;
    };
    expect(icons.map((i) => i.type)).toEqual(types);
    expect(new Set(icons.map((i) => i.icon.id)).size).toBe(types.length);
    for (const { type, icon } of icons)
      expect(await brokenArt(await served(t, icon.url), icon_size, 32, PALETTE), type).toEqual([]);

    // The loaded game (no art) paints other icons, in colours of its own.
    const loaded = (await call('POST', '/api/v1/admin/playground/sheet', {})).json();
    expect(loaded.icons.map((i: { type: string }) => i.type)).toEqual(types);
    const first = await served(t, loaded.icons[0].icon.url);
    expect(await brokenArt(first, icon_size, 32, PALETTE)).not.toEqual([]);
    expect(loaded.icons[0].icon.id).not.toBe(icons[0]?.icon.id);

    expect(
      (await call('POST', '/api/v1/admin/playground/sheet', { definition: { name: 3 } })).statusCode,
    ).toBe(400);
  });

  it('paints a playground drop in a candidate’s art before it is saved', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const call = await signIn(t);
    const state = (await call('GET', '/api/v1/admin/game')).json();
    const candidate = { ...state.definition, art: { ...state.definition.art, ...ART } };
    const drop = await call('POST', '/api/v1/admin/playground/drop', {
      player_level: 3,
      count: 2,
      type: 'WEAPON',
      definition: candidate,
    });
    expect(drop.statusCode, drop.body).toBe(200);
    for (const item of drop.json().items)
      expect(await brokenArt(await served(t, item.icon.url), 128, 32, PALETTE), item.name).toEqual([]);
  });

  it('refuses a candidate whose reference cannot be read, naming it, and checks it the same way', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD, LOOTSMITH_GAME_FILE: gameWithArt() });
    const call = await signIn(t);
    const state = (await call('GET', '/api/v1/admin/game')).json();
    const art = { ...state.definition.art, references: ['blue-gem.png', 'missing.png'] };
    const candidate = { ...state.definition, art };
    for (const [path, body] of [
      ['/api/v1/admin/playground/sheet', {}],
      ['/api/v1/admin/playground/drop', { player_level: 1, count: 1 }],
    ] as const) {
      const res = await call('POST', path, { ...body, definition: candidate });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().error.details).toEqual([
        { path: 'art.references[1]', message: expect.stringMatching(/"missing.png" does not exist/) },
      ]);
    }
    const check = (await call('POST', '/api/v1/admin/game/check', { definition: candidate })).json();
    expect(check).toMatchObject({ valid: false, issues: [{ path: 'art.references[1]' }] });
    // Resolved beside the loaded game file: its own reference is found.
    const fine = { ...state.definition, art: { ...art, references: ['blue-gem.png'] } };
    expect((await call('POST', '/api/v1/admin/game/check', { definition: fine })).json().valid).toBe(true);
  });
});
