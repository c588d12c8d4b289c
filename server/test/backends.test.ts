import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { type Backends, label, PAIRINGS } from '@lootsmith/test-support/backends';
import {
  type Booted,
  bootWithFake,
  PLAYER_SECRET,
  SERVER_KEY,
  UPSTREAM_KEY,
} from '@lootsmith/test-support/boot';
import { startFakeUpstream } from '@lootsmith/test-support/fake-upstream';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { signPlayerToken } from '../src/auth.ts';
import { loadConfig } from '../src/config.ts';
import { runDoctor } from '../src/doctor.ts';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const token = (player: string) => signPlayerToken(PLAYER_SECRET, player, 600);

let t: Booted | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const boot = async (backends: Backends, env: Record<string, string> = {}, logs?: Writable) => {
  t = await bootWithFake({ LOOTSMITH_UPSTREAM_TIMEOUT_MS: '5000', ...env }, logs, backends);
  return t;
};
const drop = (b: Booted, player: string, items: unknown[] = [{ type: 'WEAPON' }]) =>
  b.server.app.inject({
    method: 'POST',
    url: '/v1/generate/items',
    headers: auth(token(player)),
    payload: { client_id: player, generation_context: { enemy: 'rat' }, items },
  });
const combine = (b: Booted, player: string) =>
  b.server.app.inject({
    method: 'POST',
    url: '/api/v1/crafting/combine',
    headers: auth(token(player)),
    payload: {
      player_id: player,
      crafting_station: 'workbench',
      ingredients: [
        { item_id: 'iron_ore', quantity: 1 },
        { item_id: 'oak_wood', quantity: 1 },
      ],
    },
  });
/** The alpha of each corner of a PNG, and its size and format. */
async function look(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3];
  const w = info.width - 1;
  const h = info.height - 1;
  const meta = await sharp(png).metadata();
  return {
    format: meta.format,
    width: info.width,
    height: info.height,
    corners: [alpha(0, 0), alpha(w, 0), alpha(0, h), alpha(w, h)],
  };
}

describe.each(PAIRINGS)('%s', (backends) => {
  it(`${label(backends)}: a drop, a combine and icons through the real server`, async () => {
    const b = await boot(backends);
    const dropped = await drop(b, 'ada');
    expect(dropped.statusCode, dropped.body).toBe(200);
    const combined = await combine(b, 'ada');
    expect(combined.statusCode, combined.body).toBe(200);
    expect(combined.json().success).toBe(true);
    for (const item of [dropped.json().items[0], combined.json().result_item]) {
      const icon = await b.server.app.inject({ url: item.icon.url });
      expect(icon.statusCode).toBe(200);
      const seen = await look(icon.rawPayload);
      expect([seen.format, seen.width, seen.height]).toEqual(['png', 128, 128]);
      // A painting backend's flat white background is cleared: Lootsmith's own PNG, not the backend's.
      if (backends.image !== 'v1') expect(seen.corners).toEqual([0, 0, 0, 0]);
      expect(icon.rawPayload.length).toBeLessThan(16_000);
    }
    expect(b.fake.calls.image).toBeGreaterThanOrEqual(2);
  });
});

describe('images from a painting backend', () => {
  it('a 1024² JPEG from OpenAI Images becomes a small PNG icon, and a forward comes at the size asked', async () => {
    const b = await boot({ image: 'openai' });
    b.fake.imageFormat = 'jpeg';
    const dropped = await drop(b, 'ben');
    const icon = await b.server.app.inject({ url: dropped.json().items[0].icon.url });
    const seen = await look(icon.rawPayload);
    expect([seen.format, seen.width, seen.corners]).toEqual(['png', 128, [0, 0, 0, 0]]);
    expect(icon.rawPayload.length).toBeLessThan(8_000);
    const forwarded = await b.server.app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(token('ben')),
      payload: { prompt: 'a frost axe, game item', width: 96, height: 64 },
    });
    expect(forwarded.statusCode, forwarded.body).toBe(200);
    const image = await look(Buffer.from(forwarded.json().image, 'base64'));
    expect([image.format, image.width, image.height]).toEqual(['png', 96, 64]);
  });

  it('twenty concurrent drops against a one-at-a-time sdapi all succeed; it never paints two at once', async () => {
    const b = await boot({ image: 'sdapi' }, { LOOTSMITH_IMAGE_TIMEOUT_MS: '2000' });
    b.fake.imageDelayMs = 40;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => drop(b, `crowd-${i}`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(b.fake.painting.most).toBe(1);
    expect(b.fake.calls.image).toBe(20);
    // The wait is visible: queue wait by priority, depth by backend.
    const metrics = await b.server.app.inject({ url: '/metrics', headers: auth(SERVER_KEY) });
    expect(metrics.body).toMatch(
      /lootsmith_backend_queue_wait_seconds_count\{kind="image",api="sdapi",priority="player"\} 20/,
    );
    expect(metrics.body).toContain(
      'lootsmith_backend_queue_depth{kind="image",api="sdapi",target="primary"} 0',
    );
  });

  it('ComfyUI: the workflow with its placeholders filled, a refused checkpoint passed on as a 502', async () => {
    const b = await boot({ image: 'comfyui' }, { LOOTSMITH_IMAGE_MODEL: 'missing.safetensors' });
    const res = await drop(b, 'cy');
    expect(res.statusCode).toBe(502);
    expect(res.json().error.code).toBe('upstream_rejected');
    expect(res.json().error.message).toContain("ckpt_name: 'missing.safetensors'");
    // Issue 24: the player is told what failed, not the operator's catalogue of checkpoints.
    expect(res.body).not.toContain('sd_xl_base_1.0');
  });
});

describe('an OpenAI-compatible chat backend', () => {
  it('learns once that json_schema is refused and asks json_object from then on', async () => {
    const lines: string[] = [];
    const logs = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const b = await boot({ chat: 'openai' }, { LOOTSMITH_LOG_LEVEL: 'warn' }, logs);
    b.fake.structured = 'json_object';
    for (const player of ['cat', 'dan']) expect((await drop(b, player)).statusCode).toBe(200);
    expect(b.fake.formats).toEqual(['json_schema', 'json_object', 'json_object']);
    expect(lines.join('')).toContain('refuses response_format json_schema: json_object from now on');
  });

  it('learns once that a model wants max_completion_tokens and no temperature, as OpenAI says in its 400', async () => {
    const b = await boot({ chat: 'openai' });
    const sent: Array<Record<string, unknown>> = [];
    b.fake.hostile = (r) => {
      if (r.kind !== 'chat') return undefined;
      sent.push(r.body);
      const refuse = (param: string, message: string) => ({
        status: 400,
        body: JSON.stringify({
          error: { message, type: 'invalid_request_error', param, code: 'unsupported_parameter' },
        }),
      });
      if ('max_tokens' in r.body)
        return refuse(
          'max_tokens',
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        );
      if ('temperature' in r.body)
        return refuse(
          'temperature',
          "Unsupported value: 'temperature' does not support 0.8 with this model. Only the default (1) value is supported.",
        );
      return undefined;
    };
    for (const player of ['ivo', 'jan']) expect((await drop(b, player)).statusCode).toBe(200);
    expect(
      sent.map((body) => ['max_tokens', 'max_completion_tokens', 'temperature'].filter((k) => k in body)),
    ).toEqual([
      ['max_tokens', 'temperature'],
      ['max_completion_tokens', 'temperature'],
      ['max_completion_tokens'],
      ['max_completion_tokens'],
    ]);
  });

  it('takes the strict schema derived from the item schema (OpenAI refuses any other)', async () => {
    const b = await boot({ chat: 'openai' });
    expect((await drop(b, 'eve')).statusCode).toBe(200);
    expect(b.fake.formats).toEqual(['json_schema']);
  });

  it('a refusal is logged at warn with its status and a scrubbed reason, and counted in /metrics', async () => {
    const lines: string[] = [];
    const logs = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const b = await boot({ chat: 'openai' }, { LOOTSMITH_LOG_LEVEL: 'warn' }, logs);
    b.fake.models = ['another-model'];
    const res = await drop(b, 'fay');
    expect(res.statusCode).toBe(502);
    expect(res.json().error.code).toBe('upstream_rejected');
    const line = lines.find((l) => l.includes('backend rejected the request'));
    expect(line).toBeDefined();
    expect(JSON.parse(line as string)).toMatchObject({ level: 40, status: 404, backend: 'chat:openai' });
    expect(line).toContain('does not exist');
    const metrics = await b.server.app.inject({ url: '/metrics', headers: auth(SERVER_KEY) });
    expect(metrics.body).toContain(
      'lootsmith_upstream_calls_total{kind="chat",api="openai",target="primary",outcome="rejected"} 1',
    );
  });

  it('a failure that a fallback served is said in the log, never silently procedural', async () => {
    const lines: string[] = [];
    const logs = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const fallback = await startFakeUpstream();
    try {
      const b = await boot(
        { chat: 'openai', image: 'sdapi' },
        {
          LOOTSMITH_FALLBACK_URL: fallback.url,
          LOOTSMITH_FALLBACK_KEY: 'fallback-key-0123',
          LOOTSMITH_LOG_LEVEL: 'warn',
        },
        logs,
      );
      b.fake.mode = 'down';
      const res = await drop(b, 'gil');
      expect(res.statusCode, res.body).toBe(200);
      expect(fallback.calls.chat).toBe(1);
      expect(fallback.calls.image).toBe(1);
      const said = lines.join('');
      expect(said).toContain('the fallback /v1 service served this chat call');
      expect(said).toContain('the fallback /v1 service served this image call');
      const metrics = await b.server.app.inject({ url: '/metrics', headers: auth(SERVER_KEY) });
      expect(metrics.body).toContain('lootsmith_upstream_fallbacks_total{kind="chat"} 1');
    } finally {
      await fallback.close();
    }
  });
});

describe('lootsmith doctor', () => {
  const doctor = async (env: Record<string, string>) => {
    const lines: string[] = [];
    const healthy = await runDoctor(loadConfig({ LOOTSMITH_DATA_DIR: '/tmp/unused', ...env }), (l) =>
      lines.push(l),
    );
    return { healthy, out: lines.join('\n') };
  };

  it('passes a working OpenAI-compatible chat and sdapi pair, with a time for each check', async () => {
    const fake = await startFakeUpstream();
    fake.chatApi = 'openai';
    fake.keys.bearer = UPSTREAM_KEY;
    try {
      const { healthy, out } = await doctor({
        LOOTSMITH_CHAT_URL: `${fake.url}/v1`,
        LOOTSMITH_CHAT_KEY: UPSTREAM_KEY,
        LOOTSMITH_CHAT_MODEL: 'fake-chat',
        LOOTSMITH_IMAGE_API: 'sdapi',
        LOOTSMITH_IMAGE_URL: fake.url,
      });
      expect(out).toMatch(/ok {4}reachable, key accepted \(GET \/models\)\s+\d+ ms/);
      expect(out).toContain('ok    model fake-chat present');
      expect(out).toContain('ok    structured output (json_schema) honoured');
      expect(out).toMatch(/ok {4}painted a test icon: 128² PNG of \d+ bytes/);
      expect(out).toContain('Everything works');
      expect(healthy).toBe(true);
      expect(out).not.toContain(UPSTREAM_KEY);
    } finally {
      await fake.close();
    }
  });

  it('reports a wrong key, a missing model and a backend that ignores json_schema, and fails', async () => {
    const fake = await startFakeUpstream();
    fake.chatApi = 'openai';
    try {
      fake.keys.bearer = 'the-right-key-0123';
      const wrongKey = await doctor({
        LOOTSMITH_CHAT_URL: `${fake.url}/v1`,
        LOOTSMITH_CHAT_KEY: 'a-wrong-key-0123',
        LOOTSMITH_CHAT_MODEL: 'fake-chat',
      });
      expect(wrongKey.healthy).toBe(false);
      expect(wrongKey.out).toContain('FAIL  key refused (GET /models: 401)');
      expect(wrongKey.out).toContain('fix: set LOOTSMITH_CHAT_KEY to a key the service accepts');
      expect(wrongKey.out).not.toContain('a-wrong-key-0123');

      fake.keys.bearer = undefined;
      const missing = await doctor({
        LOOTSMITH_CHAT_URL: `${fake.url}/v1`,
        LOOTSMITH_CHAT_MODEL: 'llama3.1:8b',
      });
      expect(missing.healthy).toBe(false);
      expect(missing.out).toContain('FAIL  model llama3.1:8b not found (there: fake-chat');
      expect(missing.out).toContain('ollama pull llama3.1:8b');

      fake.structured = 'ignores';
      const ignores = await doctor({
        LOOTSMITH_CHAT_URL: `${fake.url}/v1`,
        LOOTSMITH_CHAT_MODEL: 'fake-chat',
      });
      expect(ignores.healthy).toBe(false);
      expect(ignores.out).toContain('FAIL  ignores json_schema');

      fake.structured = 'none';
      const plain = await doctor({ LOOTSMITH_CHAT_URL: `${fake.url}/v1`, LOOTSMITH_CHAT_MODEL: 'fake-chat' });
      expect(plain.out).toContain('warn  refuses json_schema');
    } finally {
      await fake.close();
    }
  });

  it('reports an sdapi that wants a password and a ComfyUI without the checkpoint', async () => {
    const fake = await startFakeUpstream();
    try {
      fake.keys.basic = 'user:secret-pass';
      const sd = await doctor({
        LOOTSMITH_IMAGE_API: 'sdapi',
        LOOTSMITH_IMAGE_URL: fake.url,
        LOOTSMITH_IMAGE_KEY: 'user:wrong-pass',
      });
      expect(sd.healthy).toBe(false);
      expect(sd.out).toContain('FAIL  key refused (GET /sdapi/v1/sd-models: 401)');
      fake.keys.basic = undefined;
      const comfy = await doctor({
        LOOTSMITH_IMAGE_API: 'comfyui',
        LOOTSMITH_IMAGE_URL: fake.url,
        LOOTSMITH_IMAGE_MODEL: 'dreamshaper.safetensors',
      });
      expect(comfy.healthy).toBe(false);
      expect(comfy.out).toContain('FAIL  model dreamshaper.safetensors not found');
    } finally {
      await fake.close();
    }
  });
});

describe('lootsmith doctor output', () => {
  // Issue 35: the doctor printed a backend's message as it came: the key it echoed, sdapi's
  // user:password (as its Basic header), and escape sequences that drive the terminal.
  it('prints no key a backend echoes and no control characters', async () => {
    const echo = createServer((request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      const said = `you sent ${request.headers.authorization} \u001b]0;owned\u0007\u001b[2J\u001b[31mred`;
      response.end(JSON.stringify({ detail: said }));
    });
    await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    try {
      const lines: string[] = [];
      await runDoctor(
        loadConfig({
          LOOTSMITH_DATA_DIR: '/tmp/unused',
          LOOTSMITH_CHAT_URL: `${url}/v1`,
          LOOTSMITH_CHAT_KEY: UPSTREAM_KEY,
          LOOTSMITH_CHAT_MODEL: 'fake-chat',
          LOOTSMITH_IMAGE_API: 'sdapi',
          LOOTSMITH_IMAGE_URL: url,
          LOOTSMITH_IMAGE_KEY: 'painter:sdapi-password-0123',
        }),
        (line) => lines.push(line),
      );
      const out = lines.join('\n');
      expect(out).toContain('GET /models answered 400: you sent Bearer [redacted]');
      expect(out).toContain('GET /sdapi/v1/sd-models answered 400: you sent Basic [redacted]');
      expect(out).not.toContain(UPSTREAM_KEY);
      expect(out).not.toContain(Buffer.from('painter:sdapi-password-0123').toString('base64'));
      for (const line of lines) expect(line).not.toMatch(/\p{Cc}/u);
    } finally {
      await new Promise((done) => echo.close(done));
    }
  });
});

describe('backend settings', () => {
  it('stop start-up naming the variable, and default to what suits each backend', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    expect(() => loadConfig({ LOOTSMITH_CHAT_URL: 'http://127.0.0.1:11434/v1' })).toThrow(
      /LOOTSMITH_CHAT_MODEL: required when LOOTSMITH_CHAT_URL is set/,
    );
    expect(() => loadConfig({ LOOTSMITH_IMAGE_URL: 'http://127.0.0.1:7860' })).toThrow(
      /LOOTSMITH_IMAGE_URL: has no effect unless LOOTSMITH_IMAGE_API is set/,
    );
    expect(() => loadConfig({ LOOTSMITH_IMAGE_API: 'dalle' })).toThrow(/LOOTSMITH_IMAGE_API: must be one of/);
    expect(() => loadConfig({ LOOTSMITH_IMAGE_API: 'sdapi', LOOTSMITH_IMAGE_KEY: 'no-colon' })).toThrow(
      /LOOTSMITH_IMAGE_KEY: must be user:password/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'lootsmith-workflow-'));
    const ui = join(dir, 'ui.json');
    writeFileSync(ui, JSON.stringify({ nodes: [], links: [] }));
    expect(() => loadConfig({ LOOTSMITH_IMAGE_API: 'comfyui', LOOTSMITH_COMFYUI_WORKFLOW: ui })).toThrow(
      /LOOTSMITH_COMFYUI_WORKFLOW: .* is a UI workflow: export it with "Save \(API Format\)"/,
    );
    const noPrompt = join(dir, 'no-prompt.json');
    writeFileSync(noPrompt, JSON.stringify({ 1: { class_type: 'SaveImage', inputs: {} } }));
    expect(() =>
      loadConfig({ LOOTSMITH_IMAGE_API: 'comfyui', LOOTSMITH_COMFYUI_WORKFLOW: noPrompt }),
    ).toThrow(/LOOTSMITH_COMFYUI_WORKFLOW: .* has no \{\{prompt\}\} placeholder/);
    const sd = loadConfig({ LOOTSMITH_IMAGE_API: 'sdapi' }).upstream.image;
    expect(sd).toMatchObject({
      url: 'http://127.0.0.1:7860',
      concurrency: 1,
      timeoutMs: 180_000,
      paintSize: 512,
    });
    const comfy = loadConfig({ LOOTSMITH_IMAGE_API: 'comfyui' }).upstream.image;
    expect(comfy.workflow?.uses).toEqual(
      new Set(['model', 'width', 'height', 'prompt', 'negative_prompt', 'seed', 'steps']),
    );
    const chat = loadConfig({
      LOOTSMITH_CHAT_URL: 'https://api.openai.com/v1',
      LOOTSMITH_CHAT_MODEL: 'gpt-4o-mini',
    });
    expect(chat.upstream.chat).toMatchObject({ api: 'openai', concurrency: 4, timeoutMs: 120_000 });
    expect(chat.upstream.image.api).toBe('embedded');
  });
});

describe('a fallback that serves a forward', () => {
  it('says so in the answer of /v1/image/generations and /v1/chat/completions', async () => {
    const fallback = await startFakeUpstream();
    try {
      const b = await boot(
        { image: 'sdapi' },
        {
          LOOTSMITH_FALLBACK_URL: fallback.url,
          LOOTSMITH_FALLBACK_KEY: 'fallback-key-0123',
          LOOTSMITH_ALLOW_CHAT: '1',
        },
      );
      const forward = (url: string, payload: object) =>
        b.server.app.inject({ method: 'POST', url, headers: auth(token('hal')), payload });
      const served = await forward('/v1/image/generations', { prompt: 'a shield', width: 64, height: 64 });
      expect(served.json().served_by).toBeUndefined();
      b.fake.mode = 'down';
      const image = await forward('/v1/image/generations', { prompt: 'a shield', width: 64, height: 64 });
      expect(image.statusCode, image.body).toBe(200);
      expect(fallback.calls.image).toBe(1);
      expect(image.json().served_by).toBe('fallback');
      const chat = await forward('/v1/chat/completions', {
        messages: [{ role: 'user', content: 'Name a sword.' }],
      });
      expect(chat.statusCode, chat.body).toBe(200);
      expect(chat.json().served_by).toBe('fallback');
    } finally {
      await fallback.close();
    }
  });
});
