import { errorBody } from '@lootsmith/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessLog } from './access-log.ts';
import { fromOperator } from './admin/auth.ts';
import { isLogged, playerOf, registerActivityRecording } from './admin/recording.ts';
import { newRequestId } from './admin/requests.ts';
import { registerAdmin } from './admin/routes.ts';
import { ConsoleSessions } from './admin/sessions.ts';
import { Authenticator, bearerToken, safeEqual } from './auth.ts';
import { registerCors } from './http/cors.ts';
import { ApiError, answerOf } from './http/errors.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { poolsAdvice } from './pools/advice.ts';
import { registerDocs } from './routes/docs.ts';
import { registerEquipmentRoutes } from './routes/equipment.ts';
import { registerItemRoutes } from './routes/items.ts';
import { registerPlayerRoutes } from './routes/players.ts';
import { registerProxyRoutes } from './routes/proxy.ts';
import type { Services } from './services.ts';
import { chargedTo } from './upstream/spend.ts';

const LEAK_REPLACEMENT = JSON.stringify(
  errorBody('upstream_unavailable', 'The content service gave an answer that cannot be passed on'),
);

/** Routes a caller reaches without a token: the game definition, icons, /docs, /health, /metrics, static files. */
const NEEDS_NO_TOKEN = (url: string) => !/^\/(v1\/|api\/v1\/(player|crafting|session))/.test(url);

/** Largest request body any route accepts. */
const BODY_LIMIT = 64 * 1024;

/**
 * Every Lootsmith route, hook and error handler on `app`: the root of the standalone server, or the
 * encapsulated (and possibly prefixed) context of the Fastify plugin inside a game's own server.
 */
export async function registerApi(
  app: FastifyInstance,
  services: Services,
  options: { accessLog?: AccessLog } = {},
) {
  const { config, metrics, core } = services;
  services.useLogger(app.log);
  for (const warning of config.warnings) app.log.warn(`Weakened production server: ${warning}`);
  const slowDrops = poolsAdvice(config);
  if (slowDrops) app.log.warn(`Slow drops: ${slowDrops}`);
  const auth = new Authenticator(config.playerSecret, config.serverKey, config.tokenMaxTtlSeconds);

  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= BODY_LIMIT;
  });
  // Authenticated once per request, however many hooks and handlers ask.
  app.decorateRequest('verifiedPrincipal', null);
  app.decorateRequest('verdict', null);
  app.decorateRequest('logId', null);
  app.decorateRequest('principal', function (this: FastifyRequest) {
    this.verifiedPrincipal ??= auth.principal(this.headers.authorization);
    return this.verifiedPrincipal;
  });
  // zod validates; the JSON Schemas on routes are for the OpenAPI document only.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // The one place a failure becomes an answer: refusals, ApiErrors and the framework's own refusals.
  app.setErrorHandler((err, request, reply) => {
    const answer = answerOf(err, BODY_LIMIT);
    if (!answer) {
      request.log.error({ err }, 'unhandled error');
      return reply.status(500).send(errorBody('internal', 'Internal server error'));
    }
    if (answer.extra.headers) reply.headers(answer.extra.headers);
    return reply.status(answer.status).send(answer.body());
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(errorBody('not_found', `No route ${request.method} ${request.url}`)),
  );

  // While shutting down, answers close their connection so keep-alive sockets do not hold close() open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback hooks on every answer: nothing here waits, so no promise is made.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    // The last look before an answer leaves: whatever path put a secret in it, it does not go out.
    if ((typeof payload === 'string' || Buffer.isBuffer(payload)) && services.secrets.leaks(payload)) {
      request.log.error(
        { route: request.routeOptions.url },
        'an answer carried a server secret; sent 502 instead',
      );
      reply.status(502).type('application/json').removeHeader('content-length');
      return done(null, LEAK_REPLACEMENT);
    }
    done(null, payload);
  });

  // After the answer has gone, so it costs the request nothing: its metrics and, for the standalone
  // server, one log line (Fastify's own message, which log searches already look for).
  const { accessLog } = options;
  app.addHook('onResponse', (request, reply, done) => {
    const time = reply.elapsedTime;
    metrics.observe(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, time);
    accessLog?.(request, reply, time);
    done();
  });

  // Every backend call a request leads to (an icon painted after its answer too) is charged to its
  // route and the player it acts for; the handler runs inside `done`, so the charge goes with it.
  // With the request log on, the request gets its id here, and its calls carry it.
  const logging = services.requestLog.enabled;
  app.addHook('preHandler', (request, _reply, done) => {
    const route = `${request.method} ${request.routeOptions.url}`;
    const logged = logging && isLogged(request.routeOptions.url);
    chargedTo(
      {
        route,
        get player() {
          return playerOf(request);
        },
        // Made when a call first asks for it: most requests (every read) make none.
        get request() {
          if (logged) request.logId ??= newRequestId();
          return request.logId ?? undefined;
        },
      },
      done,
    );
  });
  registerActivityRecording(app, services.activity, services.requestLog);
  registerSecurityHeaders(app);
  await registerCors(app, config);
  const sessions = new ConsoleSessions(
    core.deps.store.admin,
    (key, windowMs, now) => core.deps.store.hit(key, windowMs, now),
    config,
  );
  // Every route a caller without a token reaches is limited per network address (set before the
  // rate limiter reads the routes' limits, and before any such route is added). Not /health, which
  // a load balancer must always get an answer from; not console sign-in, which limits its own
  // failures; and not the operator, who may share an address (a proxy's) with everyone.
  app.addHook('onRoute', (route) => {
    if (route.config?.rateLimit || route.config?.consolePublic || !NEEDS_NO_TOKEN(route.routePath)) return;
    if (route.routePath === '/health') return;
    route.config = {
      ...route.config,
      rateLimit: {
        max: config.guestRequestsPerAddress,
        timeWindow: 60_000,
        keyGenerator: (request: FastifyRequest) => `address:${request.ip}`,
        allowList: (request: FastifyRequest) => fromOperator(request, sessions, config.serverKey),
      },
    };
  });
  await registerRateLimit(
    app,
    core.deps.store,
    services.redis && { redis: services.redis, prefix: config.redisPrefix },
  );
  await registerDocs(app);
  registerIdempotency(app, core.deps.coordination);
  registerPlayerRoutes(app, services, auth);
  registerItemRoutes(app, services);
  registerEquipmentRoutes(app, services);
  registerProxyRoutes(app, services);
  await registerAdmin(app, services, sessions);

  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  // Metrics name routes, players' traffic and upstream failures: only for whoever holds a token for them.
  const metricsReaders = [config.metricsToken, config.serverKey].filter((t): t is string => !!t);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const token = bearerToken(request.headers.authorization);
    if (metricsReaders.length && !(token && metricsReaders.some((t) => safeEqual(token, t))))
      throw new ApiError(401, 'unauthorized', 'Send `Authorization: Bearer <LOOTSMITH_METRICS_TOKEN>`');
    if (!metricsReaders.length && config.production)
      throw new ApiError(403, 'forbidden', 'Set LOOTSMITH_METRICS_TOKEN to read /metrics in production');
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  if (config.staticDir) {
    const { default: fastifyStatic } = await import('@fastify/static');
    // Dotfiles (.env, .git, .npmrc) are a project's secrets, never a game's files.
    await app.register(fastifyStatic, { root: config.staticDir, index: 'index.html', dotfiles: 'ignore' });
  }
}
