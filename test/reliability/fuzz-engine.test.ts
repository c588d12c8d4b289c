import { buildEngineApp } from '@lootsmith/engine';
import { ErrorBody } from '@lootsmith/protocol';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  badArray,
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
import { FULL } from './support/harness.ts';

// Bad input to every endpoint of the embedded `/v1` engine: only 4xx with the error body, and no key's
// credits or usage move.
const RUNS = FULL ? 10_000 : 1_200;
const KEY = 'sk_engine_fuzz_full_0123456789';
const IMAGE_ONLY = 'sk_engine_fuzz_image_0123456789';
const BROKE = 'sk_engine_fuzz_broke_0123456789';
const KEYS = [KEY, IMAGE_ONLY, BROKE];

type Path = (string | number)[];
interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  body?: Record<string, unknown>;
  bad?: Array<[Path, fc.Arbitrary<unknown>]>;
  required?: Path[];
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'image',
    method: 'POST',
    url: '/v1/image/generations',
    body: {
      client_id: 'player-1',
      prompt: 'iron sword, game item, fantasy',
      negative_prompt: 'blur',
      width: 32,
      height: 32,
      steps: 2,
      seed: 7,
      generation_only: false,
    },
    bad: [
      [['client_id'], fc.oneof(notString, fc.constant(''), tooLong(128))],
      [['prompt'], badText(2000)],
      [['negative_prompt'], tooLong(2000)],
      [['width'], outOfRange(16, 768)],
      [['height'], outOfRange(16, 768)],
      [['steps'], outOfRange(1, 50)],
      [['seed'], outOfRange(0, 2 ** 32 - 1)],
      [['generation_only'], notBoolean],
      [['model'], fc.oneof(fc.constant(''), tooLong(128), fc.constantFrom('dall-e-3', 'unknown-model'))],
    ],
    required: [['client_id'], ['prompt']],
  },
  {
    name: 'chat',
    method: 'POST',
    url: '/v1/chat/completions',
    body: {
      client_id: 'player-1',
      messages: [
        { role: 'system', content: 'You write loot.' },
        { role: 'user', content: 'A sword.' },
      ],
      temperature: 0.7,
      max_tokens: 64,
      response_format: { type: 'json_object' },
    },
    bad: [
      [['client_id'], fc.oneof(notString, fc.constant(''), tooLong(128))],
      [['messages'], badArray(1, 64, fc.constant({ role: 'user', content: 'x' }))],
      [['messages', 0], notObject],
      [['messages', 0, 'role'], fc.oneof(notString, fc.constantFrom('tool', 'root', '', 'SYSTEM'))],
      [
        ['messages', 1, 'content'],
        fc.oneof(
          tooLong(100_000).filter((v) => typeof v !== 'string'),
          fc.integer(),
        ),
      ],
      [
        ['temperature'],
        fc.oneof(
          fc.double({ min: 2.001, max: 1e9, noNaN: true }),
          fc.double({ max: -0.001, noNaN: true, noDefaultInfinity: true }),
          unicode(),
        ),
      ],
      [['top_p'], fc.oneof(fc.double({ min: 1.001, max: 10, noNaN: true }), fc.boolean())],
      [['max_tokens'], outOfRange(1, 32_768)],
      [
        ['response_format'],
        fc.oneof(notObject, fc.constant({ type: 'yaml' }), fc.constant({ type: 'json_schema' })),
      ],
      [['stop'], fc.oneof(fc.array(fc.constant('x'), { minLength: 5, maxLength: 8 }), fc.integer())],
      [['stream'], notBoolean],
      [['seed'], outOfRange(0, 2 ** 32 - 1)],
      [['model'], fc.oneof(fc.constant(''), tooLong(128))],
    ],
    required: [['client_id'], ['messages']],
  },
  { name: 'models', method: 'GET', url: '/v1/models' },
  { name: 'usage', method: 'GET', url: '/v1/usage' },
  { name: 'usage page', method: 'GET', url: '/v1/usage/page' },
];
const WITH_BODY = ENDPOINTS.filter((e) => e.body);

interface Case {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const mutatedBody = fc.constantFrom(...WITH_BODY).chain((e) => {
  const mutations: fc.Arbitrary<unknown>[] = [
    fc.tuple(unknownKey, fc.jsonValue()).map(([k, v]) => ({ ...e.body, [k]: v })),
    fc.constantFrom(...(e.required ?? [])).map((p) => deletePath(e.body, p)),
    fc
      .constantFrom(...(e.bad ?? []))
      .chain(([path, bad]) => bad.map((value) => setPath(e.body, path, value)))
      .filter((b) => JSON.stringify(b) !== JSON.stringify(e.body)),
  ];
  return fc.tuple(fc.oneof(...mutations), noiseHeaders).map(([body, noise]): [string, Case] => [
    e.name,
    {
      method: e.method,
      url: e.url,
      headers: { ...noise, ...bearer(KEY), 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    },
  ]);
});

const wrongBody = fc.constantFrom(...WITH_BODY).chain((e) =>
  fc
    .oneof(
      fc
        .jsonValue()
        .map((v) =>
          v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v, x_unknown_field: 1 } : v,
        )
        .map((v) => ({ payload: JSON.stringify(v) as string | Buffer, type: 'application/json' })),
      fc
        .constantFrom('{"client_id":', '[', 'null', '', '\u0000', '{"a":1}}')
        .map((s) => ({ payload: s, type: 'application/json' })),
      fc
        .uint8Array({ minLength: 1, maxLength: 200 })
        .map((b) => ({ payload: Buffer.from(b), type: 'application/json' })),
      fc
        .tuple(
          fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'image/png'),
          fc.jsonValue(),
        )
        .map(([type, v]) => ({ payload: JSON.stringify(v), type })),
      fc.integer({ min: 65 * 1024, max: 120 * 1024 }).map((n) => ({
        payload: JSON.stringify({ ...e.body, prompt: 'ß'.repeat(n) }),
        type: 'application/json',
      })),
    )
    .map(({ payload, type }): [string, Case] => [
      e.name,
      { method: e.method, url: e.url, headers: { ...bearer(KEY), 'content-type': type }, payload },
    ]),
);

const badKey = fc
  .tuple(
    fc.constantFrom(...ENDPOINTS),
    fc.oneof(
      fc.constant({}),
      fc
        .constantFrom('', 'Bearer', 'Bearer ', 'Basic', 'Basic !!!', 'Token x')
        .map((a) => ({ authorization: a })),
      fc
        .stringMatching(/^[\x21-\x7e]{1,60}$/)
        .filter((k) => !KEYS.includes(k))
        .map(bearer),
      fc.constant(bearer(`${KEY}x`)),
      fc.constant(bearer(KEY.slice(0, -1))),
      fc.constant({ authorization: `Basic ${Buffer.from(`user:${KEY}x`).toString('base64')}` }),
    ),
  )
  .map(([e, headers]): [string, Case] => [
    e.name,
    {
      method: e.method,
      url: e.url,
      headers: { ...headers, ...(e.body ? { 'content-type': 'application/json' } : {}) },
      ...(e.body ? { payload: JSON.stringify(e.body) } : {}),
    },
  ]);

/** Valid requests a key may not make: no permission, no credits, a restricted client. */
const forbidden = fc
  .constantFrom(
    { key: IMAGE_ONLY, e: 'chat', body: {} },
    { key: BROKE, e: 'image', body: {} },
    { key: BROKE, e: 'chat', body: {} },
    { key: KEY, e: 'image', body: { client_id: 'banned-player' } },
    { key: KEY, e: 'chat', body: { client_id: 'banned-player' } },
  )
  .map(({ key, e, body }): [string, Case] => {
    const endpoint = ENDPOINTS.find((x) => x.name === e) as Endpoint;
    return [
      endpoint.name,
      {
        method: 'POST',
        url: endpoint.url,
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: JSON.stringify({ ...endpoint.body, ...body }),
      },
    ];
  });

const badPath = fc
  .tuple(
    fc.oneof(
      // Undecodable URLs ('/%') are pinned by their own test below.
      fc.constantFrom('/v1/image', '/v1/chat', '/v1/images/generations', '/v2/models', '/v1/usage/x', '/v1/'),
      unicode({ minLength: 1, maxLength: 20 }).map((s) => `/v1/${encodeURIComponent(s)}`),
    ),
    fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
  )
  .filter(([url]) => !['/v1/models', '/v1/usage'].includes(url))
  .map(([url, method]): [string, Case] => [
    'path',
    {
      method,
      url,
      headers: { ...bearer(KEY), 'content-type': 'application/json' },
      ...(method === 'GET' ? {} : { payload: '{}' }),
    },
  ]);

let app: FastifyInstance;
let before: string;
const statuses = new Map<number, number>();
const usageOfAll = async () =>
  JSON.stringify(
    await Promise.all(
      KEYS.map(async (k) => (await app.inject({ url: '/v1/usage', headers: bearer(k) })).json()),
    ),
  );

async function expectRefused([name, c]: [string, Case]) {
  const res = await app.inject({
    method: c.method as 'GET',
    url: c.url,
    headers: c.headers,
    ...(c.payload === undefined ? {} : { payload: c.payload }),
  });
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  const where = `${name}: ${c.method} ${c.url.slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, where).toBeLessThan(500);
  expect(ErrorBody.safeParse(res.json()).success, where).toBe(true);
  for (const key of KEYS) expect(res.body, where).not.toContain(key);
  return res.statusCode;
}

beforeAll(async () => {
  app = await buildEngineApp({
    bodyLimit: 64 * 1024,
    keys: [
      { key: KEY, name: 'full', credits: 1_000, restricted_clients: ['banned-player'] },
      { key: IMAGE_ONLY, name: 'image-only', permissions: ['image'], credits: 50 },
      { key: BROKE, name: 'broke', credits: 0 },
    ],
  });
  // One success on each kind, so unchanged usage is a meaningful check.
  for (const e of WITH_BODY) {
    const res = await app.inject({ method: 'POST', url: e.url, headers: bearer(KEY), payload: e.body });
    expect(res.statusCode, res.body).toBe(200);
  }
  before = await usageOfAll();
  expect(before).toContain('"credits_remaining":998');
});
afterAll(async () => {
  await app?.close();
});

describe(`bad input to the engine (${RUNS} cases)`, () => {
  const cfg = (share: number) => ({ numRuns: Math.ceil(RUNS * share), seed: FULL ? undefined : 11 });

  it('bodies wrong in one field get 400', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedBody, async (c) => void (await expectRefused(c))),
      cfg(0.45),
    );
  });

  it('bodies that are not the right JSON get 400', async () => {
    await fc.assert(
      fc.asyncProperty(wrongBody, async (c) => void (await expectRefused(c))),
      cfg(0.2),
    );
  });

  it('missing, malformed and wrong keys get 401 on every endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(badKey, async (c) => {
        expect(await expectRefused(c)).toBe(401);
      }),
      cfg(0.2),
    );
  });

  it('keys without permission, credits or access for the client get 403', async () => {
    await fc.assert(
      fc.asyncProperty(forbidden, async (c) => {
        expect(await expectRefused(c)).toBe(403);
      }),
      cfg(0.05),
    );
  });

  it('unknown paths and methods get 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(badPath, async (c) => void (await expectRefused(c))),
      cfg(0.1),
    );
  });

  it('answers an undecodable URL with the one error body', async () => {
    for (const url of ['/%', '/v1/%zz', '/v1/usage%'])
      await expectRefused(['path', { method: 'GET', url, headers: bearer(KEY) }]);
  });

  it('moved no credits and no usage of any key', async () => {
    expect(await usageOfAll()).toBe(before);
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(RUNS);
    console.info(`engine fuzz: ${total} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  });
});
