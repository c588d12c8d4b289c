import {
  COLOUR_NAMES,
  type Colour,
  type IconPlan,
  ITEM_FEATURES,
  type ItemFeature,
  iconPrompt,
} from '@lootsmith/protocol';
import { describe, expect, it } from 'vitest';
import { colourShares, PAINTED_SHARE, paintsColour } from '../../test/content/icon-colour.ts';
import { paintImage } from '../src/painter/index.ts';
import { readPrompt } from '../src/painter/prompt.ts';
import { type DecodedPng, decodePng, differingPixels } from './support.ts';

const SIZE = 64;

function plan(noun: string, materials: string[], colors: Colour[], features: ItemFeature[] = []): IconPlan {
  return {
    name: `Test ${noun}`,
    look: { noun, materials, colors, features },
    element: 'none',
    rarity: 'rare',
    style: 'pixel art',
  };
}

const paint = (p: IconPlan, seed?: number) =>
  decodePng(paintImage({ prompt: iconPrompt(p), width: SIZE, height: SIZE, steps: 12, seed }));

/** Pixels that differ between two icons in rows [from, to) of the icon. */
function differingRows(a: DecodedPng, b: DecodedPng, from: number, to: number): number {
  const slice = (png: DecodedPng) => ({
    ...png,
    height: to - from,
    rgba: png.rgba.subarray(from * png.width * 4, to * png.width * 4),
  });
  return differingPixels(slice(a), slice(b));
}

describe('painter reads an item plan', () => {
  it('takes kind, materials, colours, features, element and rarity from the plan, not from words', () => {
    const reading = readPrompt(
      iconPrompt({
        name: 'Ember Sword of the Glacier',
        look: {
          noun: 'greaves',
          materials: ['stormsteel', 'leather'],
          colors: ['red', 'gold'],
          features: ['horns'],
        },
        element: 'fire',
        rarity: 'epic',
        silhouette: 'greaves',
        palette: ['teal', 'orange'],
      }),
    );
    expect(reading.kind).toBe('greaves');
    expect(reading.materials).toEqual(['steel', 'leather']);
    expect(reading.colours).toEqual(['red', 'gold', 'teal', 'orange']);
    expect(reading.features).toEqual(['horns']);
    expect(reading.element).toBe('fire');
    expect(reading.rarity).toBe(3);
    expect(reading.planned).toBe(true);
  });

  it('finds the kind from the noun when the game names no silhouette, plate soft armour of metal', () => {
    expect(readPrompt(iconPrompt(plan('hatchet', ['oak'], []))).kind).toBe('axe');
    expect(readPrompt(iconPrompt(plan('boots', ['iron'], []))).kind).toBe('sabatons');
    expect(readPrompt(iconPrompt(plan('boots', ['leather'], []))).kind).toBe('boots');
  });

  it('keeps reading a developer’s own prompt word by word', () => {
    const reading = readPrompt('Horned Helm, crimson iron helmet, rare, game item');
    expect(reading.planned).toBe(false);
    expect(reading.kind).toBe('helmet');
    expect(reading.colours).toEqual(['red']);
    expect(reading.features).toEqual(['horns']);
    expect(reading.materials).toEqual(['iron']);
  });
});

describe('painter paints the plan’s colours', () => {
  const KINDS: Array<[string, string]> = [
    ['dagger', 'iron'],
    ['sword', 'steel'],
    ['axe', 'iron'],
    ['helmet', 'iron'],
    ['greaves', 'steel'],
    ['boots', 'leather'],
    ['shield', 'oak'],
    ['ring', 'silver'],
    ['potion', 'glass'],
    ['robe', 'silk'],
    ['bow', 'yew'],
    ['amulet', 'gold'],
  ];

  it('paints the main colour measurably on at least 90% of kinds, for every colour family', () => {
    const missed: string[] = [];
    for (const colour of COLOUR_NAMES) {
      for (const [noun, material] of KINDS) {
        const icon = paint(plan(noun, [material], [colour]));
        const share = colourShares(icon).get(colour) ?? 0;
        if (share < PAINTED_SHARE) missed.push(`${colour} ${material} ${noun}: ${(share * 100).toFixed(0)}%`);
      }
    }
    const asked = COLOUR_NAMES.length * KINDS.length;
    expect((asked - missed.length) / asked, missed.join('\n')).toBeGreaterThanOrEqual(0.9);
  });

  it('measures no colour the plan does not ask for on plain metal (the measure is not lenient)', () => {
    const chromatic: Colour[] = ['red', 'green', 'teal', 'blue', 'purple', 'pink'];
    let found = 0;
    for (const [noun] of KINDS) {
      const icon = paint(plan(noun, ['iron'], ['grey']));
      found += chromatic.filter((c) => paintsColour(icon, c)).length;
    }
    expect(found / (KINDS.length * chromatic.length)).toBeLessThanOrEqual(0.1);
  });

  it('gives a crimson iron dagger crimson, which an iron dagger has none of', () => {
    expect(paintsColour(paint(plan('dagger', ['iron'], ['red'])), 'red')).toBe(true);
    expect(paintsColour(paint(plan('dagger', ['iron'], [])), 'red')).toBe(false);
  });

  it('sets a ruby in a gold ring: red in the icon, the band still gold', () => {
    const icon = paint(plan('ring', ['gold'], ['red', 'gold'], ['gem']));
    expect(paintsColour(icon, 'red')).toBe(true);
    expect(paintsColour(icon, 'gold')).toBe(true);
  });
});

describe('painter draws the plan’s features', () => {
  it('puts horns on a helmet’s head', () => {
    const bare = paint(plan('helmet', ['iron'], ['grey']), 5);
    const horned = paint(plan('helmet', ['iron'], ['grey'], ['horns']), 5);
    expect(differingRows(bare, horned, 0, SIZE / 3)).toBeGreaterThan(SIZE * 4);
  });

  it('changes the icon for each feature, on several kinds', () => {
    for (const [noun, material] of [
      ['greaves', 'steel'],
      ['sword', 'iron'],
      ['potion', 'glass'],
      ['ring', 'gold'],
    ] as const) {
      const bare = paint(plan(noun, [material], ['blue']), 9);
      for (const feature of ITEM_FEATURES) {
        const featured = paint(plan(noun, [material], ['blue'], [feature]), 9);
        expect(differingPixels(bare, featured), `${noun} with ${feature}`).toBeGreaterThan(SIZE);
      }
    }
  });

  it('never gives ten greaves of different features one icon', () => {
    const icons = ITEM_FEATURES.map((feature) => paint(plan('greaves', ['steel'], ['grey'], [feature]), 3));
    icons.forEach((icon, i) => {
      for (let j = 0; j < i; j++)
        expect(
          differingPixels(icon, icons[j] as DecodedPng),
          `${ITEM_FEATURES[i]} vs ${ITEM_FEATURES[j]}`,
        ).toBeGreaterThan(SIZE * SIZE * 0.03);
    });
  });
});
