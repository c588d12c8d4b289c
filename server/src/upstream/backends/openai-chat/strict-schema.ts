type Schema = Record<string, unknown>;

/** Keywords OpenAI's strict mode accepts on every model; bounds stay with Lootsmith's own validation. */
const KEPT = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  '$defs',
  '$ref',
]);

const isObject = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The strict-mode form of a JSON Schema (OpenAI structured outputs): every object closed
 * (`additionalProperties: false`) with every property required, an optional property made nullable
 * instead, and keywords strict mode refuses (lengths, bounds, patterns, formats) left out. Null when
 * the schema cannot be strict: an object with open keys (a map) has no strict form.
 */
export function strictSchema(schema: Schema): Schema | null {
  try {
    return strict(schema);
  } catch {
    return null;
  }
}

function strict(schema: Schema): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) if (KEPT.has(k)) out[k] = v;
  if (isObject(out.$defs))
    out.$defs = Object.fromEntries(Object.entries(out.$defs).map(([k, v]) => [k, strict(v as Schema)]));
  if (isObject(out.items)) out.items = strict(out.items);
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map((v) => strict(v as Schema));
  const isObjectType = out.type === 'object' || isObject(out.properties);
  if (isObjectType) {
    if (!isObject(out.properties) || isObject(schema.additionalProperties))
      throw new Error('an object with open keys has no strict form');
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Schema).map(([k, v]) => {
        const s = strict(v as Schema);
        return [k, required.has(k) ? s : nullable(s)];
      }),
    );
    out.required = Object.keys(out.properties as Schema);
    out.additionalProperties = false;
  }
  return out;
}

function nullable(s: Schema): Schema {
  if (typeof s.type === 'string' && !s.enum && !s.const) return { ...s, type: [s.type, 'null'] };
  return { anyOf: [s, { type: 'null' }] };
}

/**
 * Undoes what `strictSchema` added to an answer: a property that was optional and came back null is
 * removed, so the answer meets the original schema again.
 */
export function dropAddedNulls(value: unknown, schema: Schema): unknown {
  if (Array.isArray(value))
    return isObject(schema.items) ? value.map((v) => dropAddedNulls(v, schema.items as Schema)) : value;
  if (!isObject(value)) return value;
  if (Array.isArray(schema.anyOf)) {
    const fits = (schema.anyOf as Schema[]).find(
      (s) => isObject(s.properties) && Object.keys(value).every((k) => k in (s.properties as Schema)),
    );
    return fits ? dropAddedNulls(value, fits) : value;
  }
  if (!isObject(schema.properties)) return value;
  const properties = schema.properties;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null && !required.has(k)) continue;
    out[k] = isObject(properties[k]) ? dropAddedNulls(v, properties[k] as Schema) : v;
  }
  return out;
}
