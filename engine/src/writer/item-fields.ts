import { BoundedMap, effectText, type ItemEffect, SPEC_RARITIES } from '@lootsmith/protocol';
import { hashString, type Rng } from '../random.ts';
import { judgeCombination, type Verdict } from './combine.ts';
import type { Cues } from './cues.ts';
import { type ItemPlan, type PlanOptions, planItem } from './item-plan.ts';
import { writeProse } from './prose.ts';
import { asSchema, type Fill, type FillRules, fitString, type JsonSchema, schemaFiller } from './schema.ts';
import type { Vocabulary } from './vocabulary.ts';

/**
 * What the fields of a schema mean for loot: a name, stats, a rarity, lore… read from field names in
 * whatever words a developer chose (`weapon_name`, `armor_rating`, `flavor`), and filled from the item
 * the writer plans for the conversation, or from the crafting judge's verdict.
 */

/** What is being filled: the conversation, and the item (or verdict) the fields come from. */
interface ItemFill {
  cues: Cues;
  /** Words of the context, for names of things that are not the item. */
  words: readonly string[];
  /** Phrases this answer has written so far, so the items of one answer do not echo each other. */
  used: Set<string>;
  plan?: ItemPlan;
  verdict?: Verdict;
  /** How many stat-named fields the enclosing object has, which share the item's budget. */
  statFields?: number;
}

type F = Fill<ItemFill>;

/** The state for what an object holds: written out, since V8 copies a spread and then extends it slowly. */
function nextState(
  state: ItemFill,
  plan: ItemPlan | undefined,
  verdict: Verdict | undefined,
  statFields: number | undefined,
): ItemFill {
  return { cues: state.cues, words: state.words, used: state.used, plan, verdict, statFields };
}

/** Field names that ask for a stat: `attack`, `armorRating`, `base_damage`, `hp`, `str`… */
const STAT_KEY =
  /power|attack|atk|damage|dmg|dps|defen[cs]e|armou?r|block|health|vitality|stamina|mana|magic|spell|strength|dexterity|agility|intellect|intelligence|wisdom|speed|crit|luck|resist|toughness|might|potency|heal|protection|evasion|dodge|accuracy/;
const STAT_TOKENS = new Set([
  'hp',
  'mp',
  'ac',
  'def',
  'str',
  'dex',
  'int',
  'agi',
  'vit',
  'wis',
  'spd',
  'ap',
  'sp',
]);
const STAT_NAMES: Array<[RegExp, string]> = [
  [/attack|atk|damage|dmg|dps|power|might|strength|str/, 'attack'],
  [/defen|armou?r|block|protection|toughness|def|ac/, 'defense'],
  [/health|hp|vitality|stamina|vit|heal/, 'health'],
  [/mana|mp/, 'mana'],
  [/magic|spell|intell|int|wis|potency|sp/, 'magic'],
  [/speed|agility|dex|evasion|dodge|spd|agi/, 'speed'],
  [/crit|accuracy/, 'crit_chance'],
  [/luck/, 'luck'],
];

function readStatKey(key: string): boolean {
  const k = key.toLowerCase();
  if (/level|lvl|count|price|cost|value|weight|id$|index|quantity|required|requirement|slots?$/.test(k))
    return false;
  if (STAT_KEY.test(k)) return true;
  return key
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((t) => STAT_TOKENS.has(t));
}

// Asked for every numeric field of every answer; the keys are a schema's few.
const statKeys = new BoundedMap<string, boolean>(1000);
function isStatKey(key: string): boolean {
  let answer = statKeys.get(key);
  if (answer === undefined) {
    answer = readStatKey(key);
    statKeys.set(key, answer);
  }
  return answer;
}

/**
 * A stat for a field the schema names itself: the item's budget shared among the stat fields of its
 * object, a little more for the item type's own stat. It rises with rarity and level, as the budget does.
 */
function statValue(plan: ItemPlan, key: string, fields: number): number {
  const meaning = STAT_NAMES.find(([pattern]) => pattern.test(key.toLowerCase()))?.[1];
  const main = plan.stats[0]?.name === meaning ? 1.15 : 1;
  // Jitter from the item and the field, not a random draw, so `damage.min` and `damage.max` share it.
  const jitter = 0.9 + ((hashString(`${plan.name}:${key}`) % 1000) / 1000) * 0.2;
  return Math.max(1, (plan.budget / Math.max(1, fields)) * main * jitter);
}

/** Maps a rising value into a bounded range along a saturating curve, so order survives the bounds. */
function intoRange(value: number, node: JsonSchema): number {
  const bound = (a: unknown, b: unknown) =>
    typeof a === 'number' ? a : typeof b === 'number' ? b : undefined;
  const lo = bound(node.minimum, node.exclusiveMinimum) ?? 0;
  const hi = bound(node.maximum, node.exclusiveMaximum);
  if (hi === undefined) return Math.max(lo, value);
  return lo + (hi - lo) * (1 - Math.exp(-value / (100 + hi - lo)));
}

/** A name field of the item itself, not of its enemy, place or maker. */
const NAME_KEY = /(^|_)name$|[a-z]Name$|^title$/;
const OTHER_NAME = /enemy|monster|boss|location|zone|area|player|owner|creator|author|npc|maker|set/i;
const isNameKey = (key: string) => NAME_KEY.test(key) && !OTHER_NAME.test(key);

/** A value the plan suggests for a field, looked up by the field's name. */
function planned({ state, parent }: F, key: string): unknown {
  const plan = state.plan;
  if (!plan) return undefined;
  const k = key.toLowerCase();
  // The item's look, as the protocol's item plan has it.
  if (parent === 'look' && plan.look) return plan.look[key as keyof ItemPlan['look']];
  // A stat of the plan ({name, value}) under the schema's own names: {stat, amount}, {attribute, bonus}…
  const stat = plan as unknown as { name: string; value: number; rarity?: string };
  if (stat.rarity === undefined && typeof stat.value === 'number') {
    if (/^(stat|attr|attribute|type|key|name|label)$/.test(k)) return stat.name;
    if (/^(amount|value|val|bonus|points|modifier|mod|number|score)$/.test(k)) return stat.value;
  }
  // The game's own fields (a stat or affix under `plan` has none).
  if (plan.fields && key in plan.fields) return plan.fields[key];
  if (k in plan && k !== 'noun' && k !== 'budget' && k !== 'fields') return plan[k as keyof ItemPlan];
  if (isNameKey(key)) return plan.name;
  if (/^(id|slug|key|item_?id|code)$/.test(k))
    return plan.name
      .toLowerCase()
      .replace(/[^a-z]+/g, '_')
      .replace(/^_|_$/g, '');
  if (/^(text|body|details|info|tooltip|effect_?text|card_?text|desc)$/.test(k)) return plan.description;
  if (/^(item_?type|kind|slot|category)$/.test(k)) return plan.type;
  if (/^(base|sub_?type|weapon_?type|armou?r_?type)$/.test(k)) return plan.subtype;
  if (/lore|story|history|flavou?r|backstory|legend/.test(k)) return plan.lore;
  if (/desc|summary|blurb/.test(k)) return plan.description;
  if (/^(gold|price|worth|cost|sell_?price|gold_?value)$/.test(k)) return plan.value;
  if (/^(item_?level|ilvl|required_?level|level_?requirement|req_?level)$/.test(k)) return plan.level;
  if (/^(quality|grade|rarity_?name)$/.test(k)) return plan.rarity;
  if (/^(damage_?type|affinity|school)$/.test(k)) return plan.element;
  if (/^(affixes|effects|abilities|perks|modifiers|enchantments|traits|properties|bonuses)$/.test(k))
    return plan.effects;
  if (/location|zone|area|found_?in/.test(k)) return state.cues.location;
  if (/enemy|monster|source|dropped_?by|boss/.test(k)) return state.cues.enemy;
  if (/^(stats|attributes|stat_?block)$/.test(k)) return plan.stats;
  return undefined;
}

/** Field names that want a sentence or two of in-character text rather than a word. */
const PROSE_KEYS =
  /text|message|reply|greeting|dialog|line|speech|summary|description|lore|story|content|answer|response|flavou?r|quote/;

function themedText({ state, rng }: F, key: string): string {
  const k = key.toLowerCase();
  const subject = state.cues.location ?? state.cues.enemy ?? state.cues.theme ?? 'the realm';
  if (k.includes('name') || k === 'title')
    return `${rng.pick(['Old', 'Grim', 'Bright', 'Hollow', 'Iron'])} ${rng.pick(state.words.length ? state.words : ['Relic'])}`;
  if (k.includes('id') || k.endsWith('key'))
    return `${k.replace(/[^a-z]/g, '') || 'id'}_${rng.int(1000, 9999)}`;
  if (PROSE_KEYS.test(k)) return writeProse(state.cues, rng);
  const pool = state.words.length ? state.words : ['ember', 'oak', 'iron', 'moss', 'ash', 'dusk'];
  return `${rng.pick(pool).toLowerCase()} of ${subject}`;
}

/** Words games use for the writer's item types in their own enums ("head", "mainhand", "jewelry"). */
const TYPE_ALIASES: Record<string, readonly string[]> = {
  WEAPON: [
    'weapon',
    'weapons',
    'mainhand',
    'main_hand',
    'main hand',
    'melee',
    'ranged',
    'two_hand',
    'twohand',
  ],
  HELMET: ['helmet', 'head', 'helm', 'headgear', 'hat'],
  CHEST: ['chest', 'body', 'torso', 'armor', 'armour', 'chestpiece'],
  LEGS: ['legs', 'leg', 'pants', 'legging', 'leggings'],
  BOOTS: ['boots', 'feet', 'foot', 'shoes'],
  GLOVES: ['gloves', 'hands', 'hand', 'gauntlets'],
  SHIELD: ['shield', 'offhand', 'off_hand', 'off hand'],
  ACCESSORY: ['accessory', 'ring', 'amulet', 'neck', 'necklace', 'trinket', 'jewelry', 'jewellery', 'finger'],
  CONSUMABLE: ['consumable', 'potion', 'consumables', 'food', 'scroll'],
  MATERIAL: ['material', 'materials', 'reagent', 'crafting', 'resource'],
  CONTAINER: ['container', 'bag'],
  EQUIPMENT: ['equipment', 'gear', 'cloak', 'back', 'belt', 'waist'],
};

/** The item type of the game an enum value stands for, if any: its id, or a word games use for it. */
function typeOfValue(vocab: Vocabulary, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.toLowerCase();
  return (
    vocab.type(value)?.id ??
    vocab.types.find((t) => TYPE_ALIASES[t.id]?.includes(v) || t.name.toLowerCase() === v)?.id
  );
}

/** Which enum value is the plan's type, subtype, rarity or element, in the game's own words. */
function choose(fill: F, key: string, values: readonly unknown[]): number | undefined {
  const lower = values.map((v) => (typeof v === 'string' ? v.toLowerCase() : v));
  const plan = fill.state.plan;
  const { vocab } = fill.state.cues;
  const want = planned(fill, key) ?? (key === 'element' ? fill.state.cues.element : undefined);
  if (typeof want === 'string') {
    const i = lower.indexOf(want.toLowerCase());
    if (i >= 0) return i;
    // A subtype the enum names ("ring"), else a value that stands for the plan's type ("head" for HELMET).
    const bySubtype = plan ? lower.indexOf(plan.subtype) : -1;
    if (bySubtype >= 0 && plan?.type === want) return bySubtype;
    const byType = values.findIndex((v) => typeOfValue(vocab, v) === want);
    if (byType >= 0) return byType;
    // A game's own rarity words ("poor" … "masterwork"), read as a ladder from low to high.
    const ladder = vocab.rarities.some((r) => r.toUpperCase() === want.toUpperCase())
      ? vocab.rarities
      : SPEC_RARITIES;
    const rank = ladder.findIndex((r) => r.toUpperCase() === want.toUpperCase());
    if (rank >= 0 && /rarity|quality|grade|tier|class/i.test(key))
      return Math.round((rank / Math.max(1, ladder.length - 1)) * (values.length - 1));
  }
  if (key === 'element' && lower.includes('none')) return lower.indexOf('none');
  return undefined;
}

function number(fill: F, key: string, node: JsonSchema): number | undefined {
  const fromPlan = planned(fill, key);
  if (typeof fromPlan === 'number') return fromPlan;
  const { plan, statFields } = fill.state;
  if (!plan) return undefined;
  const lo = typeof node.minimum === 'number' ? node.minimum : 0;
  const hi = typeof node.maximum === 'number' ? node.maximum : lo + 100;
  const k = key.toLowerCase();
  if (/^(tier|rarity|quality|grade|stars?)$/.test(k)) {
    const { rarities } = fill.state.cues.vocab;
    const rank = fill.state.cues.vocab.rarityIndex(plan.rarity) / Math.max(1, rarities.length - 1);
    return lo + (Math.min(hi, lo + 100) - lo) * rank;
  }
  const own = isStatKey(key);
  if (own || (fill.parent && isStatKey(fill.parent) && /min|max|low|high|base|value|amount/.test(k))) {
    const statKey = own ? key : (fill.parent as string);
    const spread = /max|high/.test(k) ? 1.3 : /min|low/.test(k) ? 0.75 : 1;
    return intoRange(statValue(plan, statKey, own ? (statFields ?? 1) : 1) * spread, node);
  }
  return undefined;
}

const ITEM_KEYS =
  /^(rarity|stats|attributes|subtype|type|item_?type|slot|level|item_?level|description|lore|affixes|effects|element|material|tier|quality)$/i;

/** An object that describes an item: a name, and a field an item has (rarity, type, …) or two stats. */
function isItemLike(props: JsonSchema): boolean {
  const keys = Object.keys(props);
  const named = keys.some(isNameKey);
  const statKeys = keys.filter(isStatKey).length;
  return named && (keys.some((k) => ITEM_KEYS.test(k)) || statKeys >= 2) && !('sensible' in props);
}

/** Plan options a schema implies: which stat names it allows and how many stats or affixes fit. */
function planOptions(props: JsonSchema, vocab: Vocabulary): PlanOptions {
  const stats = asSchema(props.stats);
  const statName = asSchema(asSchema(asSchema(stats.items).properties).name);
  const options: PlanOptions = {};
  if (Array.isArray(statName.enum)) options.allowedStats = statName.enum as string[];
  if (typeof stats.maxItems === 'number') options.maxStats = stats.maxItems;
  const effectsKey = Object.keys(props).find((k) =>
    /^(affixes|effects|abilities|perks|modifiers|enchantments|traits|bonuses)$/i.test(k),
  );
  const effects = effectsKey ? asSchema(props[effectsKey]) : {};
  if (typeof effects.maxItems === 'number') options.maxEffects = effects.maxItems;
  // The types the schema allows (its own enum of slots or kinds), else gear when it asks for stats.
  const typeKey = Object.keys(props).find((k) => /^(type|item_?type|slot|category|kind)$/i.test(k));
  const typeEnum = typeKey ? asSchema(props[typeKey]).enum : undefined;
  const fromEnum = Array.isArray(typeEnum)
    ? [...new Set(typeEnum.map((v) => typeOfValue(vocab, v)).filter((t): t is string => t !== undefined))]
    : [];
  const statKeys = Object.keys(props).filter(isStatKey);
  if (fromEnum.length) options.types = fromEnum;
  else if (statKeys.length && statKeys.every((k) => /att|atk|dam|dmg|dps|power|might|str/i.test(k)))
    options.types = ['WEAPON'];
  else if (statKeys.length)
    options.types = ['WEAPON', 'HELMET', 'CHEST', 'LEGS', 'BOOTS', 'GLOVES', 'SHIELD', 'ACCESSORY'];
  return options;
}

/** The properties of a verdict's `item` (a nullable object, perhaps behind a `$ref`). */
function verdictItemProps(item: JsonSchema, resolve: (node: JsonSchema) => JsonSchema): JsonSchema {
  const branches = (item.anyOf ?? item.oneOf) as unknown[] | undefined;
  const candidates = Array.isArray(branches) ? branches.map(asSchema) : [item];
  for (const c of candidates) {
    const target = resolve(c);
    if (target.properties) return asSchema(target.properties);
  }
  return {};
}

const ITEM_RULES: FillRules<ItemFill> = {
  object(props, resolve) {
    const itemLike = isItemLike(props);
    const verdictLike = 'sensible' in props && 'item' in props;
    const statFields = Object.keys(props).filter(isStatKey).length;
    // What the schema implies for a game's items is the same for every answer in that game.
    const optionsByGame = new WeakMap<Vocabulary, PlanOptions>();
    const optionsFor = (vocab: Vocabulary): PlanOptions => {
      let options = optionsByGame.get(vocab);
      if (!options) {
        options = itemLike
          ? planOptions(props, vocab)
          : verdictLike
            ? planOptions(verdictItemProps(asSchema(props.item), resolve), vocab)
            : {};
        optionsByGame.set(vocab, options);
      }
      return options;
    };
    return {
      enter({ state, rng, index }) {
        const options = optionsFor(state.cues.vocab);
        if (verdictLike && state.cues.combine)
          return nextState(
            state,
            state.plan,
            judgeCombination(state.cues, rng.fork('verdict'), options),
            statFields,
          );
        if (!itemLike) return nextState(state, state.plan, state.verdict, statFields);
        const { cues, verdict, used } = state;
        const cue = cues.items[index] ?? cues.items[0] ?? cues.base;
        const plan = verdict?.item ?? planItem(cue, cues, rng.fork(`item:${index}`), options, used);
        return nextState(state, plan, undefined, statFields);
      },
      // `stats: {type: object, additionalProperties: integer}`: the plan's stats by name.
      entries(fill, key) {
        const stats = planned(fill, key);
        return Array.isArray(stats) ? (stats as ItemPlan['stats']) : undefined;
      },
    };
  },
  array(element) {
    const itemLike = isItemLike(asSchema(element.properties));
    return (fill, key) => {
      const fromPlan = planned(fill, key);
      const { state } = fill;
      if (Array.isArray(fromPlan)) {
        // Words as they stand: a look's materials, colours and features.
        if (fromPlan.every((v) => typeof v === 'string')) return { values: fromPlan };
        const effects = fromPlan === state.plan?.effects;
        // The game's own effect schema (an id and its params): the plan's effects as they stand.
        if (effects && (element.anyOf || asSchema(element.properties).params)) return { values: fromPlan };
        // A developer's own words for effects: each worded from the catalogue ("Burn: Hits set…").
        const worded: Array<{ name: string; effect?: string; value?: number }> = effects
          ? (fromPlan as ItemEffect[]).flatMap((e) => {
              const text = effectText(e, state.cues.vocab.effects);
              return text ? [{ name: text.name, effect: text.text }] : [];
            })
          : (fromPlan as Array<{ name: string; effect?: string; value?: number }>);
        // A list of strings: "Burn: Hits set the target burning…", "attack +12".
        if (element.type === 'string')
          return {
            values: worded.map((v) =>
              fitString(v.effect ? `${v.name}: ${v.effect}` : `${v.name} +${v.value}`, element),
            ),
          };
        return {
          states: worded.map((plan) =>
            nextState(state, plan as unknown as ItemPlan, state.verdict, state.statFields),
          ),
        };
      }
      if (state.verdict && key === 'suggestions')
        return { values: state.verdict.suggestions.map((s) => fitString(s, element)) };
      if (itemLike) return { count: state.cues.count ?? Math.max(1, state.cues.items.length) };
      return undefined;
    };
  },
  string(fill, key) {
    if (fill.state.verdict && key === 'message') return fill.state.verdict.message;
    const fromPlan = planned(fill, key);
    return typeof fromPlan === 'string' || typeof fromPlan === 'number' ? String(fromPlan) : undefined;
  },
  text: themedText,
  number,
  choose,
  boolean: (fill, key) => {
    if (key === 'sensible' && fill.state.verdict) return fill.state.verdict.sensible;
    // A yes/no field of the game's own, as the plan drew it.
    const fromPlan = planned(fill, key);
    return typeof fromPlan === 'boolean' ? fromPlan : undefined;
  },
  isNull: ({ state }, key) => key === 'item' && state.verdict !== undefined && !state.verdict.item,
  // A field of the game's own goes only on the types that carry it.
  // A colour only when the player asked for one.
  include: ({ state }, key) => {
    const { plan } = state;
    if (!plan) return true;
    if (/^colou?r$/i.test(key)) return plan.color !== undefined;
    return (
      !state.cues.vocab.fields.some((f) => f.id === key) || (plan.fields !== undefined && key in plan.fields)
    );
  },
};

const fill = schemaFiller(ITEM_RULES);

/** An instance of `schema` for the conversation: its items planned, its combination judged. */
export function fillItemSchema(schema: JsonSchema, cues: Cues, rng: Rng, words: readonly string[]): unknown {
  return fill(schema, { cues, words, used: new Set() }, rng);
}
