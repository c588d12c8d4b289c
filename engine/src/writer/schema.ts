import { ITEM_TYPES, type ItemType, RARITIES } from '@lootsmith/protocol';
import { hashString, type Rng } from '../random.ts';
import { judgeCombination, type Verdict } from './combine.ts';
import type { Cues } from './cues.ts';
import { type ItemPlan, type PlanOptions, planItem, rarityIndex } from './item-plan.ts';
import { writeProse } from './prose.ts';

type JsonSchema = Record<string, unknown>;

/** State of one generation: the conversation, the random stream, and the item being filled. */
export interface FillContext {
  cues: Cues;
  rng: Rng;
  depth: number;
  plan?: ItemPlan;
  verdict?: Verdict;
  /** Position in the nearest array, so "Item 2:" fills the second element. */
  index: number;
  /** The key of the enclosing object, so `damage: {min, max}` is read as a stat. */
  parent?: string;
  /** How many stat-named fields the enclosing object has, which share the item's budget. */
  statFields?: number;
  words: readonly string[];
  /** Phrases this answer has written so far, so the items of one answer do not echo each other. */
  used: Set<string>;
}

type Gen = (ctx: FillContext, key: string) => unknown;

const MAX_DEPTH = 8;

function asSchema(value: unknown): JsonSchema {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : {};
}

function fitString(text: string, node: JsonSchema): string {
  const min = typeof node.minLength === 'number' ? node.minLength : 0;
  const max = typeof node.maxLength === 'number' ? node.maxLength : Number.POSITIVE_INFINITY;
  let out = text;
  if (out.length > max) {
    const cut = out.slice(0, max);
    const space = cut.lastIndexOf(' ');
    out = space > Math.max(min, max * 0.6) ? cut.slice(0, space).replace(/[,;:]$/, '') : cut;
  }
  while (out.length < min) out += out.length ? ' of old' : 'relic';
  return out.slice(0, Math.max(min, Math.min(max, out.length)));
}

function fitNumber(value: number, node: JsonSchema, integer: boolean): number {
  let lo = typeof node.minimum === 'number' ? node.minimum : Number.NEGATIVE_INFINITY;
  let hi = typeof node.maximum === 'number' ? node.maximum : Number.POSITIVE_INFINITY;
  const step = integer ? 1 : 1e-6;
  if (typeof node.exclusiveMinimum === 'number') lo = Math.max(lo, node.exclusiveMinimum + step);
  if (typeof node.exclusiveMaximum === 'number') hi = Math.min(hi, node.exclusiveMaximum - step);
  let v = Math.min(hi, Math.max(lo, value));
  if (integer) {
    v = Math.round(v);
    if (v > hi) v = Math.floor(hi);
    if (v < lo) v = Math.ceil(lo);
  }
  if (typeof node.multipleOf === 'number' && node.multipleOf > 0) {
    const m = node.multipleOf;
    let k = Math.round(v / m) * m;
    if (k > hi) k -= m;
    if (k < lo) k += m;
    v = integer ? Math.round(k) : Number(k.toFixed(10));
  }
  return v;
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

export function isStatKey(key: string): boolean {
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
export const isNameKey = (key: string) => NAME_KEY.test(key) && !OTHER_NAME.test(key);

/** A value the plan suggests for a field, looked up by the field's name. */
function planned(ctx: FillContext, key: string): unknown {
  const plan = ctx.plan;
  if (!plan) return undefined;
  const k = key.toLowerCase();
  // A stat of the plan ({name, value}) under the schema's own names: {stat, amount}, {attribute, bonus}…
  const stat = plan as unknown as { name: string; value: number; rarity?: string };
  if (stat.rarity === undefined && typeof stat.value === 'number') {
    if (/^(stat|attr|attribute|type|key|name|label)$/.test(k)) return stat.name;
    if (/^(amount|value|val|bonus|points|modifier|mod|number|score)$/.test(k)) return stat.value;
  }
  if (k in plan && k !== 'noun' && k !== 'budget') return plan[k as keyof ItemPlan];
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
    return plan.affixes;
  if (/location|zone|area|found_?in/.test(k)) return ctx.cues.location;
  if (/enemy|monster|source|dropped_?by|boss/.test(k)) return ctx.cues.enemy;
  if (/^(stats|attributes|stat_?block)$/.test(k)) return plan.stats;
  return undefined;
}

function themedText(ctx: FillContext, key: string): string {
  const k = key.toLowerCase();
  const subject = ctx.cues.location ?? ctx.cues.enemy ?? ctx.cues.theme ?? 'the realm';
  if (k.includes('name') || k === 'title')
    return `${ctx.rng.pick(['Old', 'Grim', 'Bright', 'Hollow', 'Iron'])} ${ctx.rng.pick(ctx.words.length ? ctx.words : ['Relic'])}`;
  if (k.includes('id') || k.endsWith('key'))
    return `${k.replace(/[^a-z]/g, '') || 'id'}_${ctx.rng.int(1000, 9999)}`;
  if (PROSE_KEYS.test(k)) return writeProse(ctx.cues, ctx.rng);
  const pool = ctx.words.length ? ctx.words : ['ember', 'oak', 'iron', 'moss', 'ash', 'dusk'];
  return `${ctx.rng.pick(pool).toLowerCase()} of ${subject}`;
}

/** Field names that want a sentence or two of in-character text rather than a word. */
const PROSE_KEYS =
  /text|message|reply|greeting|dialog|line|speech|summary|description|lore|story|content|answer|response|flavou?r|quote/;

function compilePattern(source: unknown): RegExp | undefined {
  if (typeof source !== 'string') return undefined;
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

function stringGen(node: JsonSchema): Gen {
  const format = node.format;
  const pattern = compilePattern(node.pattern);
  return (ctx, key) => {
    let text: string;
    const fromPlan = planned(ctx, key);
    if (ctx.verdict && key === 'message') text = ctx.verdict.message;
    else if (typeof fromPlan === 'string') text = fromPlan;
    else if (typeof fromPlan === 'number') text = String(fromPlan);
    else if (format === 'date-time')
      text = new Date(Date.UTC(2024, 0, 1 + ctx.rng.int(0, 364))).toISOString();
    else if (format === 'date')
      text = new Date(Date.UTC(2024, 0, 1 + ctx.rng.int(0, 364))).toISOString().slice(0, 10);
    else if (format === 'email') text = `player${ctx.rng.int(1, 9999)}@example.com`;
    else if (format === 'uri' || format === 'url') text = `https://example.com/${ctx.rng.int(1, 9999)}`;
    else if (format === 'uuid') {
      const hex = () => ctx.rng.int(0, 0xffff).toString(16).padStart(4, '0');
      text = `${hex()}${hex()}-${hex()}-4${hex().slice(1)}-a${hex().slice(1)}-${hex()}${hex()}${hex()}`;
    } else text = themedText(ctx, key);
    return matchPattern(fitString(text, node), node, pattern);
  };
}

/** Best effort for `pattern`: the text itself, else a slug of it, else digits; kept within the lengths. */
function matchPattern(text: string, node: JsonSchema, pattern: RegExp | undefined): string {
  if (!pattern || pattern.test(text)) return text;
  const candidates = [
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, ''),
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, ''),
    text.replace(/[^A-Za-z]+/g, ''),
    String(hashDigits(text)),
  ];
  for (const candidate of candidates) {
    const fitted = fitString(candidate, node);
    if (pattern.test(fitted)) return fitted;
  }
  return text;
}

function hashDigits(text: string): number {
  let h = 7;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) % 1_000_000;
  return h;
}

/** Words games use for an item type in their own enums ("head", "mainhand", "jewelry"). */
const TYPE_ALIASES: Record<ItemType, readonly string[]> = {
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

/** The item type an enum value stands for, if any. */
function typeOfValue(value: unknown): ItemType | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.toLowerCase();
  return ITEM_TYPES.find((type) => type.toLowerCase() === v || TYPE_ALIASES[type].includes(v));
}

function enumGen(values: readonly unknown[]): Gen {
  const lower = values.map((v) => (typeof v === 'string' ? v.toLowerCase() : v));
  return (ctx, key) => {
    const want = planned(ctx, key) ?? (key === 'element' ? ctx.cues.element : undefined);
    if (typeof want === 'string') {
      const i = lower.indexOf(want.toLowerCase());
      if (i >= 0) return values[i];
      // A subtype the enum names ("ring"), else a value that stands for the plan's type ("head" for HELMET).
      const bySubtype = ctx.plan ? lower.indexOf(ctx.plan.subtype) : -1;
      if (bySubtype >= 0 && ctx.plan?.type === want) return values[bySubtype];
      const byType = values.findIndex((v) => typeOfValue(v) === want.toUpperCase());
      if (byType >= 0) return values[byType];
      // A game's own rarity words ("poor" … "masterwork"), read as a ladder from low to high.
      const rank = RARITIES.indexOf(want.toUpperCase() as (typeof RARITIES)[number]);
      if (rank >= 0 && /rarity|quality|grade|tier|class/i.test(key))
        return values[Math.round((rank / (RARITIES.length - 1)) * (values.length - 1))];
    }
    if (key === 'element' && lower.includes('none')) return values[lower.indexOf('none')];
    return ctx.rng.pick(values);
  };
}

function numberGen(node: JsonSchema, integer: boolean): Gen {
  return (ctx, key) => {
    const fromPlan = planned(ctx, key);
    const lo = typeof node.minimum === 'number' ? node.minimum : 0;
    const hi = typeof node.maximum === 'number' ? node.maximum : lo + 100;
    let value: number;
    const plan = ctx.plan;
    const k = key.toLowerCase();
    if (typeof fromPlan === 'number') value = fromPlan;
    else if (plan && /^(tier|rarity|quality|grade|stars?)$/.test(k))
      value = lo + ((Math.min(hi, lo + 100) - lo) * rarityIndex(plan.rarity)) / 5;
    else if (
      plan &&
      (isStatKey(key) ||
        (ctx.parent && isStatKey(ctx.parent) && /min|max|low|high|base|value|amount/.test(k)))
    ) {
      const own = isStatKey(key);
      const statKey = own ? key : (ctx.parent as string);
      const spread = /max|high/.test(k) ? 1.3 : /min|low/.test(k) ? 0.75 : 1;
      value = intoRange(statValue(plan, statKey, own ? (ctx.statFields ?? 1) : 1) * spread, node);
    } else value = lo + (Math.min(hi, lo + 100) - lo) * ctx.rng.next();
    // Non-integer numbers keep two decimals: a stat of 39.24, not 39.241659685854735.
    if (!integer && Math.abs(value) >= 1) value = Math.round(value * 100) / 100;
    return fitNumber(value, node, integer);
  };
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
function planOptions(props: JsonSchema): PlanOptions {
  const stats = asSchema(props.stats);
  const statName = asSchema(asSchema(asSchema(stats.items).properties).name);
  const options: PlanOptions = {};
  if (Array.isArray(statName.enum)) options.allowedStats = statName.enum as string[];
  if (typeof stats.maxItems === 'number') options.maxStats = stats.maxItems;
  const affixes = asSchema(props.affixes);
  if (typeof affixes.maxItems === 'number') options.maxAffixes = affixes.maxItems;
  // The types the schema allows (its own enum of slots or kinds), else gear when it asks for stats.
  const typeKey = Object.keys(props).find((k) => /^(type|item_?type|slot|category|kind)$/i.test(k));
  const typeEnum = typeKey ? asSchema(props[typeKey]).enum : undefined;
  const fromEnum = Array.isArray(typeEnum) ? [...new Set(typeEnum.map(typeOfValue).filter(Boolean))] : [];
  const statKeys = Object.keys(props).filter(isStatKey);
  if (fromEnum.length) options.types = fromEnum as ItemType[];
  else if (statKeys.length && statKeys.every((k) => /att|atk|dam|dmg|dps|power|might|str/i.test(k)))
    options.types = ['WEAPON'];
  else if (statKeys.length)
    options.types = ['WEAPON', 'HELMET', 'CHEST', 'LEGS', 'BOOTS', 'GLOVES', 'SHIELD', 'ACCESSORY'];
  return options;
}

/** The number schema of an object's `additionalProperties`, when it is a map of numbers. */
function statRecord(node: JsonSchema): JsonSchema | undefined {
  const extra = asSchema(node.additionalProperties);
  return extra.type === 'integer' || extra.type === 'number' ? extra : undefined;
}

class Compiler {
  private readonly memo = new Map<JsonSchema, Gen>();

  constructor(private readonly root: JsonSchema) {}

  private resolve(ref: string): JsonSchema {
    if (ref === '#') return this.root;
    const path = ref
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node: unknown = this.root;
    for (const p of path) node = asSchema(node)[p];
    return asSchema(node);
  }

  compile(node: JsonSchema): Gen {
    const known = this.memo.get(node);
    if (known) return known;
    let compiled: Gen | undefined;
    const lazy: Gen = (ctx, key) => (compiled as Gen)(ctx, key);
    this.memo.set(node, lazy);
    compiled = this.build(node);
    return compiled;
  }

  private build(node: JsonSchema): Gen {
    if (typeof node.$ref === 'string') {
      const target = this.compile(this.resolve(node.$ref));
      return (ctx, key) => (ctx.depth > MAX_DEPTH ? null : target({ ...ctx, depth: ctx.depth + 1 }, key));
    }
    if ('const' in node) return () => node.const;
    if (Array.isArray(node.enum)) return enumGen(node.enum);
    const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
    if (Array.isArray(union)) return this.union(union.map(asSchema));
    if (Array.isArray(node.allOf)) {
      const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
      for (const part of node.allOf.map(asSchema)) {
        const p = part.$ref ? this.resolve(part.$ref as string) : part;
        Object.assign(merged.properties as JsonSchema, asSchema(p.properties));
        (merged.required as unknown[]).push(...((p.required as unknown[]) ?? []));
      }
      return this.compile(merged);
    }
    const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string | undefined];
    const type = types.find((t) => t !== 'null') ?? (node.properties ? 'object' : types[0]);
    switch (type) {
      case 'object':
        return this.object(node);
      case 'array':
        return this.array(node);
      case 'string':
        return stringGen(node);
      case 'integer':
        return numberGen(node, true);
      case 'number':
        return numberGen(node, false);
      case 'boolean':
        return (ctx, key) => (key === 'sensible' && ctx.verdict ? ctx.verdict.sensible : true);
      case 'null':
        return () => null;
      default:
        return stringGen(node);
    }
  }

  private union(branches: JsonSchema[]): Gen {
    const isNull = (b: JsonSchema) => b.type === 'null' || ('const' in b && b.const === null);
    const nullable = branches.some(isNull);
    const others = branches.filter((b) => !isNull(b)).map((b) => this.compile(b));
    return (ctx, key) => {
      if (
        nullable &&
        (others.length === 0 || ctx.depth > MAX_DEPTH || (key === 'item' && ctx.verdict && !ctx.verdict.item))
      ) {
        return null;
      }
      return (others[0] as Gen)(ctx, key);
    };
  }

  private object(node: JsonSchema): Gen {
    const props = asSchema(node.properties);
    const fields = Object.entries(props).map(([key, child]) => [key, this.compile(asSchema(child))] as const);
    const itemLike = isItemLike(props);
    const verdictLike = 'sensible' in props && 'item' in props;
    const options = itemLike
      ? planOptions(props)
      : verdictLike
        ? planOptions(asSchema(this.itemProps(asSchema(props.item))))
        : {};
    const record = statRecord(node);
    const statFields = Object.keys(props).filter(isStatKey).length;
    return (ctx, key) => {
      let inner = ctx;
      if (verdictLike && ctx.cues.combine) {
        inner = { ...ctx, verdict: judgeCombination(ctx.cues, ctx.rng.fork('verdict'), options) };
      } else if (itemLike) {
        const cue = ctx.cues.items[ctx.index] ?? ctx.cues.items[0] ?? ctx.cues.base;
        const plan =
          ctx.verdict?.item ?? planItem(cue, ctx.cues, ctx.rng.fork(`item:${ctx.index}`), options, ctx.used);
        const { verdict: _drop, ...rest } = ctx;
        inner = { ...rest, plan };
      }
      const out: Record<string, unknown> = {};
      for (const [field, gen] of fields)
        out[field] = gen({ ...inner, depth: inner.depth + 1, parent: key, statFields }, field);
      // `stats: {type: object, additionalProperties: integer}`: the plan's stats by name.
      const stats = record && fields.length === 0 ? planned(ctx, key) : undefined;
      if (Array.isArray(stats))
        for (const s of stats as Array<{ name: string; value: number }>)
          out[s.name] = fitNumber(s.value, record as JsonSchema, record?.type === 'integer');
      return out;
    };
  }

  private itemProps(node: JsonSchema): unknown {
    const branches = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
    const candidates = Array.isArray(branches) ? branches.map(asSchema) : [node];
    for (const c of candidates) {
      const target = typeof c.$ref === 'string' ? this.resolve(c.$ref) : c;
      if (target.properties) return target.properties;
    }
    return {};
  }

  private tuple(node: JsonSchema, prefix: JsonSchema[]): Gen {
    const gens = prefix.map((p) => this.compile(p));
    const rest =
      node.items && typeof node.items === 'object' ? this.compile(asSchema(node.items)) : undefined;
    const min = typeof node.minItems === 'number' ? node.minItems : gens.length;
    return (ctx, key) => {
      const out = gens.map((g, i) => g({ ...ctx, index: i, depth: ctx.depth + 1 }, key));
      for (let i = out.length; rest && i < min; i++)
        out.push(rest({ ...ctx, index: i, depth: ctx.depth + 1 }, key));
      return out;
    };
  }

  private array(node: JsonSchema): Gen {
    if (Array.isArray(node.prefixItems)) return this.tuple(node, node.prefixItems.map(asSchema));
    const itemSchema = asSchema(node.items);
    const item = this.compile(itemSchema);
    const target = typeof itemSchema.$ref === 'string' ? this.resolve(itemSchema.$ref) : itemSchema;
    const itemLike = isItemLike(asSchema(target.properties));
    const min = typeof node.minItems === 'number' ? node.minItems : 0;
    const max = typeof node.maxItems === 'number' ? node.maxItems : Math.max(min, 3);
    return (ctx, key) => {
      let count: number;
      const fromPlan = planned(ctx, key);
      if (Array.isArray(fromPlan)) {
        const values = fromPlan.slice(0, max);
        if (values.length >= min) {
          return values.map((v, i) => {
            if (!v || typeof v !== 'object') return v;
            // A list of strings where the plan has {name, effect}: "Frostbite: Hits chill…".
            if (target.type === 'string') {
              const { name, effect, value } = v as { name: string; effect?: string; value?: number };
              return fitString(effect ? `${name}: ${effect}` : `${name} +${value}`, target);
            }
            return item({ ...ctx, plan: v as ItemPlan, index: i, depth: ctx.depth + 1 }, key);
          });
        }
        count = min;
      } else if (ctx.verdict && key === 'suggestions') {
        return ctx.verdict.suggestions.slice(0, max).map((s) => fitString(s, itemSchema));
      } else if (itemLike) count = ctx.cues.count ?? Math.max(1, ctx.cues.items.length);
      else if (ctx.depth > MAX_DEPTH) count = 0;
      else count = ctx.rng.int(Math.max(min, 1), Math.max(Math.min(max, min + 2), 1));
      count = Math.max(min, Math.min(max, count));
      const out: unknown[] = [];
      for (let i = 0; i < count; i++) out.push(item({ ...ctx, index: i, depth: ctx.depth + 1 }, key));
      return out;
    };
  }
}

const cache = new Map<string, Gen>();

/** Compiles a JSON Schema into an instance generator; compiled schemas are cached by their text. */
export function compileSchema(schema: JsonSchema, cacheKey = JSON.stringify(schema)): Gen {
  let gen = cache.get(cacheKey);
  if (!gen) {
    gen = new Compiler(schema).compile(schema);
    if (cache.size > 200) cache.clear();
    cache.set(cacheKey, gen);
  }
  return gen;
}

export function fillSchema(schema: JsonSchema, ctx: Omit<FillContext, 'depth' | 'index' | 'used'>): unknown {
  return compileSchema(schema)({ ...ctx, depth: 0, index: 0, used: new Set() }, '');
}
