import { createHash } from 'node:crypto';
import {
  type CombineRequest,
  type CombineVerdict,
  type CreateItemRequest,
  colourOfWord,
  formatPrompt,
  type GameDefinition,
  type GeneratedItem,
  type Item,
  intentChangesItem,
  type Rarity,
} from '@lootsmith/protocol';
import { itemTexts, type Texts } from '../content/guard.ts';
import type { Coordination } from '../coordination/coordination.ts';
import { type LootDeps, newItemId } from '../drops/generate.ts';
import { gameKey } from '../game/definition.ts';
import { gameSchemas } from '../game/item-schemas.ts';
import {
  checkItem,
  craftedLevel,
  craftedRarity,
  craftingLevel,
  knownType,
  rarityPhrase,
  settleItem,
  statBudget,
  statCeiling,
} from '../game/rules.ts';
import { askJson } from '../generation/ask-json.ts';
import {
  combineIngredientLine,
  ingredientLine,
  itemLine,
  resultLine,
  stationLine,
  systemPrompt,
} from '../generation/prompts.ts';
import { newTrace, provenanceRows } from '../generation/provenance.ts';
import { refuse } from '../refusal.ts';
import { mergeStacks, type Stack } from '../store/store.ts';
import { chosenColour, effectNotes, followWish, requestNotes } from './wish.ts';

/** A verdict stays reusable this long, covering requests that arrive before the first craft records it. */
const RECIPE_FLIGHT_REUSE_MS = 30_000;

export interface CraftingDeps extends LootDeps {
  /** Resolves owned stacks to items; materials come from the game definition. */
  resolve(ids: string[]): Promise<Map<string, Item>>;
}

/** A combine's free text, by field: what the player wrote. */
export const combineTexts = (body: CombineRequest): Texts => [
  ['description', body.description],
  ['crafting_tool', body.crafting_tool],
  ['crafting_station', body.crafting_station],
];

/** A create-item's free text, by field: the description, focus attributes and visual preferences. */
export function createItemTexts(body: CreateItemRequest): Texts {
  const p = body.item_parameters;
  return [
    ['crafting_station', body.crafting_station],
    ['item_parameters.description', p.description],
    ...p.focus_attributes.map((f, i): [string, string] => [`item_parameters.focus_attributes.${i}`, f]),
    ...Object.entries(p.visual_preferences).map(([k, v]): [string, string] => [
      `item_parameters.visual_preferences.${k}`,
      `${k} ${v}`,
    ]),
  ];
}

const wordsOf = (texts: Texts) => texts.flatMap(([, t]) => (t ? [t] : []));

function station(deps: LootDeps, name: string | undefined) {
  if (!name) return null;
  const key = name.toLowerCase().replaceAll(' ', '_');
  const found = deps.game.stations.find((s) => s.id === key || s.name.toLowerCase() === name.toLowerCase());
  if (!found) {
    const stations = deps.game.stations.map((s) => s.id);
    throw refuse(
      'unknown_station',
      `Unknown crafting station "${name}"; the game's stations: ${stations.join(', ')}`,
      {
        stations,
      },
    );
  }
  return found;
}

async function ingredientsOf(deps: CraftingDeps, stacks: Stack[]) {
  const items = await deps.resolve(stacks.map((s) => s.item_id));
  return stacks.map((s) => {
    const item = items.get(s.item_id);
    if (!item) throw refuse('unknown_item', `Unknown item "${s.item_id}"`);
    return { ...s, item };
  });
}

type Station = LootDeps['game']['stations'][number];

/** The crafter: crafting XP and the player's level (null when the server never learnt it), which bound a craft. */
export interface Crafter {
  xp: number;
  level: number | null;
}

export const crafterOf = (player: {
  crafting_xp: number;
  level: number | null;
  claimed_level: number | null;
}) => ({
  xp: player.crafting_xp,
  level: player.level ?? player.claimed_level,
});

/**
 * Every crafting route asks the station's level of the crafter, and a craft without a station the
 * level of the strictest station (crafting by hand is no easier than at any bench); refused before
 * anything is spent, with the stations this crafter may use.
 */
function assertStationLevel(stations: Station[], st: Station | null, craftingLvl: number) {
  const gate = st ?? stations.reduce((a, b) => (b.min_level > a.min_level ? b : a));
  if (craftingLvl >= gate.min_level) return;
  const usable = stations.filter((s) => s.min_level <= craftingLvl).map((s) => s.name);
  const where = st ? `at the ${st.name}` : 'to combine without a station (as at the strictest station)';
  throw refuse(
    'skill_too_low',
    `Crafting level ${gate.min_level} is needed ${where}; you are level ${craftingLvl}, ` +
      (usable.length ? `which can use the ${usable.join(', the ')}` : 'which can use no station'),
    { required_level: gate.min_level, crafting_level: craftingLvl },
  );
}

/** Every crafting route asks the crafting level the game sets for the result's rarity (`create_item.min_level_by_rarity`). */
function assertRarityLevel(deps: LootDeps, rarity: Rarity, craftingLvl: number, where: string) {
  const required = deps.game.create_item.min_level_by_rarity[rarity] ?? 0;
  if (craftingLvl < required)
    throw refuse(
      'skill_too_low',
      `Crafting level ${required} is needed to make ${rarityPhrase(deps.game, rarity)} item ${where}; you are level ${craftingLvl}`,
      { required_level: required, crafting_level: craftingLvl },
    );
}

export interface CraftPlan {
  item: Item;
  recipe: {
    key: string;
    /** Ingredients, station and result: a recipe is discovered once per these, however it is worded. */
    discovery: string;
    ingredients: Stack[];
    station: string | null;
    tool: string | null;
  };
}

export type CombinePlan =
  | ({ kind: 'craft' } & CraftPlan)
  | { kind: 'refused'; message: string; suggestions: string[] };

/** A combination the rules allow, settled before anything is reserved or asked of the model. */
export interface CombineSetup {
  body: CombineRequest;
  recipe: CraftPlan['recipe'];
  rarity: Rarity;
  level: number;
  station: Station | null;
  ingredients: Array<Stack & { item: Item }>;
  /** The finished item this combine improves with materials, if it is an upgrade. */
  base?: Item;
}

/**
 * The finished item a combine improves: the one ingredient (one of it) of a type that does not stack,
 * when everything else is a material (an essence, ore, gem). None for any other combination.
 */
function upgradeBase(game: GameDefinition, ingredients: Array<Stack & { item: Item }>): Item | undefined {
  const stackable = new Set(game.item_types.filter((t) => t.stackable).map((t) => t.id));
  const pieces = ingredients.filter((i) => !stackable.has(i.item.type));
  const [piece] = pieces;
  return pieces.length === 1 && piece?.quantity === 1 && ingredients.length > 1 ? piece.item : undefined;
}

const power = (stats: GeneratedItem['stats']) => stats.reduce((a, s) => a + Math.max(0, s.value), 0);

/**
 * What an upgrade keeps of the item it improves, unless the player's words asked for a change: its
 * type, every effect, and at least its power (as far as the result's rarity and level allow).
 */
function upgradeProblems(game: GameDefinition, setup: CombineSetup, item: GeneratedItem): string[] {
  const { base, rarity, level } = setup;
  if (!base || intentChangesItem(setup.body.description)) return [];
  const problems: string[] = [];
  if (item.type !== base.type)
    problems.push(`type must stay ${base.type}: the player improves their ${base.name}, not a new thing`);
  const lost = base.effects.filter((e) => !item.effects.some((x) => x.id === e.id)).map((e) => e.id);
  if (lost.length)
    problems.push(`keep every effect of ${base.name} (${lost.join(', ')}): it is improved, not stripped`);
  const least = Math.min(power(base.stats), statCeiling(game, rarity, level));
  if (power(item.stats) < least)
    problems.push(
      `stats sum to ${power(item.stats)}, below the ${least} of ${base.name}: an improved item is at least as strong`,
    );
  return problems;
}

const digest = (parts: unknown) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24);

/**
 * Plans a combination: from the recipe book when these ingredients, station and tool were crafted
 * before, else from the model (identical requests in flight share one generation).
 */
export class CombinePlanner {
  private readonly gameKey: string;

  constructor(
    private readonly deps: CraftingDeps & {
      coordination: Coordination;
      recipe(key: string): Promise<Item | null>;
    },
  ) {
    this.gameKey = gameKey(deps.game);
  }

  /**
   * The rules of every crafting route, before anything is spent: the station's level (the strictest
   * station's without one), the crafting level the result's rarity needs, the ingredients known.
   */
  async setup(body: CombineRequest, crafter: Crafter): Promise<CombineSetup> {
    const deps = this.deps;
    const stacks = mergeStacks(body.ingredients.map((i) => ({ id: i.item_id, quantity: i.quantity })));
    if (stacks.reduce((a, s) => a + s.quantity, 0) < 2)
      throw refuse('invalid_request', 'body.ingredients: combine needs at least two items');
    const st = station(deps, body.crafting_station);
    const skill = craftingLevel(deps.game, crafter.xp);
    assertStationLevel(deps.game.stations, st, skill);
    const ingredients = await ingredientsOf(deps, stacks);
    const base = upgradeBase(deps.game, ingredients);
    const tool = body.crafting_tool?.toLowerCase() ?? null;
    const crafted = craftedRarity(
      deps.game,
      ingredients.map((i) => i.item.rarity),
      stacks.reduce((a, s) => a + s.quantity, 0),
      skill,
    );
    // An improved item never comes out less rare or lower than it went in.
    const ranks = deps.game.rarities.map((r) => r.id);
    const rarity = base && ranks.indexOf(base.rarity) > ranks.indexOf(crafted) ? base.rarity : crafted;
    assertRarityLevel(deps, rarity, skill, st ? `at the ${st.name}` : 'by combining');
    const level = Math.max(
      base?.level ?? 1,
      craftedLevel(deps.game, Math.max(...ingredients.map((i) => i.item.level)), skill, crafter.level),
    );
    // The intent is part of the recipe: "a flaming sword" and "an oak shield" from the same ore differ.
    const intent = body.description?.toLowerCase().replace(/\s+/g, ' ').trim() || null;
    // What went in by identity (a material's definition id, an item's own id), never by a name a
    // model wrote; and what comes out, so a recipe is only reused for the same rarity and level.
    const identities = ingredients
      .map((i) => `${i.item_id}:${i.item.rarity}:${i.item.level}×${i.quantity}`)
      .sort();
    const station_ = st?.id ?? null;
    const recipe = {
      key: digest([identities, station_, tool, rarity, level, intent]),
      // Free words (the intent, the tool) do not make a new discovery: rewording earns no XP.
      discovery: digest([identities, station_, rarity, level]),
      ingredients: stacks,
      station: station_,
      tool,
    };
    return { body, recipe, rarity, level, station: st, ingredients, ...(base ? { base } : {}) };
  }

  async plan(setup: CombineSetup, signal?: AbortSignal): Promise<CombinePlan> {
    const deps = this.deps;
    const { body, recipe, rarity, level, ingredients } = setup;
    const st = setup.station;
    const { key } = recipe;
    const check = (item: GeneratedItem) => [
      ...checkItem(deps.game, item, { rarity, level, origin: 'made' }),
      ...upgradeProblems(deps.game, setup, item),
    ];
    // What this caller's flight asked; a caller that joined another's flight has no trace of it.
    const trace = newTrace();
    let fromBook = false;

    const verdict = async (shared?: AbortSignal): Promise<CombineVerdict> => {
      const known = gameSchemas(deps.game).item.safeParse(await deps.recipe(key));
      // A recipe-book result meets the same rules as a fresh one, or it is made afresh.
      if (known.success && !check(known.data).length) {
        deps.metrics?.cacheHits.inc({ cache: 'recipe' });
        fromBook = true;
        return { sensible: true, message: '', suggestions: [], item: known.data };
      }
      const user = formatPrompt({
        combine: ingredients.map(combineIngredientLine),
        station: st ? stationLine(st) : undefined,
        tool: recipe.tool ?? undefined,
        otherStations: deps.game.stations.filter((o) => o.id !== st?.id).map(stationLine),
        intent: body.description || undefined,
        result: resultLine(deps.game, rarity, level),
      });
      return askJson({
        upstream: deps.upstream,
        clientId: body.player_id,
        system: systemPrompt(
          deps.game,
          'Judge whether the ingredients can sensibly be combined. If they can, design the resulting item; if not, set sensible to false, item to null, explain why in message and give concrete suggestions. ' +
            "Each ingredient's rarity, level, stats and effects follow it as data. An item combined with materials (an essence, ore, gem) is improved: keep its type, subtype, stats and effects unless the player intent asks otherwise, add or strengthen what the materials bring, and never make it weaker.",
        ),
        user,
        schema: gameSchemas(deps.game).verdict,
        schemaName: 'combine_verdict',
        model: deps.textModel,
        metrics: deps.metrics,
        kind: 'combine',
        signal: shared,
        trace,
        check: (v) => {
          if (!v.sensible) return v.item ? ['item must be null when sensible is false'] : [];
          if (!v.item) return ['item is required when sensible is true'];
          return check(v.item).map((p) => `item: ${p}`);
        },
        // The verdict's words are shown to the player too, as the item's are.
        review: async (v) =>
          (await deps.content?.review(
            body.player_id,
            [
              ['message', v.message],
              ...v.suggestions.map((t, i): [string, string] => [`suggestions.${i}`, t]),
              ...(v.item ? itemTexts(v.item, 'item.') : []),
            ],
            wordsOf(combineTexts(body)),
          )) ?? [],
      });
    };
    // Only callers under the same game definition share a flight; and what is shared is checked
    // again under this caller's rules (one that slipped through is made afresh for this caller).
    let result = await deps.coordination.singleFlight(`combine:${this.gameKey}:${key}`, verdict, {
      reuseMs: RECIPE_FLIGHT_REUSE_MS,
      signal,
    });
    if (result.item && check(result.item).length) result = await verdict(signal);

    if (!result.sensible || !result.item)
      return { kind: 'refused', message: result.message, suggestions: result.suggestions };
    const icon = await deps.icons.ensure(deps.icons.promptFor(result.item), body.player_id, signal);
    const item = {
      ...settleItem(deps.game, result.item, 'made'),
      id: newItemId(),
      icon,
      created_at: new Date().toISOString(),
    };
    deps.activity?.record(
      provenanceRows(deps.game, [item], {
        source: fromBook ? 'recipe' : 'combine',
        playerId: body.player_id,
        trace: fromBook ? undefined : trace,
      }),
    );
    return { kind: 'craft', item, recipe };
  }
}

/** Plans a create-item: station, type and skill checks, then one item from the model. */
export async function planCreateItem(
  deps: CraftingDeps,
  playerId: string,
  body: CreateItemRequest,
  crafter: Crafter,
  signal?: AbortSignal,
): Promise<{ item: Item; stacks: Stack[]; notes: string[] }> {
  const st = station(deps, body.crafting_station);
  if (!st) throw refuse('unknown_station', 'crafting_station is required');
  knownType(deps.game, body.item_parameters.type, 'item_parameters.type');
  if (!st.types.includes(body.item_parameters.type))
    throw refuse(
      'invalid_request',
      `The ${st.name} cannot make ${body.item_parameters.type}; it makes ${st.types.join(', ')}`,
    );
  // The player's words beat the form's defaults: what they ask for is what the model is asked.
  const wished = followWish(deps.game, st, body.item_parameters);
  const params = wished.params;
  const stacks = mergeStacks(body.materials);
  const ingredients = await ingredientsOf(deps, stacks);
  const level = craftingLevel(deps.game, crafter.xp);
  assertStationLevel(deps.game.stations, st, level);
  const rarity = craftedRarity(
    deps.game,
    ingredients.map((i) => i.item.rarity),
    stacks.reduce((a, s) => a + s.quantity, 0),
    level,
  );
  assertRarityLevel(deps, rarity, level, `at the ${st.name}`);
  const itemLevel = craftedLevel(
    deps.game,
    Math.max(...ingredients.map((i) => i.item.level)),
    level,
    crafter.level,
  );
  const spec = {
    type: params.type,
    rarity,
    level: itemLevel,
    budget: statBudget(deps.game, rarity, itemLevel),
    focus: params.focus_attributes.join(', ') || undefined,
  };
  const user = formatPrompt({
    count: 1,
    materials: ingredients.map(ingredientLine),
    station: { name: st.name },
    request: params.description || undefined,
    items: [itemLine(deps.game, spec)],
    look: Object.keys(params.visual_preferences).length ? params.visual_preferences : undefined,
  });
  const trace = newTrace();
  const batch = await askJson({
    upstream: deps.upstream,
    clientId: playerId,
    system: systemPrompt(deps.game, 'Forge the one item the player asks for from the given materials.'),
    user,
    schema: gameSchemas(deps.game).batch,
    schemaName: 'item_batch',
    model: deps.textModel,
    metrics: deps.metrics,
    kind: 'create_item',
    signal,
    trace,
    check: (b) =>
      b.items.length !== 1
        ? ['write exactly 1 item']
        : checkItem(deps.game, b.items[0] as Item, { ...spec, origin: 'made' }).map((p) => `items.0: ${p}`),
    review: async (b) =>
      (await deps.content?.review(
        playerId,
        b.items.flatMap((item, i) => itemTexts(item, `items.${i}.`)),
        wordsOf(createItemTexts(body)),
      )) ?? [],
  });
  const written = settleItem(deps.game, batch.items[0] as (typeof batch.items)[number], 'made');
  // A colour the player named or chose is the item's, whatever the model wrote, and its look's.
  const chosen = wished.wish.colour ?? chosenColour(params.visual_preferences);
  const family = chosen ? colourOfWord(chosen) : undefined;
  const look =
    written.look && family
      ? { ...written.look, colors: [...new Set([family, ...written.look.colors])].slice(0, 3) }
      : written.look;
  const generated = chosen ? { ...written, color: chosen, ...(look ? { look } : {}) } : written;
  // The icon is painted from the item as checked, never from the player's words.
  const icon = await deps.icons.ensure(deps.icons.promptFor(generated), playerId, signal);
  const item = { ...generated, id: newItemId(), icon, created_at: new Date().toISOString() };
  deps.activity?.record(provenanceRows(deps.game, [item], { source: 'create_item', playerId, trace }));
  const notes = [...wished.notes, ...requestNotes(deps.game, body, item, ingredients)];
  return { item, stacks, notes: [...notes, ...effectNotes(deps.game, wished.wish, item)] };
}
