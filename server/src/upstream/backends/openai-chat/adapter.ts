import type { ChatCompletionRequest } from '@lootsmith/protocol';
import { type Attempt, type Endpoint, jsonOf, saidIn } from '../../http.ts';
import { CHAT_LIMIT, type ChatBackend } from '../types.ts';
import { dropAddedNulls, strictSchema } from './strict-schema.ts';

/** The strongest structured output a backend accepts, strongest first. */
export const STRUCTURED = ['json_schema', 'json_object', 'none'] as const;
export type Structured = (typeof STRUCTURED)[number];

/** What a backend refused once and is not asked again, reported as it is learnt. */
export interface Learnt {
  structured: Structured;
  tokens: 'max_tokens' | 'max_completion_tokens';
  temperature: boolean;
}

type Body = Record<string, unknown>;

/**
 * Any OpenAI-compatible chat API (OpenAI, Ollama, llama.cpp, vLLM, LM Studio, OpenRouter) at the
 * base URL an OpenAI SDK takes: `POST {base}/chat/completions`, an optional Bearer key, the player
 * as `user` (these APIs refuse unknown fields such as `client_id`). Structured output is asked as
 * strongly as the backend accepts: a strict `json_schema` derived from the schema, else `json_object`,
 * else plain text (Lootsmith repairs and re-asks). What the backend refuses is learnt from its 400,
 * once, and the call is sent again at once without it.
 */
export class OpenAIChat implements ChatBackend {
  readonly api = 'openai';
  readonly learnt: Learnt = { structured: 'json_schema', tokens: 'max_tokens', temperature: true };

  constructor(
    private readonly endpoint: Endpoint,
    private readonly model: string,
    private readonly onLearn?: (what: string) => void,
  ) {}

  async complete(body: ChatCompletionRequest, attempt: Attempt): Promise<unknown> {
    for (;;) {
      const { json, restore } = this.requestFor(body);
      const answer = await this.endpoint.request(attempt, 'POST', '/chat/completions', CHAT_LIMIT, json);
      if ((answer.status === 400 || answer.status === 422) && this.learn(answer.body, json)) continue;
      return restore(jsonOf(answer));
    }
  }

  async close() {
    await this.endpoint.close();
  }

  private requestFor(body: ChatCompletionRequest): { json: Body; restore: (json: unknown) => unknown } {
    const { client_id, response_format, max_tokens, temperature, model, user: _user, ...rest } = body;
    const json: Body = { ...rest, model: model ?? this.model, user: client_id };
    if (max_tokens !== undefined) json[this.learnt.tokens] = max_tokens;
    if (temperature !== undefined && this.learnt.temperature) json.temperature = temperature;
    let restore = (answer: unknown) => answer;
    const level = this.learnt.structured;
    if (response_format?.type === 'json_schema' && level === 'json_schema') {
      const { name, schema, strict, description } = response_format.json_schema;
      const strictForm = strict ? strictSchema(schema) : null;
      json.response_format = {
        type: 'json_schema',
        json_schema: {
          name: (name ?? 'answer').replace(/[^\w-]/g, '_').slice(0, 64),
          ...(description ? { description } : {}),
          schema: strictForm ?? schema,
          strict: !!strictForm,
        },
      };
      if (strictForm) restore = (answer) => withContent(answer, (v) => dropAddedNulls(v, schema));
    } else if (response_format && response_format.type !== 'text' && level !== 'none')
      json.response_format = { type: 'json_object' };
    else if (response_format?.type === 'text') json.response_format = response_format;
    return { json, restore };
  }

  /** Learns from a 400 what the backend does not take; false when the refusal is about something else. */
  private learn(errorBody: Buffer, sent: Body): boolean {
    const said = saidIn(errorBody) ?? '';
    let param: unknown;
    try {
      param = JSON.parse(errorBody.toString('utf8')).error?.param;
    } catch {}
    const about = (word: string) => param === word || said.includes(word);
    if (this.learnt.tokens === 'max_tokens' && 'max_tokens' in sent && about('max_tokens')) {
      this.learnt.tokens = 'max_completion_tokens';
      this.onLearn?.('refuses max_tokens: asking max_completion_tokens from now on');
      return true;
    }
    if (this.learnt.temperature && 'temperature' in sent && about('temperature')) {
      this.learnt.temperature = false;
      this.onLearn?.('refuses a temperature: leaving it to the model from now on');
      return true;
    }
    const format = sent.response_format as { type?: string } | undefined;
    if (
      format &&
      format.type !== 'text' &&
      (about('response_format') || /json_schema|json_object|structured output/i.test(said))
    ) {
      const next = STRUCTURED[STRUCTURED.indexOf(this.learnt.structured) + 1] ?? 'none';
      this.learnt.structured = format.type === 'json_object' ? 'none' : next;
      this.onLearn?.(
        `refuses response_format ${format.type}: ${this.learnt.structured === 'none' ? 'plain text, repaired and re-asked' : this.learnt.structured} from now on`,
      );
      return true;
    }
    return false;
  }
}

/** The answer with its first message's JSON content passed through `change` (left alone when it is not JSON). */
function withContent(answer: unknown, change: (value: unknown) => unknown): unknown {
  const message = (answer as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message;
  if (typeof message?.content !== 'string') return answer;
  try {
    message.content = JSON.stringify(change(JSON.parse(message.content)));
  } catch {}
  return answer;
}
