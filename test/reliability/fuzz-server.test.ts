import { ErrorBody } from '@lootsmith/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  badArray,
  badAuthorization,
  badPlayerId,
  badText,
  deletePath,
  noiseHeaders,
  notBoolean,
  notObject,
  notString,
  outOfRange,
  setPath,
  tooLong,
  unicode,
  unknownKey,
} from './support/bad-input.ts';
import { auth, boot, dumpStore, FULL, type Harness, PLAYER_SECRET, SERVER_KEY } from './support/harness.ts';

// Bad input to every server endpoint: only 4xx with the one error body, and not one byte of the store changes.
const RUNS = FULL ? 10_500 : 1_500;
const PLAYER = 'fuzz-player-0001';

type Path = (string | number)[];
interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  url: string;
  credential: 'player' | 'server' | 'none';
  body?: unknown;
  /** Fields and values that make the body invalid on their own. */
  bad?: Array<[Path, fc.Arbitrary<unknown>]>;
  /** Fields whose absence makes the body invalid. */
  required?: Path[];
}

const ingredient = { item_id: 'iron_ore', quantity: 1 };
const ENDPOINTS: Endpoint[] = [
  {
    name: 'session',
    method: 'POST',
    url: '/api/v1/session',
    credential: 'none',
    body: { player_id: PLAYER },
    bad: [[['player_id'], badPlayerId]],
    required: [['player_id']],
  },
  {
    name: 'generate items',
    method: 'POST',
    url: '/v1/generate/items',
    credential: 'player',
    body: {
      client_id: PLAYER,
      generation_context: { location: 'Crypt', enemy: 'skeleton', theme: 'bone', player_level: 3 },
      items: [{ type: 'WEAPON', subtype: 'sword', focus: 'attack' }],
      constraints: { power_budget: 'low', naming_style: 'grim', ensure_uniqueness: true },
      response_format: { type: 'json_object' },
    },
    bad: [
      [['client_id'], fc.oneof(notString, fc.constant(''), tooLong(128))],
      [['items'], badArray(1, 8, fc.constant({}))],
      [['items', 0], notObject],
      [
        ['items', 0, 'type'],
        fc.oneof(
          notString,
          unicode({ maxLength: 10 }).filter((s) => !/^[A-Z]+$/.test(s)),
        ),
      ],
      [['items', 0, 'rarity'], fc.oneof(notString, fc.constantFrom('mythic', 'GODLIKE', ''))],
      [['items', 0, 'subtype'], badText(64)],
      [['generation_context'], notObject],
      [['generation_context', 'player_level'], outOfRange(1, 100)],
      [['generation_context', 'location'], badText(64)],
      [['generation_context', 'enemy'], badText(64)],
      [['constraints', 'ensure_uniqueness'], notBoolean],
      [['constraints', 'naming_style'], badText(64)],
      [['response_format', 'type'], fc.oneof(notString, fc.constantFrom('xml', 'text', ''))],
    ],
    required: [['items']],
  },
  {
    name: 'combine',
    method: 'POST',
    url: '/api/v1/crafting/combine',
    credential: 'player',
    body: {
      player_id: PLAYER,
      ingredients: [ingredient, { item_id: 'oak_wood', quantity: 1 }],
      crafting_station: 'forge',
      crafting_tool: 'hammer',
      description: 'a sword',
    },
    bad: [
      [['player_id'], badPlayerId],
      [['ingredients'], badArray(1, 6, fc.constant(ingredient))],
      [['ingredients', 0], notObject],
      [['ingredients', 0, 'quantity'], outOfRange(1, 999)],
      [['ingredients', 0, 'item_id'], fc.oneof(notString, fc.constant(''), tooLong(64))],
      [['crafting_station'], badText(64)],
      [['crafting_tool'], badText(64)],
      [['description'], tooLong(300)],
    ],
    required: [['player_id'], ['ingredients'], ['ingredients', 0, 'quantity'], ['ingredients', 0, 'item_id']],
  },
  {
    name: 'create item',
    method: 'POST',
    url: `/api/v1/player/${PLAYER}/create-item`,
    credential: 'player',
    body: {
      crafting_station: 'workbench',
      materials: [{ id: 'oak_wood', quantity: 1 }],
      item_parameters: {
        type: 'WEAPON',
        description: 'a club',
        focus_attributes: ['attack'],
        visual_preferences: { color: 'brown', glow: true },
      },
    },
    bad: [
      [['crafting_station'], badText(64)],
      [['materials'], badArray(1, 6, fc.constant({ id: 'oak_wood', quantity: 1 }))],
      [['materials', 0, 'quantity'], outOfRange(1, 999)],
      [['materials', 0, 'id'], fc.oneof(notString, fc.constant(''), tooLong(64))],
      [['item_parameters'], notObject],
      [['item_parameters', 'type'], fc.oneof(notString, fc.constantFrom('weapon', 'SPACESHIP'))],
      [['item_parameters', 'description'], tooLong(300)],
      [['item_parameters', 'focus_attributes'], badArray(0, 4, fc.constant('attack'))],
      [
        ['item_parameters', 'visual_preferences'],
        fc.oneof(
          notObject.filter((v) => v !== null),
          fc.constant(null),
        ),
      ],
      [
        ['item_parameters', 'visual_preferences', 'color'],
        fc.oneof(
          tooLong(64).filter((v) => typeof v === 'string'),
          fc.constant(null),
          fc.constant([]),
          fc.constant({}),
        ),
      ],
    ],
    required: [['crafting_station'], ['materials'], ['item_parameters'], ['item_parameters', 'type']],
  },
  {
    name: 'inventory grant',
    method: 'POST',
    url: `/api/v1/player/${PLAYER}/inventory/grant`,
    credential: 'server',
    body: { items: [{ item_id: 'iron_ore', quantity: 1 }] },
    bad: [
      [['items'], badArray(1, 50, fc.constant(ingredient))],
      [['items', 0, 'quantity'], outOfRange(1, 999)],
      [['items', 0, 'item_id'], fc.oneof(notString, fc.constant(''), tooLong(64))],
    ],
    required: [['items'], ['items', 0, 'quantity']],
  },
  {
    name: 'inventory remove',
    method: 'POST',
    url: `/api/v1/player/${PLAYER}/inventory/remove`,
    credential: 'server',
    body: { items: [{ item_id: 'iron_ore', quantity: 1 }] },
    bad: [
      [['items'], badArray(1, 50, fc.constant(ingredient))],
      [['items', 0, 'quantity'], outOfRange(1, 999)],
    ],
    required: [['items']],
  },
  {
    name: 'player settings',
    method: 'PATCH',
    url: `/api/v1/player/${PLAYER}`,
    credential: 'server',
    body: { blocked: false, crafting_level: 1, daily_items: null, daily_images: 10 },
    bad: [
      [['blocked'], notBoolean],
      [['crafting_level'], fc.oneof(outOfRange(0, 100))],
      [
        ['daily_items'],
        fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: 100_001 }), unicode({ maxLength: 5 })),
      ],
      [['daily_images'], fc.oneof(fc.integer({ max: -1 }), fc.boolean())],
    ],
    required: [],
  },
  {
    name: 'image',
    method: 'POST',
    url: '/v1/image/generations',
    credential: 'player',
    body: {
      prompt: 'an iron sword, game item, fantasy',
      width: 64,
      height: 64,
      steps: 4,
      negative_prompt: 'blur',
    },
    bad: [
      [['prompt'], badText(2000)],
      [['width'], outOfRange(16, 768)],
      [['height'], outOfRange(16, 768)],
      [['steps'], outOfRange(1, 50)],
      [['negative_prompt'], tooLong(2000)],
      [['generation_only'], notBoolean],
      [['seed'], outOfRange(0, 2 ** 32 - 1)],
      [['model'], fc.oneof(fc.constant(''), tooLong(128))],
    ],
    required: [['prompt']],
  },
  {
    name: 'chat',
    method: 'POST',
    url: '/v1/chat/completions',
    credential: 'player',
    body: { messages: [{ role: 'user', content: 'Hello' }], temperature: 0.5, max_tokens: 20 },
    bad: [
      [['messages'], badArray(1, 64, fc.constant({ role: 'user', content: 'x' }))],
      [['messages', 0, 'role'], fc.oneof(notString, fc.constantFrom('tool', 'root', ''))],
      [
        ['messages', 0, 'content'],
        fc.oneof(
          notString.filter((v) => v !== null),
          fc.constant(null),
        ),
      ],
      [
        ['temperature'],
        fc.oneof(fc.double({ min: 2.001, max: 1e9, noNaN: true }), fc.integer({ max: -1 }), unicode()),
      ],
      [['max_tokens'], outOfRange(1, 32_768)],
      [
        ['response_format'],
        fc.oneof(notObject, fc.constant({ type: 'yaml' }), fc.constant({ type: 'json_schema' })),
      ],
      [['stop'], fc.oneof(fc.array(fc.constant('x'), { minLength: 5, maxLength: 8 }), fc.integer())],
    ],
    required: [['messages']],
  },
  {
    name: 'equip',
    method: 'POST',
    url: `/api/v1/player/${PLAYER}/equipment/equip`,
    credential: 'player',
    body: { item_id: 'iron_ore', slot: 'WEAPON' },
    bad: [
      [['item_id'], fc.oneof(notString, fc.constant(''), tooLong(64))],
      [['slot'], fc.oneof(notString, fc.constantFrom('weapon', 'HAT', ''))],
    ],
    required: [['item_id']],
  },
  {
    name: 'unequip',
    method: 'POST',
    url: `/api/v1/player/${PLAYER}/equipment/unequip`,
    credential: 'player',
    body: { slot: 'WEAPON' },
    bad: [[['slot'], fc.oneof(notString, fc.constantFrom('weapon', 'HAT', ''))]],
    required: [['slot']],
  },
  {
    name: 'use item',
    method: 'POST',
    url: `/api/v1/player/${PLAYER}/use-item`,
    credential: 'player',
    body: { item_id: 'healing_herb' },
    bad: [[['item_id'], fc.oneof(notString, fc.constant(''), tooLong(64))]],
    required: [['item_id']],
  },
  { name: 'inventory', method: 'GET', url: `/api/v1/player/${PLAYER}/inventory`, credential: 'player' },
  { name: 'equipment', method: 'GET', url: `/api/v1/player/${PLAYER}/equipment`, credential: 'player' },
  { name: 'game', method: 'GET', url: '/api/v1/game', credential: 'none' },
];

const WITH_BODY = ENDPOINTS.filter((e) => e.body !== undefined);
const AUTHENTICATED = ENDPOINTS.filter((e) => e.credential !== 'none');

interface Case {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const json = (value: unknown) => ({ payload: JSON.stringify(value), contentType: 'application/json' });

let t: Harness;
let playerToken: string;
let before: string;
let uncovered: Set<string>;
let last = 0;
const statusOfLast = () => last;
const statuses = new Map<number, number>();
const credentialOf = (e: Endpoint) =>
  e.credential === 'server' ? auth(SERVER_KEY) : e.credential === 'player' ? auth(playerToken) : {};

/** A body that is wrong in one field: a bad value, a missing required field or an unknown key. */
const mutatedBody = fc.constantFrom(...WITH_BODY).chain((e) => {
  const mutations: fc.Arbitrary<unknown>[] = [
    fc.tuple(unknownKey, fc.jsonValue()).map(([k, v]) => ({ ...(e.body as object), [k]: v })),
  ];
  if (e.bad?.length)
    mutations.push(
      fc
        .constantFrom(...e.bad)
        .chain(([path, bad]) => bad.map((value) => setPath(e.body, path, value)))
        .filter((b) => JSON.stringify(b) !== JSON.stringify(e.body)),
    );
  if (e.required?.length) mutations.push(fc.constantFrom(...e.required).map((p) => deletePath(e.body, p)));
  // A nested object gets an unknown key: every nested schema is strict too.
  const nested = (e.bad ?? [])
    .map(([p]) => p.slice(0, -1))
    .filter(
      (p) =>
        p.length > 0 &&
        typeof getPath(e.body, p) === 'object' &&
        !Array.isArray(getPath(e.body, p)) &&
        // visual_preferences is an open record: any short key is welcome there.
        p[p.length - 1] !== 'visual_preferences',
    );
  if (nested.length)
    mutations.push(
      fc
        .tuple(fc.constantFrom(...nested), unknownKey, fc.jsonValue())
        .map(([p, k, v]) => setPath(e.body, [...p, k], v)),
    );
  // Some carry a well-formed Idempotency-Key: a refused request must not be remembered either.
  const key = fc.option(fc.stringMatching(/^[\w.:-]{8,40}$/), { freq: 3 });
  return fc.tuple(fc.oneof(...mutations), noiseHeaders, key).map(([body, noise, idem]): [string, Case] => {
    const { payload, contentType } = json(body);
    const idempotency: Record<string, string> =
      idem && e.credential !== 'none' ? { 'idempotency-key': idem } : {};
    return [
      e.name,
      {
        method: e.method,
        url: e.url,
        headers: { ...noise, ...credentialOf(e), 'content-type': contentType, ...idempotency },
        payload,
      },
    ];
  });
});

function getPath(body: unknown, path: Path): unknown {
  let at = body as Record<string | number, unknown> | undefined;
  for (const key of path) at = at?.[key] as Record<string | number, unknown> | undefined;
  return at;
}

/** A body that is not an object the schema could accept: random JSON, broken JSON, wrong type, too big. */
const wrongBody = fc.constantFrom(...WITH_BODY).chain((e) =>
  fc
    .tuple(
      fc.oneof(
        // Random JSON; an object gets an unknown key so no random object can be accidentally valid.
        fc
          .jsonValue()
          .chain((v) =>
            v !== null && typeof v === 'object' && !Array.isArray(v)
              ? unknownKey.map((k) => json({ ...v, [k]: 1 }))
              : fc.constant(json(v)),
          ),
        unicode({ maxLength: 200 })
          .filter((s) => {
            try {
              JSON.parse(s);
              return false;
            } catch {
              return true;
            }
          })
          .map((s) => ({ payload: s, contentType: 'application/json' })),
        fc
          .constantFrom('{"player_id":', '{"a":1}}', '\u0000', '[', '{"__proto__":{"x":1}}', 'null', '"')
          .map((s) => ({ payload: s, contentType: 'application/json' })),
        fc
          .tuple(
            fc.constantFrom(
              'text/plain',
              'application/xml',
              'multipart/form-data',
              'application/x-www-form-urlencoded',
              'image/png',
            ),
            fc.jsonValue(),
          )
          .map(([contentType, v]) => ({ payload: JSON.stringify(v), contentType })),
        fc
          .integer({ min: 65 * 1024, max: 200 * 1024 })
          .map((n) => json({ ...(e.body as object), description: 'é'.repeat(n / 2) })),
        fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => ({
          payload: Buffer.from(bytes),
          contentType: 'application/json',
        })),
      ),
      noiseHeaders,
    )
    .map(([{ payload, contentType }, noise]): [string, Case] => [
      e.name,
      {
        method: e.method,
        url: e.url,
        headers: { ...noise, ...credentialOf(e), 'content-type': contentType },
        payload,
      },
    ]),
);

/** A valid request with a refused credential. */
const badCredential = fc
  .tuple(fc.constantFrom(...AUTHENTICATED), badAuthorization(PLAYER, PLAYER_SECRET), noiseHeaders)
  .map(([e, authorization, noise]): [string, Case] => [
    e.name,
    {
      method: e.method,
      url: e.url,
      headers: { ...noise, ...authorization, ...(e.body ? { 'content-type': 'application/json' } : {}) },
      ...(e.body ? { payload: JSON.stringify(e.body) } : {}),
    },
  ]);

const SEGMENT = fc.oneof(
  unicode({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9_.:-]{65,80}$/),
  fc.constantFrom('%', '%zz', '%C0%AF', '%00', '..', '%2e%2e%2f', '%E2%80%AE', '%F0%9F%92', 'a%2Fb', '%20'),
  fc.stringMatching(/^[A-Za-z0-9_.:-]{1,20}$/).filter((s) => s !== PLAYER && s !== '.' && s !== '..'),
);

/** Another player's path, a bad player id, broken percent-encoding, or a path that is no route. */
const badPath = fc
  .tuple(
    fc.oneof(
      fc
        .constantFrom(
          'inventory',
          'create-item',
          'inventory/grant',
          'equipment/equip',
          'use-item',
          'settings',
        )
        .chain((tail) =>
          SEGMENT.map((seg) => ({
            url: `/api/v1/player/${seg}/${tail === 'settings' ? '' : tail}`.replace(/\/$/, ''),
            tail,
          })),
        ),
      SEGMENT.map((seg) => ({ url: `/api/v1/icons/${seg}`, tail: 'icon' })),
      fc
        .array(SEGMENT, { minLength: 1, maxLength: 4 })
        .map((segs) => ({ url: `/${segs.join('/')}`, tail: 'random' }))
        .filter(({ url }) => !/^\/(health|metrics|docs)(\/|$)/.test(url)),
      fc
        .constantFrom(
          '/v1/generate',
          '/v1/image',
          '/api/v1/player',
          '/api/v1/crafting',
          '/v2/chat/completions',
        )
        .map((url) => ({ url, tail: 'random' })),
    ),
    fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'),
    fc.oneof(fc.constant(SERVER_KEY), fc.constant('player')),
    noiseHeaders,
  )
  .map(([{ url, tail }, method, credential, noise]): [string, Case] => {
    const token = credential === 'player' ? playerToken : credential;
    // The server credential may act for any player id, so it only gets routes that cannot match a valid one.
    const bearer = credential === SERVER_KEY && tail !== 'random' ? playerToken : token;
    return [
      `path ${tail}`,
      {
        method,
        url,
        headers: { ...noise, ...auth(bearer), 'content-type': 'application/json' },
        ...(method === 'GET' || method === 'OPTIONS' ? {} : { payload: '{"x_unknown":1}' }),
      },
    ];
  });

/** A known path with a method it does not serve (HEAD answers for GET, as HTTP says). */
const wrongMethod = fc
  .tuple(fc.constantFrom(...ENDPOINTS), fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'))
  .filter(([e, method]) => e.method !== method)
  .map(([e, method]): [string, Case] => [
    e.name,
    {
      method,
      url: e.url,
      headers: { ...credentialOf(e), 'content-type': 'application/json' },
      ...(method === 'GET' || method === 'OPTIONS' ? {} : { payload: JSON.stringify(e.body ?? {}) }),
    },
  ]);

/** A valid request with an Idempotency-Key no replay store may hold. */
const badIdempotencyKey = fc
  .tuple(
    fc.constantFrom(...WITH_BODY.filter((e) => e.method === 'POST' && e.credential !== 'none')),
    fc.oneof(
      fc.stringMatching(/^[\x21-\x7e]{0,7}$/),
      fc.stringMatching(/^[\w.:-]{129,140}$/),
      fc.stringMatching(/^[\x20-\x7e]{8,40}$/).filter((s) => !/^[\w.:-]{8,128}$/.test(s)),
    ),
  )
  .map(([e, key]): [string, Case] => [
    e.name,
    {
      method: e.method,
      url: e.url,
      headers: { ...credentialOf(e), 'content-type': 'application/json', 'idempotency-key': key },
      payload: JSON.stringify(e.body),
    },
  ]);

async function expectRefused([endpoint, c]: [string, Case]) {
  const res = await t.server.app.inject({
    method: c.method as 'GET',
    url: c.url,
    headers: c.headers,
    ...(c.payload === undefined ? {} : { payload: c.payload }),
  });
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  last = res.statusCode;
  uncovered.delete(endpoint);
  const where = `${c.method} ${c.url.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, where).toBeLessThan(500);
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  expect(ErrorBody.safeParse(res.json()).success, where).toBe(true);
}

beforeAll(async () => {
  t = await boot({ env: { LOOTSMITH_ALLOW_CHAT: '1' }, logLevel: 'warn' });
  playerToken = await t.token(PLAYER);
  // One of everything in the store, so "unchanged" covers every table.
  await t.grant(PLAYER, { oak_wood: 20, iron_ore: 20 });
  const drop = await t.server.app.inject({
    method: 'POST',
    url: '/v1/generate/items',
    headers: { ...auth(playerToken), 'idempotency-key': 'fuzz-seed-drop-1' },
    payload: { client_id: PLAYER, items: [{ type: 'WEAPON' }] },
  });
  expect(drop.statusCode).toBe(200);
  const combine = await t.server.app.inject({
    method: 'POST',
    url: '/api/v1/crafting/combine',
    headers: auth(playerToken),
    payload: {
      player_id: PLAYER,
      crafting_station: 'workbench',
      ingredients: [ingredient, { item_id: 'oak_wood', quantity: 1 }],
    },
  });
  expect(combine.json().success).toBe(true);
  const create = await t.server.app.inject({
    method: 'POST',
    url: `/api/v1/player/${PLAYER}/create-item`,
    headers: auth(playerToken),
    payload: ENDPOINTS.find((e) => e.name === 'create item')?.body as object,
  });
  expect(create.statusCode).toBe(200);
  t.fake.calls = { chat: 0, image: 0 };
  before = dumpStore(t.db);
  for (const table of [
    'players',
    'items',
    'inventory',
    'ledger',
    'recipes',
    'discoveries',
    'icons',
    'daily_usage',
    'idempotency',
    'rate_limits',
  ])
    expect(before).toMatch(new RegExp(`-- ${table}\\n[{]`));
  uncovered = new Set(ENDPOINTS.map((e) => e.name));
});

afterAll(async () => {
  await t?.close();
});

describe(`bad input to the server (${RUNS} cases)`, () => {
  const share = (n: number) => Math.ceil(RUNS * n);
  const cfg = (n: number) => ({ numRuns: share(n), seed: FULL ? undefined : 7 });

  it('bodies wrong in one field get 400, never 5xx', async () => {
    await fc.assert(fc.asyncProperty(mutatedBody, expectRefused), cfg(0.4));
  });

  it('bodies that are not the right JSON at all get 4xx', async () => {
    await fc.assert(fc.asyncProperty(wrongBody, expectRefused), cfg(0.2));
  });

  it('forged, expired, malformed and missing credentials get 401 on every authenticated route', async () => {
    await fc.assert(
      fc.asyncProperty(badCredential, async (c) => {
        await expectRefused(c);
        expect(statusOfLast()).toBe(401);
      }),
      cfg(0.2),
    );
  });

  it('bad paths, other players and unknown methods get 4xx', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(badPath, badPath, wrongMethod), expectRefused), cfg(0.15));
  });

  it('bad Idempotency-Key headers get 400 before anything runs', async () => {
    await fc.assert(fc.asyncProperty(badIdempotencyKey, expectRefused), cfg(0.05));
  });

  it('left the store byte-for-byte unchanged and never called the upstream', () => {
    expect([...uncovered]).toEqual([]);
    expect(t.fake.calls).toEqual({ chat: 0, image: 0 });
    expect(t.logs.leaks).toEqual([]);
    // Per-address limits (issue 24) count every request from an address, bad ones too, by design.
    const perAddress = (dump: string) =>
      dump
        .split('\n')
        .filter((l) => !/^\{"key":"(session|address):/.test(l))
        .join('\n');
    const after = perAddress(dumpStore(t.db));
    before = perAddress(before);
    const was = new Set(before.split('\n'));
    const now = new Set(after.split('\n'));
    const changed = [
      ...[...was].filter((l) => !now.has(l)).map((l) => `- ${l}`),
      ...[...now].filter((l) => !was.has(l)).map((l) => `+ ${l}`),
    ];
    expect(changed.slice(0, 20)).toEqual([]);
    expect(after).toBe(before);
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(RUNS);
    console.info(`server fuzz: ${total} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  });
});
