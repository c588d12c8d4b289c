import { errorBody, REPLAYED } from '@lootsmith/protocol';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';
import type { Coordination, IdempotencyClaim } from '../coordination/coordination.ts';

const KEY = /^[\w.:-]{8,128}$/;
// Only successes are remembered: a refused or failed request changed nothing, so a retry may run it.
const remembered = (status: number) => status >= 200 && status < 300;

/**
 * `Idempotency-Key` on state-changing POSTs: the first answer is stored per caller, route, path
 * parameters and key for 24 hours (at most `IDEMPOTENCY_PER_OWNER` per caller); a replay gets it back
 * unchanged, and a replay that arrives while the first is running waits for it.
 */
export function registerIdempotency(app: FastifyInstance, coordination: Coordination) {
  const scopes = new WeakMap<object, IdempotencyClaim>();

  // A request without the header passes without a promise; one with it is looked up (and may be answered).
  const preHandler: preHandlerHookHandler = (request, reply, done) => {
    if (request.headers['idempotency-key'] === undefined) return done();
    replayOrHold(request, reply).then(() => done(), done);
  };

  async function replayOrHold(request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !KEY.test(key))
      return reply
        .status(400)
        .send(errorBody('invalid_request', 'Idempotency-Key: 8–128 letters, digits and _ . : -'));
    // Only an authenticated caller has a scope; other routes ignore the header (and refuse as they would).
    let who: ReturnType<typeof request.principal>;
    try {
      who = request.principal();
    } catch {
      return;
    }
    // Kind and id as separate fields: no player id, whatever it spells, shares the server's scope.
    // The route and its path parameters, never the raw URL: a query string adds nothing to a scope.
    const owner = JSON.stringify([who.kind, who.kind === 'player' ? who.playerId : '']);
    const scope = JSON.stringify([owner, request.routeOptions.url, request.params ?? {}, key]);
    const claim = await coordination.claimIdempotent(scope, owner);
    if (claim.stored) {
      await claim.finish();
      reply.header('idempotent-replayed', 'true');
      request.verdict = REPLAYED;
      return reply.status(claim.stored.status).type('application/json').send(claim.stored.body);
    }
    scopes.set(request, claim);
  }

  // Callback hooks: a request without the header passes them without a promise. A success is stored
  // and the scope let go in one step; anything else only lets go, when the answer has gone.
  const onSend: onSendHookHandler = (request, reply, payload, done) => {
    const claim = scopes.get(request);
    if (!claim || !remembered(reply.statusCode) || typeof payload !== 'string') return done(null, payload);
    scopes.delete(request);
    claim.finish({ status: reply.statusCode, body: payload }).then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  };

  const onResponse: onResponseHookHandler = (request, _reply, done) => {
    const claim = scopes.get(request);
    if (!claim) return done();
    scopes.delete(request);
    claim.finish().then(() => done(), done);
  };

  // On POST routes only: reads and preflights do not run these hooks at all.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    // A replay is answered before the route's own checks (a rate limit) run.
    routeHook(route, 'preHandler', preHandler, 'first');
    routeHook(route, 'onSend', onSend);
    routeHook(route, 'onResponse', onResponse);
  });
}

/** Adds `hook` to a route's own hooks of `name`, before or after those it has. */
function routeHook(
  route: RouteOptions,
  name: 'preHandler' | 'onSend' | 'onResponse',
  hook: unknown,
  at: 'first' | 'last' = 'last',
) {
  const own = route[name] as unknown;
  const list = own === undefined ? [] : Array.isArray(own) ? own : [own];
  route[name] = (at === 'first' ? [hook, ...list] : [...list, hook]) as never;
}
