import { writeCompletion } from '@lootsmith/engine';
import { formatPrompt, type GameDefinition, type GeneratedItem, jsonSchemaOf } from '@lootsmith/protocol';
import { FANTASY_GAME, SPACE_GAME, shippedGame } from '@lootsmith/test-support/game-file';
import { describe, expect, it } from 'vitest';
import { GameFileError, parseGame } from '../src/game/definition.ts';
import { gameSchemas } from '../src/game/item-schemas.ts';
import {
  checkItem,
  mainStat,
  mainStatRange,
  rarityIds,
  settleItem,
  statBudget,
  statCeiling,
} from '../src/game/rules.ts';
import { itemLine, systemPrompt } from '../src/generation/prompts.ts';
import { scaleItem } from '../src/pools/scale.ts';

// Rarity a player can see: at one level and item type, each rarity raises the type's main stat (the
// stat item cards compare) by at least a fifth over the rarity below, whoever wrote the item.

const GAMES = [shippedGame(FANTASY_GAME), shippedGame(SPACE_GAME)];
/** Levels to write items at: low, middle and the game's highest. */
const levels = (game: GameDefinition) => [1, 7, 20, game.max_item_level];
const made = (game: GameDefinition) => game.item_types.filter((t) => !t.stackable);
const mainOf = (item: Pick<GeneratedItem, 'type' | 'stats'>, game: GameDefinition) =>
  item.stats.find((s) => s.name === mainStat(game, item.type))?.value ?? 0;

/** What the embedded engine writes for these item lines, as the server asks and checks a drop. */
function engineItems(game: GameDefinition, type: string, rarity: string, level: number, seed: number) {
  const spec = { type, rarity, level, budget: statBudget(game, rarity, level) };
  const answer = writeCompletion({
    messages: [
      { role: 'system', content: systemPrompt(game, 'Write loot, one item per "Item N" line.') },
      { role: 'user', content: formatPrompt({ count: 3, items: [1, 2, 3].map(() => itemLine(game, spec)) }) },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'item_batch', schema: jsonSchemaOf(gameSchemas(game).batch) },
    },
    seed,
  });
  const { items } = gameSchemas(game).batch.parse(JSON.parse(answer.content));
  for (const item of items) expect(checkItem(game, item, spec), `${type} ${rarity} ${level}`).toEqual([]);
  return items.map((item) => settleItem(game, item));
}

describe('rarity a player can see', () => {
  it("names each type's main stat in the game definition: item_types, else the first of primary_stats", () => {
    const [fantasy, space] = GAMES as [GameDefinition, GameDefinition];
    expect(mainStat(fantasy, 'SHIELD')).toBe('defense');
    expect(mainStat(fantasy, 'BOOTS')).toBe('speed');
    expect(mainStat(fantasy, 'CONSUMABLE')).toBe('health');
    expect(mainStat(space, 'IMPLANT')).toBe('hacking');
    for (const game of GAMES) for (const t of made(game)) expect(t.main_stat, t.id).toBeDefined();
    const raw = structuredClone(fantasy) as Record<string, unknown> & GameDefinition;
    const shield = raw.item_types.find((t) => t.id === 'SHIELD') as { main_stat?: string };
    shield.main_stat = 'health';
    expect(mainStat(parseGame('shield.json', raw), 'SHIELD')).toBe('health');
    shield.main_stat = 'armour';
    expect(() => parseGame('shield.json', raw)).toThrow(/item_types\[8\]\.main_stat: no stat "armour"/);
  });

  it('gives every rarity a main stat a fifth above the rarity below, at every level of both games', () => {
    for (const game of GAMES) {
      const rarities = rarityIds(game);
      for (let level = 1; level <= game.max_item_level; level++) {
        const ranges = rarities.map((r) => mainStatRange(game, r, level));
        ranges.forEach((range, i) => {
          expect(range.least).toBeLessThanOrEqual(range.most);
          // Room left for a stat the player asks for, as strong as the main stat.
          expect(2 * range.least).toBeLessThanOrEqual(statCeiling(game, rarities[i] as string, level));
          const below = ranges[i - 1];
          if (below) expect(range.least, `${rarities[i]} ${level}`).toBeGreaterThanOrEqual(1.2 * below.most);
        });
      }
    }
  });

  it("has the engine write each type's main stat a fifth above the rarity below, at several levels of both games", () => {
    let seed = 0;
    for (const game of GAMES)
      for (const level of levels(game))
        for (const { id: type } of made(game)) {
          let below: number[] = [];
          for (const rarity of rarityIds(game)) {
            const items = engineItems(game, type, rarity, level, seed++);
            // What the item is for: no other stat as strong as its main stat.
            for (const item of items)
              for (const s of item.stats)
                if (s.name !== mainStat(game, type)) expect(s.value).toBeLessThan(mainOf(item, game));
            const values = items.map((item) => mainOf(item, game));
            const range = mainStatRange(game, rarity, level);
            for (const v of values) expect(v).toBeGreaterThanOrEqual(range.least);
            for (const v of values) expect(v).toBeLessThanOrEqual(range.most);
            if (below.length)
              expect(Math.min(...values), `${game.name} ${type} ${rarity} ${level}`).toBeGreaterThanOrEqual(
                1.2 * Math.max(...below),
              );
            below = values;
          }
        }
  });

  it('holds any backend’s item to it: above the range re-asked, below it raised when settled, unless that breaks the budget', () => {
    for (const game of GAMES)
      for (const level of levels(game))
        for (const t of made(game))
          for (const rarity of rarityIds(game)) {
            const main = t.main_stat as string;
            const { least, most } = mainStatRange(game, rarity, level);
            const want = { type: t.id, rarity, level };
            const item = (value: number, more: GeneratedItem['stats'] = []): GeneratedItem => ({
              name: 'Plain Thing',
              type: t.id,
              subtype: 'thing',
              rarity,
              level,
              element: 'none',
              material: 'iron',
              description: `A plain thing that grants +${value} ${main.replaceAll('_', ' ')}.`,
              lore: 'Made for a test.',
              stats: [{ name: main, value }, ...more],
              effects: [],
              value: 1,
              ...Object.fromEntries(
                game.item_fields.filter((f) => f.types.includes(t.id)).map((f) => [f.id, f.minimum ?? 1]),
              ),
            });
            expect(checkItem(game, item(most + 1), want).join(' ')).toMatch(
              new RegExp(
                `${main} is a ${t.id}'s main stat: .* ${least} to ${most}, not ${most + 1}: lower it`,
              ),
            );
            expect(checkItem(game, item(most), want)).toEqual([]);
            const low = item(least - 1);
            expect(checkItem(game, low, want)).toEqual([]);
            const settled = settleItem(game, low);
            expect(mainOf(settled, game)).toBe(least);
            expect(settled.description).toContain(`+${least} `);
            // Raised, it would carry more than its budget allows: the model is asked again.
            const other = game.stats.find((s) => s.id !== main && (!s.types || s.types.includes(t.id)));
            const full = item(1, [
              { name: other?.id as string, value: statCeiling(game, rarity, level) - 1 },
            ]);
            expect(checkItem(game, full, want).join(' ')).toMatch(
              new RegExp(`once ${main}, its main stat, is raised to ${least}, above the stat budget`),
            );
          }
  });

  it('keeps the main stat in its range when a pooled item is scaled to a neighbouring level', () => {
    for (const game of GAMES)
      for (const { id: type } of made(game))
        for (const rarity of rarityIds(game)) {
          const [item] = engineItems(game, type, rarity, 20, 7);
          const stored = {
            ...(item as GeneratedItem & { origin: 'dropped' }),
            id: 'x',
            icon: null,
            created_at: '',
          };
          for (const level of [17, 23]) {
            const scaled = scaleItem(game, stored, level, { type, rarity });
            expect('item' in scaled ? scaled.item.level : scaled.problems).toBe(level);
            if (!('item' in scaled)) continue;
            const { least, most } = mainStatRange(game, rarity, level);
            expect(mainOf(scaled.item, game)).toBeGreaterThanOrEqual(least);
            expect(mainOf(scaled.item, game)).toBeLessThanOrEqual(most);
          }
        }
  });

  it('refuses a game whose rarity multipliers rise too slowly for the main stat to rise a fifth', () => {
    const [fantasy] = GAMES as [GameDefinition];
    const slow = { COMMON: 1, UNCOMMON: 1.12, RARE: 1.26, EPIC: 1.41, LEGENDARY: 1.58, MYTHIC: 1.77 };
    const raw = { ...fantasy, stat_budget: { ...fantasy.stat_budget, rarity_multiplier: slow } };
    const refused = (() => {
      try {
        parseGame('slow.json', raw);
      } catch (e) {
        return e as GameFileError;
      }
    })();
    expect(refused).toBeInstanceOf(GameFileError);
    expect(refused?.problems[0]?.path).toMatch(/^stat_budget\.rarity_multiplier\./);
    expect(refused?.problems[0]?.message).toMatch(
      /main stat of \w+ items must be at least \d+ \(a fifth above \w+'s\), more than half of their \d+ stat points/,
    );
  });
});
