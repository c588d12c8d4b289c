import { randomBytes } from 'node:crypto';
import { Cancel } from './cancel.ts';
import type { BackendSpec, Config } from './config.ts';
import { loadGameDefinition } from './game/definition.ts';
import { ApiError } from './http/errors.ts';
import { serverSecrets } from './services.ts';
import { OpenAIChat } from './upstream/backends/openai-chat.ts';
import { UpstreamClient } from './upstream/client.ts';
import { type Answer, Endpoint, saidIn } from './upstream/http.ts';

export type Verdict = 'ok' | 'warn' | 'FAIL';

export interface CheckResult {
  verdict: Verdict;
  what: string;
  fix?: string;
  ms: number;
}

/** What one check found; `fix` says what the operator should do. */
type Finding = { verdict: Verdict; what: string; fix?: string };

const LOOK_MS = 15_000;

/** A word-per-field answer a chat backend must give when it honours `json_schema`. */
const PROBE_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, damage: { type: 'integer' } },
  required: ['name', 'damage'],
  additionalProperties: false,
};

async function get(endpoint: Endpoint, path: string): Promise<Answer | Error> {
  const signal = new Cancel();
  const timer = setTimeout(() => signal.abort(), LOOK_MS);
  try {
    return await endpoint.request(
      { deadline: Date.now() + LOOK_MS, deadlineMs: LOOK_MS, signal },
      'GET',
      path,
      4 * 1024 * 1024,
    );
  } catch (err) {
    return err as Error;
  } finally {
    clearTimeout(timer);
  }
}

const keyFix = (variable: string) => `set ${variable} to a key the service accepts`;

/** Reachable and key accepted, from a GET the backend answers with a listing. */
function reached(answer: Answer | Error, url: string, path: string, keyVariable: string): Finding {
  if (answer instanceof Error)
    return {
      verdict: 'FAIL',
      what: `not reachable at ${url}: ${answer.message}`,
      fix: 'start it, or fix the URL',
    };
  if (answer.status === 401 || answer.status === 403)
    return { verdict: 'FAIL', what: `key refused (GET ${path}: ${answer.status})`, fix: keyFix(keyVariable) };
  if (answer.status >= 400)
    return {
      verdict: 'FAIL',
      what: `GET ${path} answered ${answer.status}: ${saidIn(answer.body) ?? ''}`.trim(),
    };
  return { verdict: 'ok', what: `reachable, key accepted (GET ${path})` };
}

function modelIn(names: string[], model: string, variable: string, install: string): Finding {
  if (names.includes(model)) return { verdict: 'ok', what: `model ${model} present` };
  const some = names.slice(0, 8).join(', ') + (names.length > 8 ? ', …' : '');
  return {
    verdict: 'FAIL',
    what: `model ${model} not found${names.length ? ` (there: ${some})` : ''}`,
    fix: `${variable}=one of those, or ${install}`,
  };
}

const jsonOf = (answer: Answer) => {
  try {
    return JSON.parse(answer.body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * `lootsmith doctor`: checks each configured backend as the server will use it, before a game
 * starts: reachable, key accepted, model present, structured output honoured, one icon painted and
 * decoded. Every check is timed; the answer is whether nothing is broken.
 */
export async function runDoctor(config: Config, say: (line: string) => void): Promise<boolean> {
  const engine = await embedded(config);
  const secrets = serverSecrets(config, engine?.key);
  // A backend's own words reach the terminal as every log line leaves the server: no secret, no escape.
  const print = (line: string) => say(secrets.clean(line));
  const results: CheckResult[] = [];
  // The backends' warnings (their own reasons for a failure), read by the check that failed.
  const reasons: string[] = [];
  const log = { warn: (fields: Record<string, unknown>) => void reasons.push(String(fields.reason ?? '')) };
  const check = async (run: () => Promise<Finding>) => {
    const started = Date.now();
    let finding: Finding;
    try {
      finding = await run();
    } catch (err) {
      // The backend's own reason (from the client's warning) says more than the 502 a player gets.
      const reason = reasons.splice(0).at(-1);
      const message = err instanceof ApiError ? err.message : String((err as Error).message);
      finding = { verdict: 'FAIL', what: reason ? `${message} (${reason})` : message };
    }
    const result = { ...finding, ms: Date.now() - started };
    results.push(result);
    print(
      `  ${result.verdict.padEnd(5)} ${result.what}${' '.repeat(Math.max(1, 64 - result.what.length))}${result.ms} ms`,
    );
    if (result.fix) print(`        fix: ${result.fix}`);
    return result;
  };
  const { chat, image } = config.upstream;
  // The primaries alone, one attempt each: a fallback must not hide a broken backend.
  const client = UpstreamClient.open({ chat, image, retries: 0 }, { embedded: engine, log, secrets });
  try {
    print(`chat — ${describe(chat)}`);
    if (chat.api !== 'openai' || (await checkOpenAIChat(chat, check)))
      await check(() => structuredOutput(client));
    print(`images — ${describe(image)}`);
    const game = loadGameDefinition(config.gameFile);
    if (await checkImageBackend(image, check))
      await check(async () => {
        const png = await client.icon({
          client_id: 'lootsmith-doctor',
          // Something the game has, in its own style: a sword would test a fantasy game only.
          prompt: `${game.materials[0]?.name}, ${game.icon_style}`,
          size: game.icon_size,
          seed: 1,
        });
        return { verdict: 'ok', what: `painted a test icon: ${game.icon_size}² PNG of ${png.length} bytes` };
      });
    if (config.upstream.fallback) {
      print(`fallback — the /v1 service at ${new URL(config.upstream.fallback.url).origin}`);
      const fallback = { api: 'v1' as const, ...config.upstream.fallback, concurrency: 1 };
      const only = UpstreamClient.open({ chat: fallback, image: fallback, retries: 0 }, { log, secrets });
      await check(() => structuredOutput(only)).finally(() => only.close());
    }
  } finally {
    await client.close();
    await engine?.close();
  }
  const failed = results.filter((r) => r.verdict === 'FAIL').length;
  const warned = results.filter((r) => r.verdict === 'warn').length;
  print('');
  print(
    failed
      ? `${failed} problem${failed > 1 ? 's' : ''} found${warned ? `, ${warned} warning${warned > 1 ? 's' : ''}` : ''}: fix ${failed > 1 ? 'them' : 'it'} before starting the game.`
      : `Everything works${warned ? ` (${warned} warning${warned > 1 ? 's' : ''})` : ''}.`,
  );
  return failed === 0;
}

/** The embedded engine, when a kind uses it (the doctor checks it like any backend). */
async function embedded(config: Config) {
  if (config.upstream.chat.api !== 'embedded' && config.upstream.image.api !== 'embedded') return undefined;
  const { startEngine } = await import('@lootsmith/engine');
  return startEngine({ host: '127.0.0.1', port: 0, key: `lsk_${randomBytes(24).toString('hex')}` });
}

function describe(spec: BackendSpec): string {
  const at = spec.url ? `, ${new URL(spec.url).origin}${new URL(spec.url).pathname.replace(/\/$/, '')}` : '';
  const model = spec.model ? `, model ${spec.model}` : '';
  const names = {
    embedded: 'the embedded engine (procedural, offline)',
    v1: 'the /v1 service',
    openai: 'OpenAI-compatible',
    sdapi: 'sdapi (AUTOMATIC1111, Forge, SD.Next, stable-diffusion.cpp)',
    comfyui: 'ComfyUI',
  };
  return `${names[spec.api]}${at}${model}`;
}

type Check = (run: () => Promise<Finding>) => Promise<CheckResult>;

/** A GET as a check (reachable, key accepted); the answer when it passed. */
async function look(
  check: Check,
  endpoint: Endpoint,
  url: string,
  path: string,
  keyVariable: string,
  hint?: string,
) {
  let answer: Answer | Error = new Error('not asked');
  const result = await check(async () => {
    answer = await get(endpoint, path);
    const found = reached(answer, url, path, keyVariable);
    return found.verdict === 'FAIL' && hint && !(answer instanceof Error) && answer.status === 404
      ? { ...found, fix: hint }
      : found;
  });
  return result.verdict === 'ok' && !(answer instanceof Error) ? answer : undefined;
}

/** Reachable, key accepted, model listed; whether the chat backend can be asked at all. */
async function checkOpenAIChat(spec: BackendSpec, check: Check): Promise<boolean> {
  const endpoint = new Endpoint(spec.url as string, spec.key ? `Bearer ${spec.key}` : undefined, 1);
  try {
    const listing = await look(check, endpoint, spec.url as string, '/models', 'LOOTSMITH_CHAT_KEY');
    if (!listing) return false;
    const ids = ((jsonOf(listing) as { data?: Array<{ id?: unknown }> })?.data ?? []).map((m) =>
      String(m.id),
    );
    const model = spec.model as string;
    return (
      (
        await check(async () =>
          modelIn(ids, model, 'LOOTSMITH_CHAT_MODEL', `pull it (Ollama: ollama pull ${model})`),
        )
      ).verdict !== 'FAIL'
    );
  } finally {
    await endpoint.close();
  }
}

/** One completion with a strict json_schema: whether the backend takes it and answers in its shape. */
async function structuredOutput(client: UpstreamClient): Promise<Finding> {
  const answer = await client.chat({
    client_id: 'lootsmith-doctor',
    messages: [
      {
        role: 'system',
        content: 'Answer with one JSON object only: {"name": a sword name, "damage": a whole number}.',
      },
      { role: 'user', content: 'A fantasy sword that deals 12 damage.' },
    ],
    max_tokens: 200,
    temperature: 0,
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'probe', schema: PROBE_SCHEMA, strict: true },
    },
  });
  const backend = client.targets.chat[0]?.backend;
  const level = backend instanceof OpenAIChat ? backend.learnt.structured : 'json_schema';
  let value: { name?: unknown; damage?: unknown } | undefined;
  try {
    value = JSON.parse(answer.choices[0]?.message.content ?? '');
  } catch {}
  const shaped =
    typeof value?.name === 'string' &&
    Number.isInteger(value?.damage) &&
    Object.keys(value ?? {}).length === 2;
  if (!shaped)
    return {
      verdict: 'FAIL',
      what: `ignores ${level === 'none' ? 'the schema in the prompt' : level}: answered ${JSON.stringify(answer.choices[0]?.message.content ?? '').slice(0, 60)}`,
      fix: 'use a model and server with structured outputs (OpenAI, Ollama ≥ 0.5, llama.cpp server, vLLM), or a larger model: every answer would be repaired and re-asked',
    };
  if (level !== 'json_schema')
    return {
      verdict: 'warn',
      what: `refuses json_schema; ${level === 'none' ? 'plain text' : level} works (answers are checked and re-asked when wrong)`,
    };
  return { verdict: 'ok', what: 'structured output (json_schema) honoured' };
}

/** Reachable, key accepted, model present; whether a test icon is worth asking for. */
async function checkImageBackend(spec: BackendSpec, check: Check): Promise<boolean> {
  if (spec.api === 'embedded' || spec.api === 'v1') return true;
  const basic = spec.api === 'sdapi';
  const authorization = spec.key
    ? basic
      ? `Basic ${Buffer.from(spec.key).toString('base64')}`
      : `Bearer ${spec.key}`
    : undefined;
  const endpoint = new Endpoint(spec.url as string, authorization, 1);
  const url = spec.url as string;
  const present = async (names: string[], install: string) =>
    (await check(async () => modelIn(names, spec.model as string, 'LOOTSMITH_IMAGE_MODEL', install)))
      .verdict !== 'FAIL';
  try {
    if (spec.api === 'openai') {
      const listing = await look(check, endpoint, url, '/models', 'LOOTSMITH_IMAGE_KEY');
      if (!listing) return false;
      const ids = ((jsonOf(listing) as { data?: Array<{ id?: unknown }> })?.data ?? []).map((m) =>
        String(m.id),
      );
      return present(ids, 'a GPT image model your account has');
    }
    if (spec.api === 'sdapi') {
      const listing = await look(
        check,
        endpoint,
        url,
        '/sdapi/v1/sd-models',
        'LOOTSMITH_IMAGE_KEY (user:password)',
        'start the web UI with --api (stable-diffusion.cpp: its sd-server)',
      );
      if (!listing) return false;
      if (!spec.model) return true;
      const models = (jsonOf(listing) as Array<{ title?: string; model_name?: string }>) ?? [];
      return present(
        models.flatMap((m) => [m.title, m.model_name].filter((n): n is string => !!n)),
        'put the checkpoint in models/Stable-diffusion',
      );
    }
    if (!(await look(check, endpoint, url, '/system_stats', 'LOOTSMITH_IMAGE_KEY'))) return false;
    if (!spec.workflow?.uses.has('model')) return true;
    const info = await get(endpoint, '/object_info/CheckpointLoaderSimple');
    const names =
      info instanceof Error
        ? []
        : ((
            jsonOf(info) as { CheckpointLoaderSimple?: { input?: { required?: { ckpt_name?: [string[]] } } } }
          )?.CheckpointLoaderSimple?.input?.required?.ckpt_name?.[0] ?? []);
    return present(names, 'put the checkpoint in ComfyUI/models/checkpoints');
  } finally {
    await endpoint.close();
  }
}
