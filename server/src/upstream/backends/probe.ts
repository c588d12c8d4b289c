import { Cancel } from '../../cancel.ts';
import { type Answer, Endpoint, saidIn } from '../http.ts';
import {
  type Auth,
  authorization,
  type BackendSpec,
  type Check,
  type Finding,
  type ProbeKit,
} from './description.ts';

const LOOK_MS = 15_000;

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

/** An answer's JSON, or undefined when it is not JSON. */
export const parsedBody = (answer: Answer) => {
  try {
    return JSON.parse(answer.body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
};

/** The model ids of an OpenAI-style `GET /models` answer. */
export const listedModels = (answer: Answer) =>
  ((parsedBody(answer) as { data?: Array<{ id?: unknown }> })?.data ?? []).map((m) => String(m.id));

/**
 * The kit for one backend's probe: GETs at its address with its key as it sends it; `keyVariable`
 * and `modelVariable` are what the fixes name. `close` ends its connections.
 */
export function probeKit(
  spec: BackendSpec,
  auth: Auth,
  check: Check,
  variables: { key: string; model: string },
): ProbeKit & { close(): Promise<void> } {
  const url = spec.url as string;
  const endpoint = new Endpoint(url, authorization(spec.key, auth), 1);
  return {
    spec,
    get: (path) => get(endpoint, path),
    async look(path, { keyVariable = variables.key, hint } = {}) {
      let answer: Answer | Error = new Error('not asked');
      const result = await check(async () => {
        answer = await get(endpoint, path);
        const found = reached(answer, url, path, keyVariable);
        return found.verdict === 'FAIL' && hint && !(answer instanceof Error) && answer.status === 404
          ? { ...found, fix: hint }
          : found;
      });
      return result.verdict === 'ok' && !(answer instanceof Error) ? answer : undefined;
    },
    async present(names, install, other) {
      const found = await check(async () =>
        modelIn(names, other?.model ?? (spec.model as string), other?.variable ?? variables.model, install),
      );
      return found.verdict !== 'FAIL';
    },
    close: () => endpoint.close(),
  };
}
