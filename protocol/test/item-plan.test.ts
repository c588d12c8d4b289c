import { describe, expect, it } from 'vitest';
import { type IconPlan, iconPrompt, lookNamedIn, readIconPrompt } from '../src/item-plan.ts';

describe('the icon prompt: made from the item plan, read back exactly', () => {
  const plans: IconPlan[] = [
    {
      name: 'Ruby Ring',
      look: { noun: 'ring', materials: ['gold'], colors: ['red', 'gold'], features: ['gem', 'runes'] },
      element: 'fire',
      rarity: 'rare',
      silhouette: 'ring',
      style: 'pixel art',
      palette: ['teal', 'orange'],
    },
    {
      // A name with a comma, a material of two words, no colour, no feature, no element, no game art.
      name: 'Icemaw, the Patient Greaves',
      look: { noun: 'greaves', materials: ['ash wood', 'iron'], colors: [], features: [] },
      element: 'none',
      rarity: 'common',
    },
    {
      name: 'Overclocked Neural Jack',
      look: { noun: 'neural jack', materials: ['carbon weave'], colors: ['teal'], features: ['circuits'] },
      // The item's type, for a painter to guess the shape from when the game names none.
      type: 'implant',
      element: 'ion',
      rarity: 'salvage',
      silhouette: 'emblem',
      style: 'flat vector, thick outline',
    },
    {
      // A game's art: its grid, palette colours and outline, with style words after them.
      name: 'Mk II Smartgun',
      look: { noun: 'smartgun', materials: ['steel'], colors: ['black'], features: [] },
      element: 'none',
      rarity: 'rare',
      silhouette: 'gun',
      art: { pixel_size: 32, palette: ['#1a1c2c', '#5d275d', '#ffcd75'], outline: '#1a1c2c' },
      style: '16-bit pixel art',
    },
    {
      name: 'Carrot Seeds',
      look: { noun: 'seeds', materials: ['seed'], colors: ['orange'], features: [] },
      element: 'none',
      rarity: 'common',
      art: { pixel_size: null, palette: ['#000000', '#ffffff'], outline: null },
    },
  ];

  it('round-trips every field of the plan', () => {
    for (const plan of plans) expect(readIconPrompt(iconPrompt(plan)), iconPrompt(plan)).toEqual(plan);
  });

  it("starts with the subject, then tags an image model reads (docs/SPEC.md 2.3), with the player's colour word", () => {
    const prompt = iconPrompt({ ...(plans[0] as IconPlan), colorWord: 'crimson' });
    expect(prompt).toBe(
      'Ruby Ring, ring made of gold, colours crimson and gold, with gem and runes, fire element, rare, ring icon, pixel art, in teal and orange',
    );
    expect(readIconPrompt(prompt)).toMatchObject({ colorWord: 'crimson', look: { colors: ['red', 'gold'] } });
  });

  it("leaves a developer's own prompt to the painter's word reading", () => {
    expect(readIconPrompt('a crimson dagger, game item, fantasy')).toBeUndefined();
  });

  it('reads the look words of a text: materials by family, colours, features, a gem by its colour', () => {
    const named = lookNamedIn('A gilded oaken staff set with a ruby, horned and crimson');
    expect([...named.materials].sort()).toEqual(['gold', 'wood']);
    expect([...named.colours].sort()).toEqual(['red']);
    expect([...named.features].sort()).toEqual(['gem', 'horns']);
  });
});
