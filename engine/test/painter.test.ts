import { describe, expect, it } from 'vitest';
import { paintImage } from '../src/painter/index.ts';
import { ITEM_KINDS, readPrompt } from '../src/painter/prompt.ts';
import { Rng } from '../src/random.ts';
import { decodePng, differingPixels } from './support.ts';

const SIZE = 96;
const paint = (prompt: string, extra: Record<string, unknown> = {}) =>
  decodePng(paintImage({ prompt, width: SIZE, height: SIZE, seed: 11, ...extra }));

describe('procedural painter', () => {
  it('reads the subject, materials, element, style and asset type from a prompt', () => {
    expect(readPrompt('Frostbite, legendary frost axe, game item, fantasy')).toMatchObject({
      kind: 'axe',
      element: 'frost',
      rarity: 4,
      style: 'fantasy',
      asset: 'item',
    });
    expect(readPrompt('steel chest armour, game item, realistic')).toMatchObject({
      kind: 'armor',
      materials: ['steel'],
      style: 'realistic',
    });
    expect(readPrompt('treasure chest, cartoon')).toMatchObject({ kind: 'chest', style: 'cartoon' });
    expect(readPrompt('Ring of Fire, game item')).toMatchObject({ kind: 'ring', element: 'fire' });
    expect(readPrompt('orc warrior, character portrait').asset).toBe('portrait');
    expect(readPrompt('chain lightning, skill icon')).toMatchObject({ asset: 'skill', element: 'lightning' });
    expect(readPrompt('fire sword', 'fire').element).toBe('none');
  });

  it(`draws each of the ${ITEM_KINDS.length} item kinds as its own silhouette`, () => {
    expect(ITEM_KINDS.length).toBeGreaterThanOrEqual(24);
    const images = ITEM_KINDS.map((kind) => paint(`${kind.replace('_', ' ')}, game item`));
    const alpha = (png: ReturnType<typeof decodePng>) =>
      png.rgba.filter((_, i) => i % 4 === 3).map((a) => (a > 127 ? 1 : 0));
    const masks = images.map(alpha);
    masks.forEach((mask, i) => {
      const filled = mask.reduce((sum: number, v) => sum + v, 0);
      expect(filled, ITEM_KINDS[i]).toBeGreaterThan(SIZE * SIZE * 0.06);
      masks.slice(0, i).forEach((other, j) => {
        const differ = mask.filter((v, p) => v !== other[p]).length;
        expect(differ, `${ITEM_KINDS[i]} vs ${ITEM_KINDS[j]}`).toBeGreaterThan(SIZE * SIZE * 0.03);
      });
    });
  });

  it('paints portraits and skill icons as full, opaque pictures, unlike item icons', () => {
    const portrait = paint('dwarf warrior, character portrait');
    const skill = paint('fireball, skill icon');
    const item = paint('fire sword, game item');
    const opaque = (png: ReturnType<typeof decodePng>) =>
      png.rgba.filter((a, i) => i % 4 === 3 && a === 255).length / (SIZE * SIZE);
    expect(opaque(portrait)).toBe(1);
    expect(opaque(skill)).toBe(1);
    expect(opaque(item)).toBeLessThan(0.7);
    expect(differingPixels(portrait, skill)).toBeGreaterThan(SIZE * SIZE * 0.5);
  });

  it('changes the picture with element, material and style words', () => {
    const base = paint('sword, game item');
    for (const other of [
      'fire sword, game item',
      'gold sword, game item',
      'sword, game item, cartoon',
      'sword, game item, realistic',
    ]) {
      expect(differingPixels(base, paint(other)), other).toBeGreaterThan(SIZE * SIZE * 0.02);
    }
  });

  it('gives the same pixels for the same prompt and seed', () => {
    const a = paint('iron sword, game item');
    const b = paint('iron sword, game item');
    expect(differingPixels(a, b)).toBe(0);
  });
  it('paints any prompt at any allowed size and step count without failing', () => {
    const rng = new Rng(2024);
    const words = [
      ...ITEM_KINDS,
      'fire',
      'frost',
      'poison',
      'shadow',
      'holy',
      'lightning',
      'gold',
      'bone',
      'crystal',
      'red',
      'blue',
      'legendary',
      'portrait',
      'skill icon',
      'cartoon',
      'realistic',
      'zzz',
      '',
      '!!',
      'of the',
    ];
    for (let i = 0; i < 60; i++) {
      const prompt = Array.from({ length: rng.int(1, 6) }, () => rng.pick(words)).join(rng.pick([' ', ', ']));
      const width = rng.int(16, 160);
      const height = rng.int(16, 160);
      const png = decodePng(
        paintImage({
          prompt: prompt || 'x',
          negative_prompt: rng.pick(['', 'glow', 'red, outline', 'background']),
          width,
          height,
          steps: rng.int(1, 50),
        }),
      );
      expect([png.width, png.height], prompt).toEqual([width, height]);
    }
  });
});
