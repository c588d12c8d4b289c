import {
  formatPrompt,
  type GameLines,
  type GeneratedItem,
  type ItemPrompt,
  itemSchemasFor,
  jsonSchemaOf,
  QUOTED_TEXT_RULE,
} from '@lootsmith/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeCompletion } from '../src/writer/index.ts';
import { vocabularyFor } from '../src/writer/vocabulary.ts';

// The writer for a game it has no words of its own for: what the server tells it in the game lines
// (types, stats, elements, fields, stations, materials, words) is all it may use.

const GAME: GameLines = {
  name: 'Salvage Run',
  theme: 'hard science fiction salvage',
  rarities: ['SCRAP', 'SALVAGE', 'REFIT', 'PROTOTYPE', 'ARTIFACT'],
  types: [
    {
      id: 'TOOL',
      name: 'tool',
      slot: 'HAND',
      strikes: true,
      subtypes: ['plasma cutter', 'arc welder'],
      stats: ['cutting', 'energy'],
    },
    {
      id: 'SUIT',
      name: 'suit',
      slot: 'SUIT',
      subtypes: ['hardsuit', 'vac suit'],
      stats: ['shielding', 'hull'],
    },
    {
      id: 'IMPLANT',
      name: 'implant',
      slot: 'IMPLANT',
      subtypes: ['neural jack', 'ocular lens'],
      stats: ['hacking'],
    },
    { id: 'STIM', name: 'stim', consumable: true, subtypes: ['stim pack', 'med gel'], stats: ['hull'] },
    { id: 'SCRAP_PART', name: 'salvaged part', stackable: true, subtypes: ['alloy plate', 'power cell'] },
  ],
  stats: [
    { id: 'shielding', name: 'shielding', kind: 'flat' },
    { id: 'energy', name: 'energy', kind: 'flat' },
    { id: 'hacking', name: 'hacking', kind: 'percent', types: ['IMPLANT', 'TOOL'] },
    { id: 'hull', name: 'hull', kind: 'flat' },
    { id: 'cutting', name: 'cutting', kind: 'flat', types: ['TOOL'] },
    { id: 'plasma_dampening', name: 'plasma dampening', kind: 'percent' },
  ],
  elements: [
    {
      id: 'plasma',
      name: 'Plasma',
      resist: 'plasma_dampening',
      opposes: ['cryo'],
      words: ['reactor', 'superheated'],
    },
    { id: 'cryo', name: 'Cryo', opposes: ['plasma'], words: ['coolant', 'frozen'] },
  ],
  effects: [
    {
      id: 'arc_discharge',
      name: 'Arc Discharge',
      text: 'Hits arc {damage} ion damage into the target',
      types: ['TOOL'],
      params: { damage: { min: 1, max: 14, per_rarity: 1.5, per_level: 0.15 } },
    },
  ],
  fields: [
    {
      id: 'durability',
      type: 'integer',
      description: 'Jobs it lasts',
      minimum: 1,
      maximum: 100,
      types: ['TOOL', 'SUIT'],
    },
    {
      id: 'clearance',
      type: 'string',
      description: 'Who may fit it',
      values: ['crew', 'officer'],
      types: ['IMPLANT'],
    },
  ],
  stations: [
    { name: 'Fabricator', makes: ['TOOL', 'SUIT'] },
    { name: 'Med Bay', makes: ['STIM'] },
  ],
  materials: [
    { name: 'Scrap Alloy', type: 'SCRAP_PART', subtype: 'alloy', material: 'scrap' },
    { name: 'Plasma Coil', type: 'SCRAP_PART', subtype: 'coil', material: 'plasma', element: 'plasma' },
    { name: 'Cryo Cell', type: 'SCRAP_PART', subtype: 'cell', material: 'cryo', element: 'cryo' },
    { name: 'Bio Gel', type: 'SCRAP_PART', subtype: 'gel', material: 'bio' },
  ],
  words: {
    tone: 'terse, technical',
    prefixes: ['Salvaged', 'Overclocked', 'Patched', 'Belt-forged'],
    suffixes: ['of the Outer Belt', 'Mk II'],
    materials: ['titanium', 'carbon weave', 'ceramic'],
    adjectives: ['scorched', 'humming', 'dented'],
    lore: ["{it} still {hums} with a dead ship's power", '{its} serial number has been filed away'],
  },
};
/** The item schemas of a game described by its lines. */
const schemasOf = (game: GameLines) =>
  itemSchemasFor({
    item_types: game.types ?? [],
    rarities: (game.rarities ?? []).map((id) => ({ id })),
    elements: game.elements ?? [],
    stats: game.stats ?? [],
    effects: game.effects ?? [],
    item_fields: (game.fields ?? []).map((f) => ({
      ...f,
      description: f.description ?? f.id,
      types: f.types ?? [],
    })),
    max_item_level: 60,
  });
const schemas = schemasOf(GAME);
const SYSTEM = `You are the item designer of "Salvage Run".\n${QUOTED_TEXT_RULE}\n${formatPrompt({ game: GAME })}`;

function answer(prompt: ItemPrompt, schema: Record<string, unknown>, seed: number): unknown {
  const { content } = writeCompletion({
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: formatPrompt(prompt) },
    ],
    response_format: { type: 'json_schema', json_schema: { schema } },
    seed,
  });
  return JSON.parse(content);
}

const FANTASY_WORDS =
  /\b(sword|forge|iron ore|oak wood|alchemy|enchanting|attack|defense|mana|fire|frost|shadow|holy|legendary|mythic|goblin|dragon)\b/i;

function expectOnlyTheGame(item: GeneratedItem) {
  const type = GAME.types?.find((t) => t.id === item.type);
  expect(type, item.type).toBeDefined();
  expect(GAME.rarities).toContain(item.rarity);
  expect(['none', 'plasma', 'cryo']).toContain(item.element);
  for (const s of item.stats) {
    const stat = GAME.stats?.find((x) => x.id === s.name);
    expect(stat, s.name).toBeDefined();
    if (stat?.types) expect(stat.types).toContain(item.type);
  }
  for (const f of GAME.fields ?? []) {
    if (f.types?.includes(item.type)) expect(item[f.id], f.id).toBeDefined();
    else expect(item[f.id], f.id).toBeUndefined();
  }
  expect(`${item.name} ${item.subtype} ${item.material}`).not.toMatch(FANTASY_WORDS);
}

describe('the writer for a game of its own', () => {
  it('builds a game’s vocabulary once per distinct game lines, and answers alike with it built or kept', () => {
    expect(vocabularyFor(structuredClone(GAME))).toBe(vocabularyFor(structuredClone(GAME)));
    expect(vocabularyFor({ ...GAME, rarities: ['SCRAP', 'RELIC'] })).not.toBe(vocabularyFor(GAME));
    const schema = jsonSchemaOf(schemas.batch);
    const prompt: ItemPrompt = { count: 1, items: [{ type: 'TOOL', rarity: 'REFIT', level: 9, budget: 40 }] };
    expect(answer(prompt, structuredClone(schema), 7)).toEqual(answer(prompt, schema, 7));
  });

  it('writes items of the game’s types, rarities, elements, stats and fields only, within the budget', () => {
    const schema = jsonSchemaOf(schemas.batch);
    const line = fc.record({
      type: fc.constantFrom('TOOL', 'SUIT', 'IMPLANT', 'STIM'),
      rarity: fc.constantFrom(...(GAME.rarities ?? [])),
      level: fc.integer({ min: 1, max: 60 }),
      budget: fc.integer({ min: 5, max: 300 }),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 4 }), fc.nat(), (items, seed) => {
        const prompt: ItemPrompt = {
          count: items.length,
          context: { enemy: 'Reactor Guardian', enemyElement: 'plasma', location: 'Reactor Deck' },
          items,
        };
        const written = schemas.batch.parse(answer(prompt, schema, seed)).items;
        written.forEach((item, i) => {
          const want = items[i] as (typeof items)[number];
          expect(item).toMatchObject({
            type: want.type,
            rarity: want.rarity,
            level: want.level,
            element: 'plasma',
          });
          expect(item.stats.reduce((sum, s) => sum + s.value, 0)).toBeLessThanOrEqual(want.budget);
          expectOnlyTheGame(item);
        });
      }),
      { numRuns: 120 },
    );
  });

  it('draws a yes/no field of the game’s own as its plan does, not always yes', () => {
    const fields = [
      ...(GAME.fields ?? []),
      { id: 'sealed', type: 'boolean' as const, description: 'Holds vacuum', types: ['SUIT'] },
    ];
    const game: GameLines = { ...GAME, fields };
    const own = schemasOf(game);
    const system = `You are the item designer of "Salvage Run".\n${QUOTED_TEXT_RULE}\n${formatPrompt({ game })}`;
    const sealed = Array.from({ length: 40 }, (_, seed) => {
      const { content } = writeCompletion({
        messages: [
          { role: 'system', content: system },
          {
            role: 'user',
            content: formatPrompt({ count: 1, items: [{ type: 'SUIT', rarity: 'REFIT', level: 9 }] }),
          },
        ],
        response_format: { type: 'json_schema', json_schema: { schema: jsonSchemaOf(own.batch) } },
        seed,
      });
      return own.batch.parse(JSON.parse(content)).items[0]?.sealed;
    });
    expect(sealed.filter((v) => v === true).length).toBeGreaterThan(5);
    expect(sealed.filter((v) => v === false).length).toBeGreaterThan(5);
  });

  it('writes no phrase of the writer’s own fantasy world: no hoard, no lair, no owner with a fantasy name', () => {
    const schema = jsonSchemaOf(schemas.batch);
    const text = Array.from({ length: 60 }, (_, seed) =>
      JSON.stringify(
        answer(
          {
            count: 2,
            context: { enemy: 'Netrunner', location: 'Reactor Deck' },
            items: [
              { type: 'TOOL', rarity: 'ARTIFACT', level: 20 },
              { type: 'IMPLANT', rarity: 'REFIT', level: 9 },
            ],
          },
          schema,
          seed,
        ),
      ),
    ).join(' ');
    expect(text).not.toMatch(/hoard|\blair\b|warlord|hermit|knight|pirate|temple|noble|smith/i);
    // The only owners a name may have are the context's: "Netrunner's Plasma Cutter".
    const owners = new Set([...text.matchAll(/"name":"([A-Z][a-z]+)'s /g)].map((m) => m[1]));
    expect([...owners].filter((o) => o !== 'Netrunner')).toEqual([]);
  });

  it('names items from the game’s words and its subtypes', () => {
    const schema = jsonSchemaOf(schemas.batch);
    const names = Array.from({ length: 40 }, (_, seed) => {
      const [item] = schemas.batch.parse(
        answer({ count: 1, items: [{ type: 'TOOL', rarity: 'REFIT', level: 9, budget: 40 }] }, schema, seed),
      ).items;
      return item as GeneratedItem;
    });
    expect(names.every((i) => ['plasma cutter', 'arc welder'].includes(i.subtype))).toBe(true);
    expect(names.some((i) => /Salvaged|Overclocked|Patched|Belt-forged|Outer Belt|Mk II/.test(i.name))).toBe(
      true,
    );
    expect(names.every((i) => ['titanium', 'carbon weave', 'ceramic'].includes(i.material))).toBe(true);
  });

  const verdict = (combine: ItemPrompt['combine'], station: string, intent?: string) =>
    schemas.verdict.parse(
      answer(
        {
          combine,
          station: { name: station },
          ...(intent ? { intent } : {}),
          result: { rarity: 'SALVAGE', level: 4, budget: 30 },
        },
        jsonSchemaOf(schemas.verdict),
        1,
      ),
    );
  const of = (name: string, quantity = 1) => {
    const m = GAME.materials?.find((x) => x.name === name);
    return { quantity, ...(m as NonNullable<typeof m>) };
  };

  it('crafts what the game makes, judging a thing of its world by what went in', () => {
    const cutter = verdict([of('Scrap Alloy', 2), of('Plasma Coil')], 'Fabricator', 'a plasma cutter');
    expect(cutter.sensible).toBe(true);
    expect(cutter.item).toMatchObject({ type: 'TOOL', subtype: 'plasma cutter', element: 'plasma' });
    expectOnlyTheGame(cutter.item as GeneratedItem);
    const gadget = verdict([of('Scrap Alloy', 2)], 'Fabricator', 'a clockwork gadget');
    expect(gadget.sensible, gadget.message).toBe(true);
    expect(gadget.item?.subtype).toBe('gadget');
  });

  it('refuses with suggestions that name only the game’s stations and materials', () => {
    const refusals = [
      verdict([of('Plasma Coil'), of('Cryo Cell')], 'Fabricator'),
      verdict([of('Bio Gel', 2)], 'Med Bay', 'asdkjh qwpoeiru'),
      verdict([of('Scrap Alloy', 2)], 'Fabricator', 'a spaceship made of regret and tax forms'),
      verdict([of('Scrap Alloy', 2)], 'Fabricator', 'a stim pack'),
    ];
    for (const r of refusals) {
      expect(r.sensible, r.message).toBe(false);
      expect(r.suggestions.length).toBeGreaterThan(0);
      const text = [r.message, ...r.suggestions].join(' ');
      expect(text).not.toMatch(
        /Forge|Alchemy Table|Loom|Workbench|Iron Ore|Oak Wood|Ember Essence|Frost Shard/,
      );
    }
    expect(refusals[3]?.suggestions.join(' ')).toMatch(/Med Bay/);
  });
});
