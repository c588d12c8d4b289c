import { BoundedMap } from '@lootsmith/protocol';
import type { Rng } from '../random.ts';

/**
 * Fills any JSON Schema (the subset `z.toJSONSchema` writes, and developers' own) with a valid instance:
 * types, bounds, lengths, enums, formats, patterns, `$ref`, unions, tuples. What a field *means* is left
 * to the `FillRules` it is given; without an answer from them a value is random within the schema.
 */

export type JsonSchema = Record<string, unknown>;

/** Where a value is filled: the random stream, how deep, the position in the nearest array, the enclosing key. */
export interface Fill<S> {
  rng: Rng;
  depth: number;
  index: number;
  parent?: string;
  /** The rules' own state (what they are filling, and for whom). */
  state: S;
}

/** How the elements of an array are filled: given values, one state per element, or a count. */
export type Elements<S> = { values: unknown[] } | { states: S[] } | { count: number };

/** What a field means, by its name and place; undefined leaves the schema's own default. */
export interface FillRules<S> {
  /** Read once per object schema: the state its fields are filled with, and named numbers for a numeric map. */
  object(
    props: JsonSchema,
    resolve: (node: JsonSchema) => JsonSchema,
  ): {
    enter(fill: Fill<S>, key: string): S;
    entries?(fill: Fill<S>, key: string): Array<{ name: string; value: number }> | undefined;
  };
  /** Read once per array schema, with its element schema resolved; values come back fitted to it. */
  array(element: JsonSchema): (fill: Fill<S>, key: string) => Elements<S> | undefined;
  /** A string for the field, before formats are tried. */
  string(fill: Fill<S>, key: string): string | undefined;
  /** The text of a string field nothing else fills. */
  text(fill: Fill<S>, key: string): string;
  number(fill: Fill<S>, key: string, node: JsonSchema): number | undefined;
  /** The index of the enum's value for the field; undefined picks one at random. */
  choose(fill: Fill<S>, key: string, values: readonly unknown[]): number | undefined;
  boolean(fill: Fill<S>, key: string): boolean | undefined;
  /** Whether a nullable field is null this time. */
  isNull(fill: Fill<S>, key: string): boolean;
  /** Whether an optional field (one `required` leaves out) is written; it is when absent. */
  include?(fill: Fill<S>, key: string): boolean;
}

type Gen<S> = (fill: Fill<S>, key: string) => unknown;

/** The fill one level down: written out, since V8 copies a spread and then extends it slowly. */
function below<S>(fill: Fill<S>, index: number, state: S, parent = fill.parent): Fill<S> {
  return { rng: fill.rng, depth: fill.depth + 1, index, parent, state };
}

const MAX_DEPTH = 8;

export function asSchema(value: unknown): JsonSchema {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : {};
}

export function fitString(text: string, node: JsonSchema): string {
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

export function fitNumber(value: number, node: JsonSchema, integer: boolean): number {
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

function compilePattern(source: unknown): RegExp | undefined {
  if (typeof source !== 'string') return undefined;
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
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

/** A value of a string `format`, or undefined for a format without a generator. */
function formatted(format: unknown, rng: Rng): string | undefined {
  if (format === 'date-time') return new Date(Date.UTC(2024, 0, 1 + rng.int(0, 364))).toISOString();
  if (format === 'date') return new Date(Date.UTC(2024, 0, 1 + rng.int(0, 364))).toISOString().slice(0, 10);
  if (format === 'email') return `player${rng.int(1, 9999)}@example.com`;
  if (format === 'uri' || format === 'url') return `https://example.com/${rng.int(1, 9999)}`;
  if (format === 'uuid') {
    const hex = () => rng.int(0, 0xffff).toString(16).padStart(4, '0');
    return `${hex()}${hex()}-${hex()}-4${hex().slice(1)}-a${hex().slice(1)}-${hex()}${hex()}${hex()}`;
  }
  return undefined;
}

/** The number schema of an object's `additionalProperties`, when it is a map of numbers. */
function numberMap(node: JsonSchema): JsonSchema | undefined {
  const extra = asSchema(node.additionalProperties);
  return extra.type === 'integer' || extra.type === 'number' ? extra : undefined;
}

class Compiler<S> {
  private readonly memo = new Map<JsonSchema, Gen<S>>();

  constructor(
    private readonly root: JsonSchema,
    private readonly rules: FillRules<S>,
  ) {}

  /** A node, or the node its `$ref` points to. */
  readonly resolve = (node: JsonSchema): JsonSchema =>
    typeof node.$ref === 'string' ? this.pointer(node.$ref) : node;

  private pointer(ref: string): JsonSchema {
    if (ref === '#') return this.root;
    const path = ref
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node: unknown = this.root;
    for (const p of path) node = asSchema(node)[p];
    return asSchema(node);
  }

  compile(node: JsonSchema): Gen<S> {
    const known = this.memo.get(node);
    if (known) return known;
    let compiled: Gen<S> | undefined;
    const lazy: Gen<S> = (fill, key) => (compiled as Gen<S>)(fill, key);
    this.memo.set(node, lazy);
    compiled = this.build(node);
    return compiled;
  }

  private build(node: JsonSchema): Gen<S> {
    const rules = this.rules;
    if (typeof node.$ref === 'string') {
      const target = this.compile(this.pointer(node.$ref));
      return (fill, key) =>
        fill.depth > MAX_DEPTH ? null : target(below(fill, fill.index, fill.state), key);
    }
    if ('const' in node) return () => node.const;
    if (Array.isArray(node.enum)) {
      const values = node.enum;
      return (fill, key) => {
        const i = rules.choose(fill, key, values);
        return i === undefined ? fill.rng.pick(values) : values[i];
      };
    }
    const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
    if (Array.isArray(union)) return this.union(union.map(asSchema));
    if (Array.isArray(node.allOf)) {
      const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
      for (const part of node.allOf.map(asSchema)) {
        const p = this.resolve(part);
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
      case 'integer':
        return this.number(node, true);
      case 'number':
        return this.number(node, false);
      case 'boolean':
        return (fill, key) => rules.boolean(fill, key) ?? true;
      case 'null':
        return () => null;
      default:
        return this.string(node);
    }
  }

  private string(node: JsonSchema): Gen<S> {
    const pattern = compilePattern(node.pattern);
    return (fill, key) => {
      const text =
        this.rules.string(fill, key) ?? formatted(node.format, fill.rng) ?? this.rules.text(fill, key);
      return matchPattern(fitString(text, node), node, pattern);
    };
  }

  private number(node: JsonSchema, integer: boolean): Gen<S> {
    const lo = typeof node.minimum === 'number' ? node.minimum : 0;
    const hi = typeof node.maximum === 'number' ? node.maximum : lo + 100;
    return (fill, key) => {
      let value = this.rules.number(fill, key, node) ?? lo + (Math.min(hi, lo + 100) - lo) * fill.rng.next();
      // Non-integer numbers keep two decimals: a stat of 39.24, not 39.241659685854735.
      if (!integer && Math.abs(value) >= 1) value = Math.round(value * 100) / 100;
      return fitNumber(value, node, integer);
    };
  }

  private union(branches: JsonSchema[]): Gen<S> {
    const isNull = (b: JsonSchema) => b.type === 'null' || ('const' in b && b.const === null);
    const nullable = branches.some(isNull);
    const others = branches.filter((b) => !isNull(b)).map((b) => this.compile(b));
    return (fill, key) => {
      if (nullable && (others.length === 0 || fill.depth > MAX_DEPTH || this.rules.isNull(fill, key)))
        return null;
      return (others[0] as Gen<S>)(fill, key);
    };
  }

  private object(node: JsonSchema): Gen<S> {
    const props = asSchema(node.properties);
    const required = new Set(Array.isArray(node.required) ? node.required : Object.keys(props));
    const fields = Object.entries(props).map(
      ([key, child]) => [key, this.compile(asSchema(child)), required.has(key)] as const,
    );
    const rule = this.rules.object(props, this.resolve);
    const map = fields.length === 0 ? numberMap(node) : undefined;
    return (fill, key) => {
      const inner = below(fill, fill.index, rule.enter(fill, key), key);
      const out: Record<string, unknown> = {};
      for (const [field, gen, needed] of fields)
        if (needed || (this.rules.include?.(inner, field) ?? true)) out[field] = gen(inner, field);
      if (map)
        for (const e of rule.entries?.(fill, key) ?? [])
          out[e.name] = fitNumber(e.value, map, map.type === 'integer');
      return out;
    };
  }

  private tuple(node: JsonSchema, prefix: JsonSchema[]): Gen<S> {
    const gens = prefix.map((p) => this.compile(p));
    const rest =
      node.items && typeof node.items === 'object' ? this.compile(asSchema(node.items)) : undefined;
    const min = typeof node.minItems === 'number' ? node.minItems : gens.length;
    return (fill, key) => {
      const out = gens.map((g, i) => g(below(fill, i, fill.state), key));
      for (let i = out.length; rest && i < min; i++) out.push(rest(below(fill, i, fill.state), key));
      return out;
    };
  }

  private array(node: JsonSchema): Gen<S> {
    if (Array.isArray(node.prefixItems)) return this.tuple(node, node.prefixItems.map(asSchema));
    const elementSchema = asSchema(node.items);
    const element = this.compile(elementSchema);
    const rule = this.rules.array(this.resolve(elementSchema));
    const min = typeof node.minItems === 'number' ? node.minItems : 0;
    const max = typeof node.maxItems === 'number' ? node.maxItems : Math.max(min, 3);
    return (fill, key) => {
      const planned = rule(fill, key);
      let count: number;
      if (planned && 'values' in planned && planned.values.length >= min) return planned.values.slice(0, max);
      if (planned && 'states' in planned && planned.states.length >= min)
        return planned.states.slice(0, max).map((state, i) => element(below(fill, i, state), key));
      if (planned && 'count' in planned) count = planned.count;
      else if (planned) count = min;
      else if (fill.depth > MAX_DEPTH) count = 0;
      else count = fill.rng.int(Math.max(min, 1), Math.max(Math.min(max, min + 2), 1));
      count = Math.max(min, Math.min(max, count));
      const out: unknown[] = [];
      for (let i = 0; i < count; i++) out.push(element(below(fill, i, fill.state), key));
      return out;
    };
  }
}

/**
 * A filler of JSON Schemas under `rules`: `fill(schema, state, rng)` gives an instance. Compiled
 * schemas are kept by their text, a bounded number of them, and by the schema object itself while
 * it lives, so a caller passing the same object again skips even the text (a schema is not changed
 * once sent).
 */
export function schemaFiller<S>(rules: FillRules<S>) {
  const byText = new BoundedMap<string, Gen<S>>(200);
  const byObject = new WeakMap<JsonSchema, Gen<S>>();
  return (schema: JsonSchema, state: S, rng: Rng): unknown => {
    let gen = byObject.get(schema);
    if (!gen) {
      const text = JSON.stringify(schema);
      gen = byText.get(text) ?? new Compiler(schema, rules).compile(schema);
      byText.set(text, gen);
      byObject.set(schema, gen);
    }
    return gen({ rng, depth: 0, index: 0, state }, '');
  };
}
