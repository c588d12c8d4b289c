import { describe, expect, it } from 'vitest';
import { auth, decodePng, differingPixels, engine, KEY, redShare } from './support.ts';

async function paint(payload: Record<string, unknown>, keys?: Parameters<typeof engine>[0]) {
  const app = await engine(keys);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/image/generations',
    headers: auth(),
    payload: { client_id: 'p1', ...payload },
  });
  expect(res.statusCode).toBe(200);
  return res;
}

const pngOf = (res: { json(): { image: string } }) => decodePng(Buffer.from(res.json().image, 'base64'));

describe('POST /v1/image/generations', () => {
  it('answers {"image": base64 PNG} at 512×512 by default', async () => {
    const res = await paint({ prompt: 'iron sword, game item, fantasy' });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.json())).toEqual(['image']);
    const png = pngOf(res);
    expect([png.width, png.height]).toEqual([512, 512]);
  });

  it('honours width and height, including non-square sizes', async () => {
    const png = pngOf(await paint({ prompt: 'healing potion', width: 300, height: 120 }));
    expect([png.width, png.height]).toEqual([300, 120]);
    const big = pngOf(await paint({ prompt: 'healing potion', width: 768, height: 768 }));
    expect([big.width, big.height]).toEqual([768, 768]);
  });

  it('answers bare base64 as text/plain with generation_only', async () => {
    const res = await paint({ prompt: 'golden ring', generation_only: true, width: 64, height: 64 });
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(decodePng(Buffer.from(res.body, 'base64')).width).toBe(64);
  });

  it('gives the same bytes for the same inputs and seed, other bytes for another seed', async () => {
    const request = { prompt: 'frost axe, game item', seed: 42, width: 128, height: 128 };
    const a = (await paint(request)).json().image;
    const b = (await paint(request)).json().image;
    const c = (await paint({ ...request, seed: 43 })).json().image;
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('draws different subjects differently', async () => {
    const sword = pngOf(await paint({ prompt: 'iron sword', width: 128, height: 128, seed: 1 }));
    const potion = pngOf(await paint({ prompt: 'iron potion', width: 128, height: 128, seed: 1 }));
    expect(differingPixels(sword, potion)).toBeGreaterThan(128 * 128 * 0.1);
  });

  it('removes a colour named in negative_prompt', async () => {
    const request = { prompt: 'red health potion, game item', width: 128, height: 128, seed: 7 };
    const red = pngOf(await paint(request));
    const notRed = pngOf(await paint({ ...request, negative_prompt: 'red' }));
    expect(redShare(red)).toBeGreaterThan(0.05);
    expect(redShare(notRed)).toBe(0);
  });

  it('removes the glow and the outline named in negative_prompt', async () => {
    const request = { prompt: 'legendary fire sword, game item', width: 128, height: 128, seed: 3 };
    const full = pngOf(await paint(request));
    const plain = pngOf(await paint({ ...request, negative_prompt: 'glow, outline, particles' }));
    const opaque = (png: ReturnType<typeof decodePng>) =>
      png.rgba.filter((_, i) => i % 4 === 3 && png.rgba[i] !== 0).length;
    expect(opaque(plain)).toBeLessThan(opaque(full));
  });

  it('makes a background transparent when negative_prompt says "background"', async () => {
    const request = { prompt: 'elf wizard, character portrait', width: 96, height: 96, seed: 5 };
    const withBg = pngOf(await paint(request));
    const without = pngOf(await paint({ ...request, negative_prompt: 'background' }));
    expect(withBg.rgba[3]).toBe(255);
    expect(without.rgba[3]).toBe(0);
  });

  it('refines with more steps (a different, anti-aliased image)', async () => {
    const request = { prompt: 'steel sword', width: 128, height: 128, seed: 9 };
    const few = pngOf(await paint({ ...request, steps: 5 }));
    const many = pngOf(await paint({ ...request, steps: 40 }));
    const partial = (png: ReturnType<typeof decodePng>) =>
      png.rgba.filter((a, i) => i % 4 === 3 && a > 0 && a < 255).length;
    expect(differingPixels(few, many)).toBeGreaterThan(0);
    expect(partial(many)).toBeGreaterThan(partial(few));
  });

  it("uses the key's image defaults, and a request overrides them field by field", async () => {
    const keys = [{ key: KEY, image: { width: 96, height: 64, steps: 3 } }];
    const byDefault = pngOf(await paint({ prompt: 'gem' }, keys));
    expect([byDefault.width, byDefault.height]).toEqual([96, 64]);
    const overridden = pngOf(await paint({ prompt: 'gem', width: 32 }, keys));
    expect([overridden.width, overridden.height]).toEqual([32, 64]);
  });

  it("applies the key's default negative prompt", async () => {
    const keys = [{ key: KEY, image: { negative_prompt: 'red' } }];
    const png = pngOf(await paint({ prompt: 'red health potion', width: 128, height: 128, seed: 7 }, keys));
    expect(redShare(png)).toBe(0);
  });

  it('rejects an unknown image model with 400 naming the known one', async () => {
    const app = await engine();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(),
      payload: { client_id: 'p', prompt: 'x', model: 'sdxl' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('lootsmith-painter-1');
  });

  it('counts images in usage', async () => {
    const app = await engine();
    await app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(),
      payload: { client_id: 'p9', prompt: 'x', width: 32, height: 32 },
    });
    const usage = (await app.inject({ method: 'GET', url: '/v1/usage', headers: auth() })).json();
    expect(usage.clients).toEqual([
      { client_id: 'p9', requests: 1, images: 1, chat_completions: 0, tokens: 0, credits_spent: 1 },
    ]);
  });
});
