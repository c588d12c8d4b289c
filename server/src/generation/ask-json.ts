import { randomInt } from 'node:crypto';
import { type ChatMessage, jsonSchemaOf, schemaInstruction } from '@lootsmith/protocol';
import { jsonrepair } from 'jsonrepair';
import type { ZodType } from 'zod';
import type { Metrics } from '../metrics.ts';
import { Failed } from '../refusal.ts';
import { backendLabel, type UpstreamClient } from '../upstream/client.ts';
import { addCost, type GenerationTrace } from './provenance.ts';

export interface AskJsonOptions<T> {
  upstream: UpstreamClient;
  clientId: string;
  system: string;
  user: string;
  schema: ZodType<T>;
  schemaName: string;
  /** For a backend that ignores `response_format`: the schema then travels in the system text instead. */
  schemaInText?: boolean;
  /** Game rules beyond the schema; each returned string is a problem the model must fix. */
  check?: (value: T) => string[];
  /** Checks that need a call of their own (the content filter, a moderation endpoint), after `check` passed. */
  review?: (value: T) => Promise<string[]>;
  model?: string;
  maxTokens?: number;
  /** Varies the answer between identical prompts (a model is deterministic per seed); random when absent. */
  seed?: number;
  metrics?: Metrics;
  kind: string;
  signal?: AbortSignal;
  /** Filled in with what was asked, refused and answered (the item's provenance). */
  trace?: GenerationTrace;
}

const MAX_REASKS = 2;
/** Longest answer repeated back to the model with a re-ask; a longer one is described, not repeated. */
const ECHO_LIMIT = 32_000;

/** Text a model wrote, as items may hold it: NFC, no control, format (bidi) or private-use characters. */
export function cleanText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cs}\s]+/gu, ' ')
    .trim();
}

function cleanStrings(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanStrings);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanStrings(v)]));
  return value;
}

/**
 * Asks the model for JSON matching `schema`: json_schema response format (or the schema in the system
 * text, see `schemaInText`), JSON repair, zod validation, game rules; on failure re-asks with the exact errors.
 */
export async function askJson<T>(o: AskJsonOptions<T>): Promise<T> {
  const schema = jsonSchemaOf(o.schema);
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: `${o.system}\n${o.schemaInText ? schemaInstruction(schema) : 'Answer with one JSON object only, no prose.'}`,
    },
    { role: 'user', content: o.user },
  ];
  const seed = o.seed ?? randomInt(2 ** 32 - 1);
  if (o.trace) Object.assign(o.trace, { system: o.system, user: o.user });
  let problems: string[] = [];
  for (let ask = 0; ask <= MAX_REASKS; ask++) {
    if (ask > 0) o.metrics?.reasks.inc();
    const answer = await o.upstream.chat(
      {
        client_id: o.clientId,
        ...(o.model ? { model: o.model } : {}),
        messages,
        temperature: 0.8,
        max_tokens: o.maxTokens ?? 4096,
        seed: (seed + ask) >>> 0,
        response_format: { type: 'json_schema', json_schema: { name: o.schemaName, schema, strict: true } },
      },
      o.signal,
      { meter: (cost) => o.trace && addCost(o.trace, cost) },
    );
    const choice = answer.choices[0];
    const content = choice?.message.content ?? '';
    const result = parseAnswer(content, choice?.finish_reason ?? null, o);
    const reviewed = 'value' in result ? ((await o.review?.(result.value)) ?? []) : result.problems;
    if ('value' in result && !reviewed.length) {
      if (o.trace) {
        const [primary] = o.upstream.targets.chat;
        const backend = answer.served_by ?? (primary && backendLabel(primary));
        Object.assign(o.trace, { seed: (seed + ask) >>> 0, model: answer.model, backend });
      }
      return result.value;
    }
    problems = reviewed;
    o.trace?.rejected.push(problems);
    messages.push(
      {
        role: 'assistant',
        content: content.length <= ECHO_LIMIT ? content : `(an answer of ${content.length} characters)`,
      },
      {
        role: 'user',
        content: `That answer was rejected:\n- ${problems.join('\n- ')}\nAnswer again with corrected JSON only.`,
      },
    );
  }
  o.metrics?.generations.inc({ kind: o.kind, outcome: 'failed' });
  throw new Failed(
    'generation_failed',
    'The model did not produce a valid answer; nothing was changed, try again',
    problems.slice(0, 10),
  );
}

/** Problems with one answer; none means it is usable. Truncations and refusals are failures, not repairs. */
function parseAnswer<T>(
  content: string,
  finish: string | null,
  o: AskJsonOptions<T>,
): { value: T } | { problems: string[] } {
  const fail = (...problems: string[]) => ({ problems });
  if (finish === 'length') return fail('the answer was cut off by max_tokens: write shorter text');
  if (finish === 'content_filter') return fail('the answer was withheld by a content filter');
  if (!/[{[]/.test(content)) return fail('the answer contained no JSON (a refusal is not an answer)');
  if (content.length > ECHO_LIMIT)
    return fail(`the answer was ${content.length} characters long; every field must be short`);
  let json: unknown;
  try {
    json = cleanStrings(JSON.parse(jsonrepair(content)));
  } catch {
    return fail('the answer is not JSON');
  }
  const parsed = o.schema.safeParse(json);
  if (!parsed.success)
    return fail(...parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  const problems = o.check?.(parsed.data) ?? [];
  return problems.length ? { problems } : { value: parsed.data };
}
