import type { FastifyInstance, FastifyRequest } from 'fastify';
import { answerOf } from '../http/errors.ts';
import { type ActivityRecorder, readAnsweredWell } from './activity.ts';
import { newRequestId, type RequestEntry, type RequestLog } from './requests.ts';

/** Routes the console does not count as the game's traffic: its own, the docs, health and metrics. */
const NOT_COUNTED = /\/(console|docs|health|metrics)(\/|$)|\/api\/v1\/admin\//;

/** The player a request was for: the token's, or the one the server credential named. */
export function playerOf(request: FastifyRequest): string | undefined {
  const principal = request.verifiedPrincipal;
  if (!principal) return undefined;
  if (principal.kind === 'player') return principal.playerId;
  const params = request.params as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | null | undefined;
  const id = params?.player_id ?? body?.client_id ?? body?.player_id;
  return typeof id === 'string' && id.length <= 64 ? id : undefined;
}

/** Requests the log leaves out though the figures count them: icon files (many, and they carry nothing). */
const NOT_LOGGED = /^\/api\/v1\/icons\//;

/** Whether the request log keeps requests of this route: the game's, but not its icon files. */
export const isLogged = (url: string | undefined): url is string =>
  !!url && !NOT_COUNTED.test(url) && !NOT_LOGGED.test(url);

/** The ids of the items an answer carries (a drop's items and materials, a craft's result), or its error. */
function resultOf(status: number, payload: unknown): RequestEntry['result'] {
  if (typeof payload !== 'object' || payload === null) return null;
  const body = payload as Record<string, unknown>;
  if (status >= 400) {
    const error = body.error as { code?: unknown; message?: unknown } | undefined;
    return error && typeof error.code === 'string'
      ? { error: { code: error.code, message: String(error.message ?? '') } }
      : null;
  }
  const items: string[] = [];
  const take = (v: unknown) => {
    const id = (v as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && items.length < 100) items.push(id);
  };
  for (const key of ['items', 'materials'])
    if (Array.isArray(body[key])) for (const v of body[key] as unknown[]) take(v);
  for (const key of ['item', 'result_item']) take(body[key]);
  return items.length ? { items } : null;
}

/**
 * Counts every answered request of the game's routes for the console, after the answer has gone:
 * its route, status, error code, latency and player (`ActivityRecorder` adds them up in memory);
 * and, with the request log on, hands the request to it (`RequestLog`): its id, body and answer —
 * every request but a read answered well.
 */
export function registerActivityRecording(
  app: FastifyInstance,
  activity: ActivityRecorder,
  requestLog?: RequestLog,
) {
  const codes = new WeakMap<FastifyRequest, string>();
  const results = new WeakMap<FastifyRequest, RequestEntry['result']>();
  const logging = requestLog?.enabled ?? false;
  app.addHook('onError', (request, _reply, error, done) => {
    codes.set(request, answerOf(error, 0)?.code ?? 'internal');
    done();
  });
  if (logging)
    app.addHook('preSerialization', (request, reply, payload, done) => {
      const url = request.routeOptions.url;
      if (url && request.method !== 'GET' && !NOT_COUNTED.test(url))
        results.set(request, resultOf(reply.statusCode, payload));
      done(null, payload);
    });
  app.addHook('onResponse', (request, reply, done) => {
    const url = request.routeOptions.url;
    if (!url || !NOT_COUNTED.test(url)) {
      const route = url ? `${request.method} ${url}` : 'unmatched';
      const code = codes.get(request) ?? request.verdict ?? undefined;
      const playerId = playerOf(request);
      const at = Date.now();
      // A request that reached its handler has its id already (its calls carry it); one refused before gets one now.
      // A read answered well is counted in the figures, not logged (it cost an inventory read a third more CPU).
      const logged = logging && !readAnsweredWell(route, reply.statusCode) && isLogged(url);
      const id = logged ? (request.logId ?? newRequestId()) : undefined;
      activity.request({
        route,
        status: reply.statusCode,
        code,
        ms: reply.elapsedTime,
        playerId,
        at,
        requestId: id,
      });
      if (id)
        requestLog?.request({
          id,
          at: at - reply.elapsedTime,
          method: request.method,
          route,
          status: reply.statusCode,
          code,
          ms: reply.elapsedTime,
          playerId,
          body: request.body,
          result: results.get(request) ?? null,
        });
    }
    done();
  });
}
