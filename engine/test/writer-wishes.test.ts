import type { GameLines } from '@lootsmith/protocol';
import { describe, expect, it } from 'vitest';
import { askedColour, isThing, readWish } from '../src/writer/requests.ts';
import { vocabularyFor } from '../src/writer/vocabulary.ts';

// Wishes, not nouns: what a player types into a crafting form, read with the vocabulary of a game
// the writer has no words of its own for (a diving game invented here), and of its fantasy default.

const REEF: GameLines = {
  name: 'Reef Diver',
  theme: 'underwater salvage',
  rarities: ['WORN', 'SOUND', 'PRISTINE'],
  types: [
    {
      id: 'HARPOON',
      name: 'harpoon',
      slot: 'HAND',
      strikes: true,
      subtypes: ['speargun', 'pole spear'],
      stats: ['piercing'],
    },
    {
      id: 'WETSUIT',
      name: 'wetsuit',
      slot: 'BODY',
      subtypes: ['drysuit', 'shorty'],
      stats: ['armor', 'oxygen'],
    },
    { id: 'MASK', name: 'mask', slot: 'FACE', subtypes: ['dive mask', 'snorkel'], stats: ['sight'] },
    {
      id: 'FLASK',
      name: 'flask',
      consumable: true,
      subtypes: ['air flask', 'kelp tonic'],
      stats: ['oxygen'],
    },
  ],
  stats: [
    { id: 'piercing', name: 'piercing', kind: 'flat' },
    { id: 'armor', name: 'armor', kind: 'flat' },
    { id: 'oxygen', name: 'oxygen', kind: 'flat' },
    { id: 'sight', name: 'sight', kind: 'flat' },
  ],
  elements: [{ id: 'current', name: 'Current', words: ['eel', 'charge'] }],
  effects: [
    {
      id: 'jolt',
      name: 'Jolt',
      text: 'Hits shock the target for {damage} damage',
      types: ['HARPOON'],
      params: {},
    },
    {
      id: 'stingers',
      name: 'Stingers',
      text: 'Creatures that hit you are stung for {damage} damage',
      types: ['WETSUIT'],
      params: {},
    },
    {
      id: 'air_refill',
      name: 'Air Refill',
      text: 'Restores {oxygen} oxygen every 5 s',
      types: ['WETSUIT', 'MASK'],
      params: {},
    },
  ],
};
const reef = vocabularyFor(REEF);
const fantasy = vocabularyFor(undefined);
const GEAR = ['HARPOON', 'WETSUIT', 'MASK', 'FLASK'];

describe('writer: wishes', () => {
  it('takes a noun only when it is a thing of the game, never a function word or a verb', () => {
    for (const wish of [
      'whatever you think is best',
      'surprise me',
      'the coolest thing ever',
      'idk u choose',
    ]) {
      const read = readWish(wish, reef, GEAR);
      expect(read.noun, wish).toBeUndefined();
      expect(read.type, wish).toBeUndefined();
      expect(read.purposeful, wish).toBe(false);
    }
    expect(readWish('a speargun for sharks', reef, GEAR)).toMatchObject({
      noun: 'speargun',
      type: 'HARPOON',
    });
    for (const word of ['think', 'want', 'need', 'surprise', 'ever']) expect(isThing(word, reef)).toBe(false);
    // A known item noun of a type the game lacks is no thing of it.
    expect(isThing('sword', reef)).toBe(false);
    expect(isThing('sword', fantasy, 'WEAPON')).toBe(true);
    expect(isThing('sword', fantasy, 'SHIELD')).toBe(false);
  });

  it('picks the type that serves the purpose, among those the station makes', () => {
    expect(readWish('i want to protect myself', reef, GEAR).type).toBe('WETSUIT');
    expect(readWish('i need to hit harder', reef, GEAR).type).toBe('HARPOON');
    expect(readWish('i keep running out of oxygen', reef, ['FLASK', 'MASK']).stat).toBe('oxygen');
    expect(readWish('something for my face', reef, GEAR)).toMatchObject({ type: 'MASK', thing: 'dive mask' });
    expect(readWish('heal me', fantasy, ['WEAPON', 'SHIELD', 'CONSUMABLE'])).toMatchObject({
      type: 'CONSUMABLE',
      stat: 'health',
    });
    expect(readWish('something for my head', fantasy, ['WEAPON', 'HELMET', 'CHEST']).type).toBe('HELMET');
    // The form's type stays when it serves the wish as well as another.
    expect(readWish('i need to hit harder', fantasy, ['WEAPON', 'GLOVES'], 'GLOVES').type).toBe('GLOVES');
  });

  it("finds the effects a wish asks for by what the game's catalogue says they do", () => {
    expect(readWish('zap whatever i stab', reef, GEAR).effects[0]).toBe('jolt');
    const stung = readWish('whoever hits me gets hurt', reef, GEAR);
    expect(stung.type).toBe('WETSUIT');
    expect(stung.effects[0]).toBe('stingers');
    expect(readWish('freezes what it strikes', fantasy, ['WEAPON']).effects[0]).toBe('frost_slow');
    expect(readWish('a sword that burns', fantasy, ['WEAPON']).effects[0]).toBe('burn');
    expect(readWish('armor that slowly heals me', fantasy, ['CHEST']).effects[0]).toBe('regeneration');
  });

  it('takes the colour the words name over the colour setting', () => {
    expect(askedColour('a strong red healing potion', { colour: 'emerald' })).toBe('red');
    expect(askedColour('a healing potion', { colour: 'emerald' })).toBe('emerald');
    expect(readWish('black iron boots', fantasy).colour).toBe('black');
  });
});
