import type { FastifyInstance, FastifyRequest } from 'fastify';
import { answerOf } from '../http/errors.ts';
import type { ActivityRecorder } from './activity.ts';

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

/**
 * Counts every answered request of the game's routes for the console, after the answer has gone:
 * its route, status, error code, latency and player (`ActivityRecorder` adds them up in memory).
 */
export function registerActivityRecording(app: FastifyInstance, activity: ActivityRecorder) {
  const codes = new WeakMap<FastifyRequest, string>();
  app.addHook('onError', (request, _reply, error, done) => {
    codes.set(request, answerOf(error, 0)?.code ?? 'internal');
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const url = request.routeOptions.url;
    if (!url || !NOT_COUNTED.test(url))
      activity.request({
        route: url ? `${request.method} ${url}` : 'unmatched',
        status: reply.statusCode,
        code: codes.get(request) ?? request.verdict ?? undefined,
        ms: reply.elapsedTime,
        playerId: playerOf(request),
        at: Date.now(),
      });
    done();
  });
}
