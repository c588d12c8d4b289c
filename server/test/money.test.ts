import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Booted, bootWithFake, SERVER_KEY } from '@lootsmith/test-support/boot';
import { type FakeUpstream, startFakeUpstream, usageOf } from '@lootsmith/test-support/fake-upstream';
import { startWebhookReceiver, type WebhookReceiver } from '@lootsmith/test-support/webhook';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityRecorder } from '../src/admin/activity.ts';
import { loadConfig } from '../src/config.ts';
import { DEFAULT_PRICES, loadPrices } from '../src/money/prices.ts';
import { Pricing } from '../src/money/pricing.ts';

let t: Booted | undefined;
let hook: WebhookReceiver | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  await hook?.close();
  hook = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A price file in a scratch folder of its own. */
function priceFile(json: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-prices-'));
  dirs.push(dir);
  const file = join(dir, 'prices.json');
  writeFileSync(file, typeof json === 'string' ? json : JSON.stringify(json));
  return file;
}

const pricing = new Pricing(DEFAULT_PRICES);
/** gpt-4o-mini's list price in billionths of a dollar: $0.15 and $0.60 per million tokens. */
const miniCost = (u: { prompt_tokens: number; completion_tokens: number }) =>
  u.prompt_tokens * 150 + u.completion_tokens * 600;

describe('prices', () => {
  it('prices a chat call by the tokens its answer reported, and bounds it beforehand by what it sends and max_tokens', () => {
    const body = {
      client_id: 'ana',
      messages: [
        { role: 'system' as const, content: 'Write loot for the drop described by the user.' },
        { role: 'user' as const, content: 'Item 1: a WEAPON, EPIC, level 4 — ümlaut and 日本語 too' },
      ],
      max_tokens: 500,
    };
    const usage = usageOf(body.messages, 'x'.repeat(1996));
    expect(pricing.chat('openai', 'gpt-4o-mini', usage)).toBe(miniCost(usage));
    expect(pricing.chat('openai', 'openai/gpt-4o-mini', usage)).toBe(miniCost(usage));
    const max = pricing.chatMax('openai', 'gpt-4o-mini', body) as number;
    expect(max).toBeGreaterThanOrEqual(
      miniCost({ prompt_tokens: usage.prompt_tokens, completion_tokens: 500 }),
    );
    // The embedded engine costs nothing; a model without a price, or an answer without usage, is unpriced.
    expect(pricing.chat('embedded', undefined, usage)).toBe(0);
    expect(pricing.chatMax('embedded', undefined, body)).toBe(0);
    expect(pricing.chat('openai', 'llama3.1:8b', usage)).toBeNull();
    expect(pricing.chatMax('openai', 'llama3.1:8b', body)).toBeNull();
    expect(pricing.chat('openai', 'gpt-4o-mini', undefined)).toBeNull();
    expect(pricing.chat('v1', undefined, usage)).toBeNull();
  });

  it('prices an image by its model, quality and size; the embedded engine is free; a GPU of your own is unpriced', () => {
    const image = (api: string, model: string, size: string, quality?: string) =>
      pricing.image(api, { model, size, ...(quality ? { quality } : {}) });
    expect(image('openai', 'gpt-image-1-mini', '1024x1024', 'low')).toBe(5_000_000);
    expect(image('openai', 'gpt-image-1-mini', '1536x1024', 'high')).toBe(52_000_000);
    expect(image('openai', 'gpt-image-1', '1024x1024', 'medium')).toBe(42_000_000);
    expect(image('openai', 'dall-e-3', '1024x1792', 'hd')).toBe(120_000_000);
    expect(image('openai', 'dall-e-2', '512x512')).toBe(18_000_000);
    expect(image('openai', 'gpt-image-1-mini', '640x640', 'low')).toBeNull();
    expect(image('sdapi', 'v1-5-pruned-emaonly-fp16.safetensors', '512x512')).toBeNull();
    expect(image('comfyui', 'sd_xl_base_1.0.safetensors', '1024x1024')).toBeNull();
    expect(pricing.image('embedded', { size: '128x128' })).toBe(0);
  });

  it('lays a price file over the shipped list model by model, and refuses a bad one naming the variable and the field', () => {
    const file = priceFile({
      chat: { openai: { 'llama3.1:8b': { input_per_1m: 0.01, output_per_1m: 0.02 } } },
      image: { sdapi: { '*': 0.0004 }, openai: { 'gpt-image-1-mini': { '*': 0.004 } } },
    });
    const own = new Pricing(loadPrices(file));
    expect(own.chat('openai', 'llama3.1:8b', { prompt_tokens: 1000, completion_tokens: 100 })).toBe(12_000);
    expect(own.chat('openai', 'gpt-4o-mini', { prompt_tokens: 1000, completion_tokens: 0 })).toBe(150_000);
    expect(own.image('sdapi', { model: 'any-checkpoint', size: '512x512' })).toBe(400_000);
    expect(own.image('openai', { model: 'gpt-image-1-mini', size: '1024x1024', quality: 'low' })).toBe(
      4_000_000,
    );
    // A list in another currency stands alone: the shipped dollar prices are not mixed into it.
    const euros = new Pricing(loadPrices(priceFile({ currency: 'EUR', image: { sdapi: { '*': 0.001 } } })));
    expect(euros.currency).toBe('EUR');
    expect(euros.chat('openai', 'gpt-4o-mini', { prompt_tokens: 1, completion_tokens: 1 })).toBeNull();

    const refused = (json: unknown) => () =>
      loadConfig({ LOOTSMITH_PRICES_FILE: priceFile(json), LOOTSMITH_DATA_DIR: tmpdir() });
    expect(refused({ chat: { openai: { 'gpt-4o-mini': { input_per_1m: -1, output_per_1m: 1 } } } })).toThrow(
      /LOOTSMITH_PRICES_FILE: .*prices\.json: chat\.openai\.gpt-4o-mini\.input_per_1m/,
    );
    expect(refused({ image: { sdapi: { '*': { low: { big: 1 } } } } })).toThrow(
      /LOOTSMITH_PRICES_FILE: .*image\.sdapi\.\*\.low\.big: a size such as 1024x1024/,
    );
    expect(refused({ image: { embedded: { '*': 1 } } })).toThrow(
      /LOOTSMITH_PRICES_FILE: .*image: Unrecognized key: "embedded"/,
    );
    expect(refused('{ not json')).toThrow(/LOOTSMITH_PRICES_FILE: .*prices\.json: .*JSON/);
    expect(() =>
      loadConfig({
        LOOTSMITH_PRICES_FILE: join(tmpdir(), 'no-such-prices.json'),
        LOOTSMITH_DATA_DIR: tmpdir(),
      }),
    ).toThrow(/LOOTSMITH_PRICES_FILE: .*no-such-prices\.json: ENOENT/);
  });
});

/** The server over OpenAI's chat (gpt-4o-mini) and Images (gpt-image-1-mini), both faked, at their list prices. */
async function bootOpenAI(env: Record<string, string> = {}, log?: NodeJS.WritableStream): Promise<Booted> {
  const booted = await bootWithFake({ LOOTSMITH_CHAT_MODEL: 'gpt-4o-mini', ...env }, log, {
    chat: 'openai',
    image: 'openai',
  });
  booted.fake.models.push('gpt-4o-mini');
  return booted;
}

const flush = (b: Booted) => (b.server.core.deps.activity as ActivityRecorder).flush();
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const today = () => new Date().toISOString().slice(0, 10);

async function drop(b: Booted, player: string, items: number) {
  const res = await b.server.app.inject({
    method: 'POST',
    url: '/v1/generate/items',
    headers: bearer(await b.token(player)),
    payload: {
      client_id: player,
      generation_context: { enemy: 'slime', player_level: 2 },
      items: Array(items).fill({ type: 'WEAPON' }),
    },
  });
  expect(res.statusCode).toBe(200);
  return res.json().items as Array<{ id: string; icon: { id: string } }>;
}

/** The chat calls' cost, each as the fake reported its usage, from call `from` on. */
const chatCosts = (fake: FakeUpstream) => fake.usage.map(miniCost);

describe('spend', () => {
  it('records each call’s cost with its player, route and backend: spend per player, route and day is the sum of the calls’ prices', async () => {
    t = await bootOpenAI();
    const anaItems = await drop(t, 'ana', 2);
    await drop(t, 'bob', 1);
    // A forwarded image at medium quality (15 steps, the game's most): $0.011 at 1024x1024.
    const forward = await t.server.app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: bearer(await t.token('ana')),
      payload: { client_id: 'ana', prompt: 'a lantern, game item', width: 512, height: 512, steps: 15 },
    });
    expect(forward.statusCode).toBe(200);
    await flush(t);

    const [anaChat, bobChat] = chatCosts(t.fake) as [number, number];
    expect(t.fake.usage).toHaveLength(2);
    const icon = 5_000_000;
    const spend = await t.server.core.deps.store.admin.spend(today());
    expect(spend).toEqual(
      expect.arrayContaining([
        {
          day: today(),
          route: 'POST /v1/generate/items',
          backend: 'chat:openai',
          calls: 2,
          nanos: anaChat + bobChat,
          unpriced: 0,
        },
        {
          day: today(),
          route: 'POST /v1/generate/items',
          backend: 'image:openai',
          calls: 3,
          nanos: 3 * icon,
          unpriced: 0,
        },
        {
          day: today(),
          route: 'POST /v1/image/generations',
          backend: 'image:openai',
          calls: 1,
          nanos: 11_000_000,
          unpriced: 0,
        },
      ]),
    );
    expect(spend).toHaveLength(3);
    const { admin } = t.server.core.deps.store;
    expect(await admin.playerSpend('ana', today())).toEqual([
      { playerId: 'ana', day: today(), calls: 4, nanos: anaChat + 2 * icon + 11_000_000, unpriced: 0 },
    ]);
    expect(await admin.playerSpend('bob', today())).toEqual([
      { playerId: 'bob', day: today(), calls: 2, nanos: bobChat + icon, unpriced: 0 },
    ]);
    // An item carries its share of the call that wrote it; its icon what painting it cost.
    const made = await Promise.all(anaItems.map((i) => admin.item(i.id)));
    expect(made.map((m) => m?.provenance?.cost).reduce((a, b) => Number(a) + Number(b), 0)).toBe(anaChat);
    expect(made.map((m) => m?.iconCost)).toEqual([icon, icon]);

    // The console reads the same sums in dollars: the overview by route and backend, a player, an item.
    const read = async (url: string) =>
      (await (t as Booted).server.app.inject({ url, headers: bearer(SERVER_KEY) })).json();
    const dollars = (nanos: number, calls: number) => ({ amount: nanos / 1e9, calls, unpriced: 0 });
    const drops = anaChat + bobChat + 3 * icon;
    const { spend: overview } = await read('/api/v1/admin/overview');
    expect(overview).toMatchObject({
      currency: 'USD',
      today: dollars(drops + 11_000_000, 6),
      week: dollars(drops + 11_000_000, 6),
      month: dollars(drops + 11_000_000, 6),
      routes: [
        { route: 'POST /v1/generate/items', today: dollars(drops, 5), week: dollars(drops, 5) },
        { route: 'POST /v1/image/generations', today: dollars(11_000_000, 1), week: dollars(11_000_000, 1) },
      ],
      backends: [
        { backend: 'image:openai', today: dollars(3 * icon + 11_000_000, 4) },
        { backend: 'chat:openai', today: dollars(anaChat + bobChat, 2) },
      ],
    });
    expect(overview.days).toHaveLength(7);
    expect(overview.caps).toEqual([]);
    expect(overview.days.at(-1)).toEqual({ day: today(), ...dollars(drops + 11_000_000, 6) });
    const ana = await read('/api/v1/admin/players/ana');
    expect(ana.spend).toEqual({
      currency: 'USD',
      today: dollars(anaChat + 2 * icon + 11_000_000, 4),
      week: dollars(anaChat + 2 * icon + 11_000_000, 4),
      cap: null,
    });
    expect(ana.player.spend).toBe((anaChat + 2 * icon + 11_000_000) / 1e9);
    const items = await Promise.all(anaItems.map((i) => read(`/api/v1/admin/items/${i.id}`)));
    const texts = items.map((i) => i.provenance.cost.text as number);
    expect(texts.reduce((a, b) => a + b, 0)).toBeCloseTo(anaChat / 1e9, 12);
    expect(items.map((i) => i.provenance.cost.icon)).toEqual([0.005, 0.005]);
  });
});

describe('unpriced calls', () => {
  it('counts calls the price list has no price for as unpriced, never as free, down to the item', async () => {
    // The spec's /v1 service has no list price: its calls are unpriced until a price file gives one.
    t = await bootWithFake();
    const [made] = await drop(t, 'ana', 1);
    await flush(t);
    const read = async (url: string) =>
      (await (t as Booted).server.app.inject({ url, headers: bearer(SERVER_KEY) })).json();
    const { spend } = await read('/api/v1/admin/overview');
    expect(spend.today).toEqual({ amount: 0, calls: 2, unpriced: 2 });
    expect(spend.backends.map((b: { backend: string }) => b.backend).sort()).toEqual(['chat:v1', 'image:v1']);
    const item = await read(`/api/v1/admin/items/${made?.id}`);
    expect(item.provenance.cost).toEqual({ currency: 'USD', text: 'unpriced', icon: 'unpriced' });
  });
});

/** A player's forwarded image at low quality (under 15 steps): $0.005 at gpt-image-1-mini's 1024x1024. */
async function forward(b: Booted, player: string) {
  return b.server.app.inject({
    method: 'POST',
    url: '/v1/image/generations',
    headers: bearer(await b.token(player)),
    payload: { client_id: player, prompt: 'a lantern, game item', width: 512, height: 512, steps: 8 },
  });
}

describe('spend caps', () => {
  it('refuses the call after the game’s daily cap is spent, sending nothing and taking nothing of the player’s budget', async () => {
    t = await bootOpenAI({ LOOTSMITH_SPEND_DAILY_CAP: '0.025' });
    for (let i = 0; i < 5; i++) expect((await forward(t, i % 2 ? 'ana' : 'bob')).statusCode).toBe(200);
    const refused = await forward(t, 'ana');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      error: {
        code: 'spend_cap_reached',
        message: expect.stringContaining('daily spend cap'),
        details: { cap: 'game_daily', resets_at: expect.stringMatching(/T00:00:00\.000Z$/) },
      },
    });
    // No amount of the operator's money is told to a player.
    expect(refused.body).not.toMatch(/\$|0\.025|USD/);
    expect(t.fake.calls.image).toBe(5);
    const day = today();
    expect(await t.server.core.deps.store.dailyUsage('ana', day)).toEqual({ items: 0, images: 2 });
    await flush(t);
    const overview = (
      await t.server.app.inject({ url: '/api/v1/admin/overview', headers: bearer(SERVER_KEY) })
    ).json();
    expect(overview.spend.today).toEqual({ amount: 0.025, calls: 5, unpriced: 0 });
    expect(overview.spend.caps).toEqual([{ cap: 'game_daily', limit: 0.025, spent: 0.025, period: day }]);
    // The console counts it as the game's refusal, not an error.
    expect(overview.answers).toContainEqual({ kind: 'game_refusal', code: 'spend_cap_reached', count: 1 });
    expect(overview.totals.errors).toBe(0);
  });

  it('reserves a call at its most: a drop whose most would pass the cap is refused before the model is asked', async () => {
    // gpt-4o-mini with 4,096 tokens out can cost $0.0025 and more; the drop would cost far less.
    t = await bootOpenAI({ LOOTSMITH_SPEND_DAILY_CAP: '0.002' });
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: bearer(await t.token('ana')),
      payload: {
        client_id: 'ana',
        generation_context: { enemy: 'slime', player_level: 2 },
        items: [{ type: 'WEAPON' }],
      },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().error.code).toBe('spend_cap_reached');
    expect(t.fake.usage).toHaveLength(0);
    // Nothing was sent, so the drop took nothing of the player's daily items.
    expect(await t.server.core.deps.store.dailyUsage('ana', today())).toEqual({ items: 0, images: 0 });
  });

  it('holds each player to a daily cap of their own, and the others play on', async () => {
    t = await bootOpenAI({ LOOTSMITH_SPEND_PLAYER_DAILY_CAP: '0.01' });
    expect((await forward(t, 'ana')).statusCode).toBe(200);
    expect((await forward(t, 'ana')).statusCode).toBe(200);
    const refused = await forward(t, 'ana');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({
      code: 'spend_cap_reached',
      message: "Player ana has reached today's spend cap: new content resumes at midnight UTC",
      details: { cap: 'player_daily' },
    });
    expect((await forward(t, 'bob')).statusCode).toBe(200);
    const ana = await t.server.app.inject({ url: '/api/v1/admin/players/ana', headers: bearer(SERVER_KEY) });
    expect(ana.json().spend.cap).toEqual({ limit: 0.01, spent: 0.01, period: today() });
  });

  it('serves from the embedded engine once a cap is reached, when the operator says so', async () => {
    t = await bootOpenAI({ LOOTSMITH_SPEND_DAILY_CAP: '0.005', LOOTSMITH_SPEND_CAP_SERVE: 'embedded' });
    expect((await forward(t, 'ana')).statusCode).toBe(200);
    expect(t.fake.calls.image).toBe(1);
    // Past the cap: the engine paints (free) and the fake is not called again.
    const past = await forward(t, 'ana');
    expect(past.statusCode).toBe(200);
    expect(Buffer.from(past.json().image, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(t.fake.calls.image).toBe(1);
    await flush(t);
    const spend = await t.server.core.deps.store.admin.spend(today());
    expect(spend.map((s) => [s.backend, s.calls, s.nanos]).sort()).toEqual([
      ['image:embedded', 1, 0],
      ['image:openai', 1, 5_000_000],
    ]);
  });

  it('serves from the /v1 fallback alone once a cap is reached, when the operator says so, counting what it costs', async () => {
    const fallback = await startFakeUpstream();
    try {
      t = await bootOpenAI({
        LOOTSMITH_SPEND_DAILY_CAP: '0.005',
        LOOTSMITH_SPEND_CAP_SERVE: 'fallback',
        LOOTSMITH_FALLBACK_URL: fallback.url,
        LOOTSMITH_FALLBACK_KEY: 'fallback-key-0123',
        LOOTSMITH_PRICES_FILE: priceFile({
          chat: { v1: { '*': { input_per_1m: 0.1, output_per_1m: 0.1 } } },
          image: { v1: { '*': 0.002 } },
        }),
      });
      expect((await forward(t, 'ana')).statusCode).toBe(200);
      const past = await forward(t, 'ana');
      expect(past.statusCode).toBe(200);
      expect(past.json().served_by).toBe('fallback');
      expect([t.fake.calls.image, fallback.calls.image]).toEqual([1, 1]);
      await flush(t);
      const spend = await t.server.core.deps.store.admin.spend(today());
      expect(spend.map((s) => [s.backend, s.calls, s.nanos]).sort()).toEqual([
        ['fallback', 1, 2_000_000],
        ['image:openai', 1, 5_000_000],
      ]);
    } finally {
      await fallback.close();
    }
  });

  it('refuses caps it cannot keep exactly, and other bad cap settings, naming the variable', () => {
    const config = (env: Record<string, string>) => () =>
      loadConfig({ LOOTSMITH_DATA_DIR: tmpdir(), ...env });
    // The embedded engine is free: a cap over it needs no price.
    expect(config({ LOOTSMITH_SPEND_DAILY_CAP: '5' })().caps).toEqual({ daily: 5e9, serve: 'refuse' });
    expect(
      config({
        LOOTSMITH_SPEND_MONTHLY_CAP: '100',
        LOOTSMITH_SPEND_PLAYER_DAILY_CAP: '0.25',
        LOOTSMITH_SPEND_CAP_SERVE: 'embedded',
      })().caps,
    ).toEqual({ monthly: 100e9, playerDaily: 250_000_000, serve: 'embedded' });
    const hosted = {
      LOOTSMITH_UPSTREAM_URL: 'https://content.example.com',
      LOOTSMITH_UPSTREAM_KEY: 'key-0123456789',
    };
    expect(config({ ...hosted, LOOTSMITH_SPEND_DAILY_CAP: '5' })).toThrow(
      'LOOTSMITH_SPEND_DAILY_CAP: needs a price for every backend it caps, and chat:v1 has none: give it one in LOOTSMITH_PRICES_FILE',
    );
    // A price of 0 is a price: the calls of a hosted service the operator pays nothing for.
    const priced = priceFile({
      chat: { v1: { '*': { input_per_1m: 1, output_per_1m: 2 } } },
      image: { v1: { '*': 0 } },
    });
    expect(
      config({ ...hosted, LOOTSMITH_SPEND_DAILY_CAP: '5', LOOTSMITH_PRICES_FILE: priced })().caps?.daily,
    ).toBe(5e9);
    expect(config({ LOOTSMITH_SPEND_DAILY_CAP: '-1' })).toThrow(
      'LOOTSMITH_SPEND_DAILY_CAP: must be more than 0',
    );
    expect(config({ LOOTSMITH_SPEND_MONTHLY_CAP: 'lots' })).toThrow(
      'LOOTSMITH_SPEND_MONTHLY_CAP: must be an amount such as 25 or 0.50',
    );
    expect(config({ LOOTSMITH_SPEND_CAP_SERVE: 'embedded' })).toThrow(
      'LOOTSMITH_SPEND_CAP_SERVE: has no effect unless LOOTSMITH_SPEND_DAILY_CAP',
    );
    expect(config({ LOOTSMITH_SPEND_DAILY_CAP: '5', LOOTSMITH_SPEND_CAP_SERVE: 'fallback' })).toThrow(
      'LOOTSMITH_SPEND_CAP_SERVE: fallback needs a /v1 fallback: set LOOTSMITH_FALLBACK_URL and LOOTSMITH_FALLBACK_KEY',
    );
    expect(config({ LOOTSMITH_SPEND_DAILY_CAP: '5', LOOTSMITH_SPEND_CAP_SERVE: 'always' })).toThrow(
      /LOOTSMITH_SPEND_CAP_SERVE: /,
    );
  });
});

/** The server's log lines, as JSON. */
function logLines() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, text: () => lines.join('\n') };
}

describe('spend alerts', () => {
  const SECRET = 'alert-secret-0123456789abcdef';

  it('posts the webhook once when a cap passes 80% and once when it is reached, signed, and logs each', async () => {
    hook = await startWebhookReceiver();
    const log = logLines();
    t = await bootOpenAI(
      {
        LOOTSMITH_SPEND_DAILY_CAP: '0.025',
        LOOTSMITH_SPEND_ALERT_URL: `${hook.url}/hooks/lootsmith-token-in-path`,
        LOOTSMITH_SPEND_ALERT_SECRET: SECRET,
        LOOTSMITH_LOG_LEVEL: 'warn',
      },
      log.stream,
    );
    // $0.005 a call against $0.025: the 4th passes 80%, the 5th reaches it, the 6th and 7th are refused.
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await forward(t, 'ana')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    await vi.waitFor(() => expect(hook?.got).toHaveLength(2));
    const day = today();
    const alert = (threshold: number, spent: number) => ({
      type: 'spend_cap',
      threshold,
      cap: 'game_daily',
      period: day,
      spent,
      limit: 0.025,
      currency: 'USD',
      at: expect.any(String),
    });
    expect(hook.got.map((g) => g.body)).toEqual([alert(80, 0.02), alert(100, 0.025)]);
    for (const { body, headers } of hook.got) {
      const signed = createHmac('sha256', SECRET).update(JSON.stringify(body)).digest('hex');
      expect(headers['x-lootsmith-signature']).toBe(`sha256=${signed}`);
      expect(headers['content-type']).toBe('application/json');
    }
    // A line in the log for each; neither the webhook's address nor its secret.
    await vi.waitFor(() => expect(log.text()).toContain('spend cap game_daily at 100%'));
    expect(log.text()).toContain('spend cap game_daily at 80%: 0.02 of 0.025 USD spent');
    expect(log.text()).not.toContain('lootsmith-token-in-path');
    expect(log.text()).not.toContain(SECRET);
    // Later calls refused by the reached cap send nothing more.
    expect((await forward(t, 'bob')).statusCode).toBe(429);
    await flush(t);
    expect(hook.got).toHaveLength(2);
  });

  it('alerts for a player’s cap with the player, once per player and day', async () => {
    hook = await startWebhookReceiver();
    t = await bootOpenAI({ LOOTSMITH_SPEND_PLAYER_DAILY_CAP: '0.01', LOOTSMITH_SPEND_ALERT_URL: hook.url });
    for (let i = 0; i < 3; i++) await forward(t, 'ana');
    await forward(t, 'bob');
    await vi.waitFor(() => expect(hook?.got).toHaveLength(2));
    expect(hook.got.map((g) => [g.body.cap, g.body.player_id, g.body.threshold])).toEqual([
      ['player_daily', 'ana', 80],
      ['player_daily', 'ana', 100],
    ]);
  });

  it('never holds up or fails a call for a webhook that hangs, is down or refuses, and says so in the log', async () => {
    // The receiver holds every alert open and never answers: a call that waited on one would never end.
    hook = await startWebhookReceiver('hang');
    t = await bootOpenAI({ LOOTSMITH_SPEND_DAILY_CAP: '0.005', LOOTSMITH_SPEND_ALERT_URL: hook.url });
    expect((await forward(t, 'ana')).statusCode).toBe(200);
    await vi.waitFor(() => expect(hook?.got).toHaveLength(2));
    expect((await forward(t, 'ana')).statusCode).toBe(429);
    // Shutting down calls off what is still being sent.
    await t.close();
    t = undefined;

    for (const status of [500, 'down'] as const) {
      const receiver = await startWebhookReceiver(status === 'down' ? 204 : status);
      if (status === 'down') await receiver.close();
      const log = logLines();
      t = await bootOpenAI(
        {
          LOOTSMITH_SPEND_DAILY_CAP: '0.005',
          LOOTSMITH_SPEND_ALERT_URL: receiver.url,
          LOOTSMITH_LOG_LEVEL: 'warn',
        },
        log.stream,
      );
      expect((await forward(t, 'ana')).statusCode).toBe(200);
      await vi.waitFor(() => expect(log.text()).toContain('the spend alert webhook was not delivered'));
      expect(log.text()).toContain(status === 'down' ? 'ECONNREFUSED' : 'status 500');
      expect(log.text()).not.toContain(receiver.url);
      await t.close();
      t = undefined;
      if (status !== 'down') await receiver.close();
    }
  });

  it('refuses alert settings that would do nothing', () => {
    const config = (env: Record<string, string>) => () =>
      loadConfig({ LOOTSMITH_DATA_DIR: tmpdir(), ...env });
    expect(config({ LOOTSMITH_SPEND_ALERT_URL: 'https://hooks.example.com/x' })).toThrow(
      'LOOTSMITH_SPEND_ALERT_URL: has no effect unless LOOTSMITH_SPEND_DAILY_CAP',
    );
    expect(config({ LOOTSMITH_SPEND_DAILY_CAP: '1', LOOTSMITH_SPEND_ALERT_SECRET: SECRET })).toThrow(
      'LOOTSMITH_SPEND_ALERT_SECRET: has no effect unless LOOTSMITH_SPEND_ALERT_URL is set',
    );
    expect(config({ LOOTSMITH_SPEND_DAILY_CAP: '1', LOOTSMITH_SPEND_ALERT_URL: 'ftp://x' })).toThrow(
      /LOOTSMITH_SPEND_ALERT_URL: /,
    );
  });
});
