import {
  BoundedMap,
  type ChatMessage,
  CombineVerdict,
  GeneratedItemBatch,
  jsonSchemaOf,
  type ResponseFormat,
} from '@lootsmith/protocol';
import { hashString, Rng } from '../random.ts';
import { jsonObjectsIn } from './context.ts';
import { type Cues, readCues } from './cues.ts';
import { fillItemSchema } from './item-fields.ts';
import { writeProse } from './prose.ts';
import { countTokens, truncateToTokens } from './tokens.ts';

export interface WriteRequest {
  messages: readonly ChatMessage[];
  max_tokens?: number | undefined;
  temperature?: number | undefined;
  response_format?: ResponseFormat | undefined;
  seed?: number | undefined;
  stop?: string | string[] | undefined;
}

export interface Completion {
  content: string;
  finish_reason: 'stop' | 'length';
  prompt_tokens: number;
  completion_tokens: number;
}

const ITEM_BATCH_SCHEMA = jsonSchemaOf(GeneratedItemBatch);
const VERDICT_SCHEMA = jsonSchemaOf(CombineVerdict);
const systemSchemas = new BoundedMap<string, Record<string, unknown> | null>(100);

/** A JSON Schema a developer wrote into the system message for json_object mode, if there is one. */
function schemaInSystem(system: string): Record<string, unknown> | null {
  let found = systemSchemas.get(system);
  if (found === undefined) {
    found = jsonObjectsIn(system).find((o) => 'properties' in o || 'type' in o || '$ref' in o) ?? null;
    systemSchemas.set(system, found);
  }
  return found;
}

function seedOf(messages: readonly ChatMessage[]): number {
  let h = 0x811c9dc5;
  for (const m of messages) h = hashString(m.content, hashString(m.role, h));
  return h;
}

function nameWords(cues: Cues): string[] {
  const text = [cues.location, cues.enemy, cues.theme].filter(Boolean).join(' ');
  return (text.match(/[A-Za-z]{4,}/g) ?? []).map((w) => w[0]?.toUpperCase() + w.slice(1).toLowerCase());
}

function json(schema: Record<string, unknown>, cues: Cues, rng: Rng): string {
  return JSON.stringify(fillItemSchema(schema, cues, rng, nameWords(cues)));
}

/** OpenAI's `stop`: the content ends before the first stop sequence. */
function cutAtStop(content: string, stop: string | string[] | undefined): string {
  let end = content.length;
  for (const s of typeof stop === 'string' ? [stop] : (stop ?? [])) {
    const at = s ? content.indexOf(s) : -1;
    if (at >= 0 && at < end) end = at;
  }
  return content.slice(0, end);
}

/** The procedural writer: themed JSON for a schema, or short in-character prose. Pure and seeded. */
export function writeCompletion(request: WriteRequest): Completion {
  const rng = new Rng(request.seed ?? seedOf(request.messages));
  const cues = readCues(request.messages);
  if (request.temperature !== undefined) cues.temperature = request.temperature;
  const format = request.response_format;
  let content: string;
  if (format?.type === 'json_schema') content = json(format.json_schema.schema, cues, rng);
  else if (format?.type === 'json_object') {
    const schema =
      schemaInSystem(cues.system) ??
      (cues.combine ? VERDICT_SCHEMA : cues.items.length || cues.count ? ITEM_BATCH_SCHEMA : null);
    content = schema ? json(schema, cues, rng) : JSON.stringify({ reply: writeProse(cues, rng) });
  } else content = writeProse(cues, rng);
  const prompt_tokens = request.messages.reduce((sum, m) => sum + countTokens(m.content) + 4, 0);
  content = cutAtStop(content, request.stop);
  const limited = request.max_tokens
    ? truncateToTokens(content, request.max_tokens)
    : { text: content, truncated: false };
  return {
    content: limited.text,
    finish_reason: limited.truncated ? 'length' : 'stop',
    prompt_tokens,
    completion_tokens: countTokens(limited.text),
  };
}
