import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import { loadGameDefinition } from './game/definition.ts';
import { serverSecrets } from './services.ts';
import type { BackendSpec, Check, CheckResult, Finding, Kind } from './upstream/backends/description.ts';
import { probeKit } from './upstream/backends/probe.ts';
import { backendOf, kindVariable } from './upstream/backends/registry.ts';
import { UpstreamClient } from './upstream/client.ts';

/** A word-per-field answer a chat backend must give when it honours `json_schema`. */
const PROBE_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, damage: { type: 'integer' } },
  required: ['name', 'damage'],
  additionalProperties: false,
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
      const message = String((err as Error).message);
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
    print(`chat — ${describe('chat', chat)}`);
    if (await probe('chat', chat, check)) await check(() => structuredOutput(client));
    print(`images — ${describe('image', image)}`);
    const game = loadGameDefinition(config.gameFile);
    if (await probe('image', image, check))
      await check(async () => {
        const png = await client.icon({
          client_id: 'lootsmith-doctor',
          // Something the game has, in its own style: a sword would test a fantasy game only.
          prompt: `${game.materials[0]?.name}, ${game.icon_style}`,
          size: game.icon_size,
          seed: 1,
          art: game.art,
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

function describe(kind: Kind, spec: BackendSpec): string {
  const at = spec.url ? `, ${new URL(spec.url).origin}${new URL(spec.url).pathname.replace(/\/$/, '')}` : '';
  const model = spec.model ? `, model ${spec.model}` : '';
  return `${backendOf(kind, spec.api).title(spec)}${at}${model}`;
}

/** The backend's own checks (reachable, key accepted, model present); whether a real call is worth making. */
async function probe(kind: Kind, spec: BackendSpec, check: Check): Promise<boolean> {
  const backend = backendOf(kind, spec.api);
  if (!backend.probe) return true;
  const kit = probeKit(spec, backend.auth, check, {
    key: kindVariable(kind, 'KEY'),
    model: kindVariable(kind, 'MODEL'),
  });
  try {
    return await backend.probe(kit);
  } finally {
    await kit.close();
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
  const level = client.targets.chat[0]?.backend.learnt?.structured ?? 'json_schema';
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
