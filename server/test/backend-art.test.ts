import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backendEnv } from '@lootsmith/test-support/backends';
import { type Booted, bootServer, PLAYER_SECRET, UPSTREAM_KEY } from '@lootsmith/test-support/boot';
import {
  type FakeUpstream,
  type SeenRequest,
  startFakeUpstream,
} from '@lootsmith/test-support/fake-upstream';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { signPlayerToken } from '../src/auth.ts';
import { Cancel } from '../src/cancel.ts';
import { loadConfig } from '../src/config.ts';
import { runDoctor } from '../src/doctor.ts';
import { IMAGE_BACKENDS, type ImageApi, openBackend } from '../src/upstream/backends/registry.ts';
import type { ImageAsk, ReferenceImage } from '../src/upstream/backends/types.ts';

const STYLE = 'gritty neon pixel art';
const AVOID = 'blurry, photorealistic, lens flare';
const APIS = IMAGE_BACKENDS.map((b) => b.api);
/** The routes an image API paints on. */
const PAINTS = new Set([
  '/v1/image/generations',
  '/v1/images/generations',
  '/v1/images/edits',
  '/sdapi/v1/txt2img',
  '/prompt',
]);

/** A small icon of the game's own, as a developer would give in `art.references`. */
const icon = (colour: string) =>
  sharp({ create: { width: 32, height: 32, channels: 4, background: colour } })
    .png()
    .toBuffer();

const closing: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A fresh fake, closed after the test. */
async function fake(): Promise<FakeUpstream> {
  const f = await startFakeUpstream();
  closing.push(() => f.close());
  return f;
}

/** The adapter the server would open for `api` against the fake, with `env` on top. */
function adapter(f: FakeUpstream, api: ImageApi, env: Record<string, string> = {}) {
  const config = loadConfig({
    LOOTSMITH_DATA_DIR: '/tmp/unused',
    LOOTSMITH_UPSTREAM_URL: f.url,
    LOOTSMITH_UPSTREAM_KEY: UPSTREAM_KEY,
    ...backendEnv(f, { image: api }, UPSTREAM_KEY),
    ...env,
  });
  const backend = openBackend('image', config.upstream.image);
  closing.push(() => backend.close());
  return backend;
}

const attempt = () => ({ deadline: Date.now() + 5_000, deadlineMs: 5_000, signal: new Cancel() });

async function iconAsk(references: ReferenceImage[] = []): Promise<ImageAsk> {
  return {
    client_id: 'ada',
    prompt: `iron sword, game item, ${STYLE}`,
    width: 128,
    height: 128,
    steps: 12,
    seed: 7,
    icon: true,
    avoid: AVOID,
    references,
  };
}

const references = async (): Promise<ReferenceImage[]> => [
  { name: 'sword.png', type: 'image/png', bytes: await icon('#d04648') },
  { name: 'shield.png', type: 'image/png', bytes: await icon('#597dce') },
];

/** The painting requests the fake saw. */
const paints = (f: FakeUpstream) => f.seen.filter((r) => PAINTS.has(r.path));

/** The positive and negative words a request carried, whatever its API. */
function wordsOf(r: SeenRequest): { positive: string; negative: string } {
  if (r.path !== '/prompt')
    return { positive: String(r.body.prompt), negative: String(r.body.negative_prompt ?? '') };
  const nodes = Object.values(
    r.body.prompt as Record<string, { inputs: { text?: string }; _meta?: { title?: string } }>,
  );
  const text = (title: string) => String(nodes.find((n) => n._meta?.title === title)?.inputs.text);
  return { positive: text('Prompt'), negative: text('Negative prompt') };
}

describe.each(APIS)('images from %s', (api) => {
  let b: Booted | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it("are asked in the game's style and avoid words, with its references where taken, through the real server", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-art-'));
    closing.push(() => rmSync(dataDir, { recursive: true, force: true }));
    writeFileSync(join(dataDir, 'sword.png'), await icon('#d04648'));
    b = await bootServer({
      backends: { image: api },
      dataDir,
      env: { LOOTSMITH_UPSTREAM_TIMEOUT_MS: '5000' },
      game: (g) => ({ art: { ...g.art, style: STYLE, avoid: AVOID, references: ['sword.png'] } }),
    });
    const res = await b.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: { authorization: `Bearer ${signPlayerToken(PLAYER_SECRET, 'ada', 600)}` },
      payload: { client_id: 'ada', generation_context: { enemy: 'rat' }, items: [{ type: 'WEAPON' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const painted = await b.server.app.inject({ url: res.json().items[0].icon.url });
    expect(painted.statusCode).toBe(200);
    const asked = paints(b.fake);
    expect(asked.length).toBeGreaterThanOrEqual(1);
    for (const r of asked) {
      const words = wordsOf(r);
      expect(words.positive).toContain(STYLE);
      // OpenAI's image API has no negative prompt: its prompt says what to avoid.
      expect(api === 'openai' ? words.positive : words.negative).toContain(AVOID);
    }
    // The game file's reference, read at start-up, goes to the one API here that takes references
    // without an operator's setting: OpenAI's edits, for a GPT image model.
    expect(asked.some((r) => r.path === '/v1/images/edits')).toBe(api === 'openai');
  });

  it('is told the avoid words in its own way, and given the references where it takes them', async () => {
    const f = await fake();
    const refs = await references();
    const env: Record<string, string> = {};
    let workflows: string | undefined;
    if (api === 'sdapi') env.LOOTSMITH_SDAPI_IP_ADAPTER = 'ip-adapter_sd15 [6a3f6166]';
    if (api === 'comfyui') {
      workflows = mkdtempSync(join(tmpdir(), 'lootsmith-workflow-'));
      closing.push(() => rmSync(workflows as string, { recursive: true, force: true }));
      env.LOOTSMITH_COMFYUI_REFERENCE_WORKFLOW = join(workflows, 'reference.json');
      writeFileSync(env.LOOTSMITH_COMFYUI_REFERENCE_WORKFLOW, JSON.stringify(REFERENCE_WORKFLOW));
    }
    const backend = adapter(f, api, env);
    const out = await backend.paint(await iconAsk(refs), attempt());
    expect((await sharp(out.bytes).metadata()).format).toBe('png');
    const [asked] = paints(f);
    if (!asked) throw new Error('nothing was painted');
    const { positive, negative } = wordsOf(asked);
    expect(positive).toContain(STYLE);
    const refsSent = (bytes: Buffer[]) =>
      expect(bytes.map((x) => x.toString('base64'))).toEqual(refs.map((r) => r.bytes.toString('base64')));

    if (api === 'v1') {
      // The spec's request has a negative prompt and no reference images: only its own fields are sent.
      expect(negative).toContain(AVOID);
      expect(Object.keys(asked.body).sort()).toEqual(
        ['client_id', 'height', 'negative_prompt', 'prompt', 'steps', 'width'].sort(),
      );
    }
    if (api === 'openai') {
      // No negative prompt: a sentence; the references go to the edit endpoint as image[].
      expect(asked.path).toBe('/v1/images/edits');
      expect(positive).toMatch(new RegExp(`Avoid: ${AVOID}, text, watermark`));
      expect(asked.files?.map((x) => [x.field, x.name, x.type])).toEqual([
        ['image[]', 'sword.png', 'image/png'],
        ['image[]', 'shield.png', 'image/png'],
      ]);
      refsSent(asked.files?.map((x) => x.bytes) ?? []);
      expect(asked.body).toMatchObject({
        model: 'gpt-image-1-mini',
        size: '1024x1024',
        background: 'transparent',
      });
      expect(asked.body).not.toHaveProperty('response_format');
    }
    if (api === 'sdapi') {
      expect(negative).toContain(AVOID);
      const units = (asked.body.alwayson_scripts as { controlnet: { args: Array<Record<string, unknown>> } })
        .controlnet.args;
      expect(units).toHaveLength(1);
      expect(units[0]).toMatchObject({
        enabled: true,
        model: 'ip-adapter_sd15 [6a3f6166]',
        module: 'ip-adapter-auto',
        weight: 0.6,
      });
      const images = (units[0]?.image ?? []) as Array<{ image: string }>;
      refsSent(images.map((x) => Buffer.from(x.image, 'base64')));
      // The web UI prints a unit it cannot run and paints without it: nothing was printed.
      expect(f.sdapiConsole).toEqual([]);
    }
    if (api === 'comfyui') {
      expect(negative).toContain(AVOID);
      const uploads = f.seen.filter((r) => r.path === '/upload/image');
      expect(uploads.map((u) => u.body)).toEqual([
        { type: 'input', overwrite: 'true' },
        { type: 'input', overwrite: 'true' },
      ]);
      refsSent(uploads.map((u) => u.files?.[0]?.bytes as Buffer));
      const loaded = Object.values(
        asked.body.prompt as Record<string, { class_type: string; inputs: { image?: string } }>,
      )
        .filter((n) => n.class_type === 'LoadImage')
        .map((n) => n.inputs.image);
      expect(loaded).toEqual([...f.comfyInputs.keys()]);
      // Uploaded once: the next icon names the same files.
      await backend.paint(await iconAsk(refs), attempt());
      expect(f.seen.filter((r) => r.path === '/upload/image')).toHaveLength(2);
    }
  });
});

/** A reference workflow as an operator writes one: two LoadImage nodes for the references (an IP-Adapter's inputs). */
const REFERENCE_WORKFLOW = {
  '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: '{{model}}' } },
  '5': {
    class_type: 'EmptyLatentImage',
    inputs: { width: '{{width}}', height: '{{height}}', batch_size: 1 },
  },
  '6': {
    class_type: 'CLIPTextEncode',
    inputs: { text: '{{prompt}}', clip: ['4', 1] },
    _meta: { title: 'Prompt' },
  },
  '7': {
    class_type: 'CLIPTextEncode',
    inputs: { text: '{{negative_prompt}}', clip: ['4', 1] },
    _meta: { title: 'Negative prompt' },
  },
  '10': { class_type: 'LoadImage', inputs: { image: '{{reference}}' }, _meta: { title: 'Reference' } },
  '11': { class_type: 'LoadImage', inputs: { image: '{{reference}}' }, _meta: { title: 'Reference' } },
  '3': {
    class_type: 'KSampler',
    inputs: {
      seed: '{{seed}}',
      steps: '{{steps}}',
      cfg: 7,
      sampler_name: 'euler',
      scheduler: 'normal',
      denoise: 1,
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['5', 0],
    },
  },
  '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
  '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'lootsmith', images: ['8', 0] } },
};

describe('references where a backend takes none', () => {
  it('a dall-e model generates from words alone; without references a GPT image model generates', async () => {
    const f = await fake();
    f.models.push('dall-e-3');
    const dalle = adapter(f, 'openai', { LOOTSMITH_IMAGE_MODEL: 'dall-e-3' });
    await dalle.paint(await iconAsk(await references()), attempt());
    const gpt = adapter(f, 'openai');
    await gpt.paint(await iconAsk(), attempt());
    expect(paints(f).map((r) => [r.path, r.body.model, r.files?.length ?? 0])).toEqual([
      ['/v1/images/generations', 'dall-e-3', 0],
      ['/v1/images/generations', 'gpt-image-1-mini', 0],
    ]);
  });

  it('sdapi sends no unit unless the operator named an IP-Adapter; ComfyUI runs its plain workflow', async () => {
    const f = await fake();
    await adapter(f, 'sdapi').paint(await iconAsk(await references()), attempt());
    await adapter(f, 'comfyui').paint(await iconAsk(await references()), attempt());
    const [sd, comfy] = paints(f);
    expect(sd?.body).not.toHaveProperty('alwayson_scripts');
    expect(JSON.stringify(comfy?.body)).not.toContain('LoadImage');
    expect(f.seen.some((r) => r.path === '/upload/image')).toBe(false);
  });
});

describe('the fakes refuse what the real APIs refuse', () => {
  const post = (f: FakeUpstream, path: string, body: FormData | string, type?: string) =>
    fetch(`${f.url}${path}`, { method: 'POST', body, headers: type ? { 'content-type': type } : {} });
  const edit = (fields: Record<string, string>, files: Array<[string, Buffer, string]> = []) => {
    const form = new FormData();
    for (const [name, bytes, type] of files)
      form.append('image[]', new Blob([new Uint8Array(bytes)], { type }), name);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return form;
  };

  it("OpenAI's edits: JSON, a dall-e-3, no image, a size or field a GPT image model lacks", async () => {
    const f = await fake();
    f.models.push('dall-e-3');
    const png = await icon('#fff');
    const refused = async (res: Response) => {
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: Record<string, unknown> };
      expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
      return error;
    };
    expect((await refused(await post(f, '/v1/images/edits', '{}', 'application/json'))).message).toMatch(
      /expected multipart\/form-data/,
    );
    const base = { model: 'gpt-image-1-mini', prompt: 'a sword' };
    expect(
      await refused(
        await post(
          f,
          '/v1/images/edits',
          edit({ ...base, model: 'dall-e-3' }, [['a.png', png, 'image/png']]),
        ),
      ),
    ).toMatchObject({ param: 'model' });
    expect(await refused(await post(f, '/v1/images/edits', edit(base)))).toMatchObject({
      param: 'image',
      code: 'missing_required_parameter',
    });
    expect(
      await refused(
        await post(f, '/v1/images/edits', edit({ ...base, size: '512x512' }, [['a.png', png, 'image/png']])),
      ),
    ).toMatchObject({ param: 'size' });
    expect(
      await refused(
        await post(
          f,
          '/v1/images/edits',
          edit({ ...base, response_format: 'b64_json' }, [['a.png', png, 'image/png']]),
        ),
      ),
    ).toMatchObject({ param: 'response_format' });
    const ok = await post(
      f,
      '/v1/images/edits',
      edit({ ...base, size: '1024x1024' }, [['a.png', png, 'image/png']]),
    );
    expect(ok.status).toBe(200);
    expect(typeof ((await ok.json()) as { data: Array<{ b64_json: unknown }> }).data[0]?.b64_json).toBe(
      'string',
    );
    f.keys.bearer = 'the-right-key-0123';
    expect((await post(f, '/v1/images/edits', edit(base, [['a.png', png, 'image/png']]))).status).toBe(401);
  });

  it('sdapi prints a ControlNet unit it cannot run and paints without it, as the web UI does', async () => {
    const f = await fake();
    const backend = adapter(f, 'sdapi', { LOOTSMITH_SDAPI_IP_ADAPTER: 'ip-adapter_sdxl [00000000]' });
    const out = await backend.paint(await iconAsk(await references()), attempt());
    expect(out.bytes.length).toBeGreaterThan(0);
    expect(f.sdapiConsole).toEqual([
      'Error running process: controlnet unit 0: model(ip-adapter_sdxl [00000000]) not found in supported models.',
    ]);
    f.keys.basic = undefined;
    const unknown = await post(
      f,
      '/sdapi/v1/txt2img',
      JSON.stringify({ prompt: 'x', alwayson_scripts: { adetailer: {} } }),
      'application/json',
    );
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({ detail: 'always on script adetailer not found' });
  });

  it("ComfyUI's upload renames a clash and refuses a LoadImage of a file it lacks", async () => {
    const f = await fake();
    const upload = (bytes: Buffer, overwrite: string) => {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'ref.png');
      form.append('overwrite', overwrite);
      return post(f, '/upload/image', form);
    };
    expect(await (await upload(await icon('#000'), 'false')).json()).toEqual({
      name: 'ref.png',
      subfolder: '',
      type: 'input',
    });
    expect(await (await upload(await icon('#000'), 'false')).json()).toMatchObject({ name: 'ref.png' });
    expect(await (await upload(await icon('#f00'), 'false')).json()).toMatchObject({ name: 'ref (1).png' });
    expect((await post(f, '/upload/image', new FormData())).status).toBe(400);
    const queued = await post(
      f,
      '/prompt',
      JSON.stringify({ prompt: { '1': { class_type: 'LoadImage', inputs: { image: 'missing.png' } } } }),
      'application/json',
    );
    expect(queued.status).toBe(400);
    expect(JSON.stringify(await queued.json())).toContain('Invalid image file: missing.png');
  });

  it('paints a smooth full-colour 1024² picture on white when asked', async () => {
    const f = await fake();
    f.picture = 'smooth';
    for (const api of APIS) {
      const out = await adapter(f, api).paint(await iconAsk(), attempt());
      const { data, info } = await sharp(out.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([1024, 1024]);
      expect([...data.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
      const colours = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 97) colours.add(data.readUInt32BE(i));
      expect(colours.size).toBeGreaterThan(500);
    }
  });
});

describe('lootsmith doctor', () => {
  it("looks for sdapi's IP-Adapter model, since the web UI paints on without it", async () => {
    const f = await fake();
    const doctor = async (model: string) => {
      const lines: string[] = [];
      const healthy = await runDoctor(
        loadConfig({
          LOOTSMITH_DATA_DIR: '/tmp/unused',
          LOOTSMITH_IMAGE_API: 'sdapi',
          LOOTSMITH_IMAGE_URL: f.url,
          LOOTSMITH_SDAPI_IP_ADAPTER: model,
        }),
        (line) => lines.push(line),
      );
      return { healthy, out: lines.join('\n') };
    };
    const present = await doctor('ip-adapter_sd15 [6a3f6166]');
    expect(present.out).toContain('ok    model ip-adapter_sd15 [6a3f6166] present');
    expect(present.healthy).toBe(true);
    const missing = await doctor('ip-adapter_sdxl [00000000]');
    expect(missing.healthy).toBe(false);
    expect(missing.out).toContain('FAIL  model ip-adapter_sdxl [00000000] not found (there: ip-adapter_sd15');
    expect(missing.out).toContain(
      'LOOTSMITH_SDAPI_IP_ADAPTER=one of those, or install the ControlNet extension',
    );
  });
});

describe('art settings', () => {
  it('stop start-up with a message that names the variable and what to set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lootsmith-workflow-'));
    closing.push(() => rmSync(dir, { recursive: true, force: true }));
    const sd = (env: Record<string, string>) => () => loadConfig({ LOOTSMITH_IMAGE_API: 'sdapi', ...env });
    expect(sd({ LOOTSMITH_SDAPI_IP_ADAPTER: 'None' })).toThrow(
      /LOOTSMITH_SDAPI_IP_ADAPTER: must be an IP-Adapter ControlNet model as the web UI lists it/,
    );
    expect(sd({ LOOTSMITH_SDAPI_IP_ADAPTER: 'control_v11p_sd15_canny' })).toThrow(
      /LOOTSMITH_SDAPI_IP_ADAPTER: must name an IP-Adapter model as GET \/controlnet\/model_list lists it/,
    );
    expect(
      sd({ LOOTSMITH_SDAPI_IP_ADAPTER: 'ip-adapter_sd15', LOOTSMITH_SDAPI_IP_ADAPTER_WEIGHT: '3' }),
    ).toThrow(/LOOTSMITH_SDAPI_IP_ADAPTER_WEIGHT: must be at most 2/);
    expect(sd({ LOOTSMITH_SDAPI_IP_ADAPTER_MODULE: 'ip-adapter_clip_sd15' })).toThrow(
      /LOOTSMITH_SDAPI_IP_ADAPTER_MODULE: has no effect unless LOOTSMITH_SDAPI_IP_ADAPTER is set/,
    );
    expect(() =>
      loadConfig({ LOOTSMITH_IMAGE_API: 'comfyui', LOOTSMITH_SDAPI_IP_ADAPTER: 'ip-adapter_sd15' }),
    ).toThrow(/LOOTSMITH_SDAPI_IP_ADAPTER: needs LOOTSMITH_IMAGE_API=sdapi/);
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, JSON.stringify(REFERENCE_WORKFLOW));
    expect(() => loadConfig({ LOOTSMITH_IMAGE_API: 'comfyui', LOOTSMITH_COMFYUI_WORKFLOW: plain })).toThrow(
      /LOOTSMITH_COMFYUI_WORKFLOW: .* loads \{\{reference\}\}: give it as LOOTSMITH_COMFYUI_REFERENCE_WORKFLOW/,
    );
    const noLoad = join(dir, 'no-load.json');
    writeFileSync(
      noLoad,
      JSON.stringify({ 1: { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}' } } }),
    );
    expect(() =>
      loadConfig({ LOOTSMITH_IMAGE_API: 'comfyui', LOOTSMITH_COMFYUI_REFERENCE_WORKFLOW: noLoad }),
    ).toThrow(
      /LOOTSMITH_COMFYUI_REFERENCE_WORKFLOW: .* has no LoadImage node whose image is "\{\{reference\}\}"/,
    );
    const ok = loadConfig({
      LOOTSMITH_IMAGE_API: 'sdapi',
      LOOTSMITH_SDAPI_IP_ADAPTER: 'ip-adapter_sd15 [6a3f6166]',
      LOOTSMITH_SDAPI_IP_ADAPTER_WEIGHT: '0.8',
    });
    expect(ok.upstream.image.ipAdapter).toEqual({
      model: 'ip-adapter_sd15 [6a3f6166]',
      module: 'ip-adapter-auto',
      weight: 0.8,
    });
  });
});
