import { type Booted, bootWithFake, PLAYER_SECRET } from '@lootsmith/test-support/boot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signPlayerToken } from '../src/auth.ts';
import type { Coordination } from '../src/coordination/coordination.ts';
import { CombinePlanner } from '../src/crafting/generate.ts';
import { statCeiling } from '../src/game/rules.ts';

// Issue 35, items 4 and 5, replayed as they were tried: what players share (a combine's flight, the
// one-at-a-time backend) is never another's to take, whether another game definition or a burst.

const PASSWORD = 'console-password-0123456789';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const playerToken = (id: string) => signPlayerToken(PLAYER_SECRET, id, 600);
const INGREDIENTS = [
  { item_id: 'iron_ore', quantity: 1 },
  { item_id: 'oak_wood', quantity: 1 },
];
const statSum = (item: { stats: Array<{ value: number }> }) => item.stats.reduce((a, s) => a + s.value, 0);

describe('a combine shared between callers', () => {
  let t: Booted;
  beforeAll(async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
  });
  afterAll(() => t?.close());
  const app = () => t.server.app;
  const game = () => t.server.core.deps.game;

  it('4. a playground combine under a candidate definition does not reach a player’s inventory', async () => {
    const session = await app().inject({
      method: 'POST',
      url: '/api/v1/admin/session',
      payload: { credential: PASSWORD },
    });
    const signedIn = {
      cookie: String(session.headers['set-cookie']).split(';')[0] as string,
      'x-csrf-token': session.json().csrf_token as string,
    };
    // A candidate whose COMMON level-1 item may carry 600 stat points (the live game's: 8).
    const candidate = { ...game(), stat_budget: { ...game().stat_budget, base: 598 } };
    const tried = await app().inject({
      method: 'POST',
      url: '/api/v1/admin/playground/combine',
      headers: signedIn,
      payload: {
        ingredients: INGREDIENTS,
        crafting_station: 'workbench',
        crafting_level: 0,
        definition: candidate,
      },
    });
    const stats: Array<{ value: number }> = tried.json().item.stats;
    expect(stats.reduce((sum, s) => sum + s.value, 0)).toBeGreaterThan(500);

    const chats = t.fake.calls.chat;
    const res = await app().inject({
      method: 'POST',
      url: '/api/v1/crafting/combine',
      headers: auth(playerToken('pat')),
      payload: { player_id: 'pat', ingredients: INGREDIENTS, crafting_station: 'workbench' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json().result_item;
    expect(statSum(item)).toBeLessThanOrEqual(statCeiling(game(), item.rarity, item.level));
    expect(t.fake.calls.chat).toBe(chats + 1);
  });

  it('4. a shared verdict that breaks this caller’s rules is made afresh, not granted', async () => {
    const { core } = t.server;
    // Whatever keeps flights apart, one that slipped through hands over another game's item.
    let shared: unknown;
    const planner = new CombinePlanner({
      ...core.deps,
      materials: core.players.materials,
      resolve: (ids) => core.players.resolve(ids),
      coordination: { singleFlight: async () => shared } as unknown as Coordination,
      recipe: async () => null,
    });
    const setup = await planner.setup(
      { player_id: 'quin', ingredients: INGREDIENTS, crafting_station: 'workbench' },
      { xp: 0, level: 1 },
    );
    const { rarity, level } = setup;
    shared = {
      sensible: true,
      message: '',
      suggestions: [],
      item: {
        ...{ name: 'Candidate Blade', type: 'WEAPON', subtype: 'sword', element: 'none', material: 'iron' },
        ...{ description: 'A test blade.', lore: 'From another game.', effects: [], value: 10 },
        rarity,
        level,
        stats: [{ name: 'attack', value: 413 }],
      },
    };
    const chats = t.fake.calls.chat;
    const plan = await planner.plan(setup);
    expect(plan.kind).toBe('craft');
    if (plan.kind !== 'craft') return;
    expect(statSum(plan.item)).toBeLessThanOrEqual(statCeiling(game(), rarity, level));
    expect(t.fake.calls.chat).toBe(chats + 1);
  });
});

describe('a one-at-a-time image backend', () => {
  let t: Booted;
  beforeAll(async () => {
    t = await bootWithFake({ LOOTSMITH_IMAGE_CONCURRENCY: '1' });
  });
  afterAll(() => t?.close());

  it('5. another player’s drop goes ahead of one player’s burst of 30 image forwards', async () => {
    const app = t.server.app;
    const queue = t.server.core.deps.upstream.targets.image[0]?.queue;
    if (!queue) throw new Error('no image backend');
    const painted: string[] = [];
    t.fake.hostile = (r) => {
      if (r.kind === 'image') painted.push(r.prompt.includes('burst') ? 'burst' : 'other');
      return undefined;
    };
    // The backend is busy while the burst and then the drop queue up.
    let free!: () => void;
    const busy = queue.run('player', 'someone', undefined, () => new Promise<void>((r) => (free = r)));
    const burst = Array.from({ length: 30 }, (_, i) =>
      app.inject({
        method: 'POST',
        url: '/v1/image/generations',
        headers: auth(playerToken('mallory')),
        payload: { prompt: `burst ${i}`, width: 64, height: 64 },
      }),
    );
    await vi.waitFor(() => expect(queue.depth).toBe(30));
    const drop = app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: auth(playerToken('ned')),
      payload: { client_id: 'ned', generation_context: { enemy: 'rat' }, items: [{ type: 'WEAPON' }] },
    });
    await vi.waitFor(() => expect(queue.depth).toBe(31));
    free();
    await busy;
    expect((await drop).statusCode).toBe(200);
    // The drop's icon was the first image painted once the backend was free.
    expect(painted[0]).toBe('other');
    for (const res of await Promise.all(burst)) expect(res.statusCode).toBe(200);
  });
});
