import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeUpstream } from '@lootsmith/test-support/fake-upstream';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { signPlayerToken } from '../src/auth.ts';
import { loadConfig } from '../src/config.ts';
import { runDoctor } from '../src/doctor.ts';
import { startServer } from '../src/server.ts';

// Every recipe of docs/BACKENDS.md, as written there, against the fakes of its APIs: the hosts of the
// recipe are pointed at the fake, everything else (paths, models, APIs) is what a user copies.
const DOC = readFileSync(new URL('../../docs/BACKENDS.md', import.meta.url), 'utf8');
const RECIPES = [...DOC.matchAll(/^### (.+)\n\n```sh\n([\s\S]*?)```/gm)].map((m) => ({
  name: m[1] as string,
  env: Object.fromEntries(
    (m[2] as string)
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  ),
}));
const KEY = 'sk-recipe-key-0123456789';
const SECRET = 'recipe-player-secret-0123456789';

it('finds the recipes the docs promise', () => {
  expect(RECIPES.map((r) => r.name)).toEqual([
    'OpenAI: chat and images',
    'Ollama and AUTOMATIC1111 or Forge on your own GPU',
    "stable-diffusion.cpp's server",
    'ComfyUI',
    'OpenRouter for chat',
  ]);
});

describe.each(RECIPES)('$name', ({ env }) => {
  it('serves a drop with its icon, and the doctor finds nothing broken', async () => {
    const fake = await startFakeUpstream();
    const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-recipe-'));
    const recipe: Record<string, string> = {};
    for (const [name, value] of Object.entries(env)) {
      const local = value.replace(/^https?:\/\/[^/]+/, fake.url);
      recipe[name] = value.includes('…') ? KEY : local;
    }
    if (recipe.LOOTSMITH_IMAGE_API === 'openai') recipe.LOOTSMITH_IMAGE_URL ??= `${fake.url}/v1`;
    if (recipe.LOOTSMITH_CHAT_URL) fake.chatApi = 'openai';
    if (recipe.LOOTSMITH_CHAT_KEY) fake.keys.bearer = KEY;
    fake.models.push(
      ...[recipe.LOOTSMITH_CHAT_MODEL, recipe.LOOTSMITH_IMAGE_MODEL].filter((m): m is string => !!m),
    );
    const config = loadConfig({
      ...recipe,
      LOOTSMITH_DATA_DIR: dataDir,
      LOOTSMITH_PLAYER_SECRET: SECRET,
      LOOTSMITH_LOG_LEVEL: 'silent',
    });
    const server = await startServer(config, { listen: false });
    try {
      const token = signPlayerToken(SECRET, 'cook', 600);
      const res = await server.app.inject({
        method: 'POST',
        url: '/v1/generate/items',
        headers: { authorization: `Bearer ${token}` },
        payload: { client_id: 'cook', generation_context: { enemy: 'rat' }, items: [{ type: 'WEAPON' }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const icon = await server.app.inject({ url: res.json().items[0].icon.url });
      const meta = await sharp(icon.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 128, 128]);
      const lines: string[] = [];
      expect(await runDoctor(config, (l) => lines.push(l)), lines.join('\n')).toBe(true);
    } finally {
      await server.close();
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
