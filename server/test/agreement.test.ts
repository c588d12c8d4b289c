import type { GeneratedItem } from '@lootsmith/protocol';
import { FANTASY_GAME, SPACE_GAME, shippedGame } from '@lootsmith/test-support/game-file';
import { describe, expect, it } from 'vitest';
import { agreementProblems } from '../src/game/agreement.ts';
import { checkItem } from '../src/game/rules.ts';

const fantasy = shippedGame(FANTASY_GAME);
const space = shippedGame(SPACE_GAME);

/** An item whose parts agree: each test changes one part. */
const hatchet: GeneratedItem = {
  name: 'Steel Hatchet',
  type: 'WEAPON',
  subtype: 'axe',
  rarity: 'UNCOMMON',
  level: 3,
  element: 'none',
  material: 'steel',
  description: 'A polished steel hatchet that grants +8 attack.',
  lore: 'Steel Hatchet was taken from the Skeleton Warrior, and no rust has ever touched it.',
  stats: [{ name: 'attack', value: 8 }],
  effects: [],
  value: 60,
  look: { noun: 'hatchet', materials: ['steel'], colors: [], features: [] },
};
const problems = (item: Partial<GeneratedItem>, origin: 'dropped' | 'made' = 'dropped') =>
  agreementProblems(fantasy, { ...hatchet, ...item }, origin);

describe('one item, one story: the agreement check', () => {
  it('passes an item whose name, text and look agree, and ignores the game’s own names (an Iron Ore is no iron)', () => {
    expect(problems({})).toEqual([]);
    expect(
      problems({ lore: 'Steel Hatchet was forged at the Forge from Iron Ore and Oak Wood.' }, 'made'),
    ).toEqual([]);
    expect(checkItem(fantasy, hatchet, { rarity: 'UNCOMMON', level: 3 })).toEqual([]);
  });

  it('refuses a name or text that names a material the item is not made of ("Gilded Hatchet" of steel)', () => {
    expect(problems({ name: 'Gilded Hatchet' }).join()).toMatch(
      /name names gold, but the item is made of steel/,
    );
    expect(problems({ description: 'A plain but honest iron hatchet.' }).join()).toMatch(
      /description names iron/,
    );
    // Made of both, it may say both.
    expect(
      problems({ name: 'Gilded Hatchet', look: { ...hatchet.look!, materials: ['steel', 'gold'] } }),
    ).toEqual([]);
    expect(problems({ material: 'oak' }).join()).toMatch(
      /material "oak" must be the first of look.materials/,
    );
  });

  it('refuses colours and features the look lacks: a crimson dagger, a Ruby Ring, a Horned Helm', () => {
    expect(problems({ description: 'A crimson steel hatchet.' }).join()).toMatch(/names the colour red/);
    expect(
      problems({ description: 'A crimson steel hatchet.', look: { ...hatchet.look!, colors: ['red'] } }),
    ).toEqual([]);
    const ring = problems({ name: 'Ruby Hatchet' }).join();
    expect(ring).toMatch(/names gem/);
    expect(ring).toMatch(/colour red/);
    expect(problems({ name: 'Horned Hatchet' }).join()).toMatch(/names horns, which look.features lacks/);
    expect(problems({ name: 'Horned Hatchet', look: { ...hatchet.look!, features: ['horns'] } })).toEqual([]);
    // Its materials bring their own colour: a gold hatchet may be golden.
    expect(
      problems({
        name: 'Golden Hatchet',
        description: 'A polished gold hatchet.',
        lore: 'It was taken from the Skeleton Warrior.',
        look: { ...hatchet.look!, materials: ['gold'] },
        material: 'gold',
      }),
    ).toEqual([]);
  });

  it('holds the colour the player asked for to the look', () => {
    expect(problems({ color: 'crimson' }).join()).toMatch(/asked for crimson: look.colors must hold red/);
    expect(problems({ color: 'crimson', look: { ...hatchet.look!, colors: ['red'] } })).toEqual([]);
  });

  it('refuses effects that cancel out: fire gloves with Frost Slow, a frost crossbow with Burn', () => {
    const burn = { id: 'burn', params: { damage: 2, seconds: 3 } };
    const slow = { id: 'frost_slow', params: { percent: 10, seconds: 2 } };
    expect(problems({ element: 'fire', effects: [slow] }).join()).toMatch(
      /frost_slow cannot be on a fire item/,
    );
    expect(problems({ element: 'frost', effects: [burn] }).join()).toMatch(/burn cannot be on a frost item/);
    expect(problems({ effects: [burn, slow] }).join()).toMatch(/burn and frost_slow cancel out/);
    expect(problems({ element: 'fire', effects: [burn] })).toEqual([]);
    // A game file can say which elements an effect belongs to.
    const declared = {
      ...fantasy,
      effects: fantasy.effects.map((e) => (e.id === 'thorns' ? { ...e, elements: ['frost'] } : e)),
    };
    const thorns = { id: 'thorns', params: { damage: 2 } };
    expect(agreementProblems(declared, { ...hatchet, element: 'fire', effects: [thorns] }).join()).toMatch(
      /thorns cannot be on a fire item/,
    );
  });

  it('refuses text that names an ability the item lacks, or promises healing it cannot give', () => {
    expect(problems({ description: 'A steel hatchet with Life Steal.' }).join()).toMatch(/names Life Steal/);
    expect(
      problems({ description: 'A steel hatchet; read aloud, it heals everyone nearby for 9.' }).join(),
    ).toMatch(/promises healing/);
    expect(
      problems({ description: 'A steel hatchet that heals.', stats: [{ name: 'health', value: 9 }] }),
    ).toEqual([]);
  });

  it('refuses lore of former owners on an item made just now, and keeps it for a drop', () => {
    const lore = 'Steel Hatchet has been handed down further than anyone remembers.';
    expect(problems({ lore }, 'made').join()).toMatch(/made just now/);
    expect(problems({ lore: 'It has outlasted every owner so far.' }, 'made').join()).toMatch(
      /made just now/,
    );
    expect(problems({ lore })).toEqual([]);
  });

  it('reads a game far from fantasy by its own materials', () => {
    const welder: GeneratedItem = {
      name: 'Patched Arc Welder',
      type: 'TOOL',
      subtype: 'arc welder',
      rarity: 'SALVAGE',
      level: 4,
      element: 'ion',
      material: 'titanium',
      description: 'A patched titanium arc welder with carbon weave grips.',
      lore: 'Pulled from a wreck.',
      stats: [{ name: 'cutting', value: 8 }],
      effects: [],
      value: 0,
      durability: 40,
      mass: 6.5,
      look: { noun: 'arc welder', materials: ['titanium'], colors: [], features: [] },
    };
    expect(agreementProblems(space, welder).join()).toMatch(/description names carbon weave/);
    expect(
      agreementProblems(space, {
        ...welder,
        look: { ...welder.look!, materials: ['titanium', 'carbon weave'] },
      }),
    ).toEqual([]);
  });
});
