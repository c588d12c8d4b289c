import { existsSync } from 'node:fs';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { ZodType } from 'zod';
import { Authenticator, type Principal } from './auth.ts';
import type { Config } from './config.ts';
import { ApiError, invalidBody } from './http/errors.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import type { Lootsmith } from './lootsmith.ts';
import type { Metrics } from './metrics.ts';
import { registerDocs } from './routes/docs.ts';
import { registerItemRoutes } from './routes/items.ts';
import { registerPlayerRoutes } from './routes/players.ts';
import { registerProxyRoutes } from './routes/proxy.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling; throws 401 when the Authorization header is missing or bad. */
    principal(): Principal;
  }
}

export interface AppDeps {
  config: Config;
  lootsmith: Lootsmith;
  metrics: Metrics;
  /** Shared Redis of several instances: rate limits live there. */
  redis?: Redis;
  /** Where logs go (stdout by default); tests read them to prove secrets stay out. */
  logStream?: NodeJS.WritableStream;
}

/** Parses a body or query with a protocol schema; 400 naming the field otherwise. */
export function parse<T>(schema: ZodType<T>, value: unknown, where = 'body'): T {
  // No body at all reads as `{}` so the error names the missing fields; a JSON `null` body is wrong.
  const result = schema.safeParse(value === undefined ? {} : value);
  if (!result.success) throw invalidBody(result.error, where);
  return result.data;
}

/** An AbortSignal that fires when the client goes away before its answer, so upstream work stops with it. */
export function clientSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  // Not the request stream: it closes as soon as its body is read. The response closes when it is
  // sent or when the connection drops, and only a drop leaves it unfinished.
  if (reply.raw.socket?.destroyed) controller.abort();
  else
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
  return controller.signal;
}

const REDACT = ['req.headers.authorization', 'headers.authorization', 'authorization', '*.authorization'];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, metrics } = deps;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    bodyLimit: 64 * 1024,
    trustProxy: false,
    return503OnClosing: false,
    // A URL that cannot be decoded is refused before routing; it still gets the one error body.
    frameworkErrors: (err, _request, reply) =>
      (reply as unknown as FastifyReply)
        .status(400)
        .send({ error: { code: 'bad_url', message: err.message } }),
  });
  const auth = new Authenticator(config.playerSecret, config.serverKey);

  app.decorateRequest('principal', function (this: FastifyRequest) {
    return auth.principal(this.headers.authorization);
  });
  // zod validates; the JSON Schemas on routes are for the OpenAPI document only.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.setErrorHandler((err, request, reply) => {
    if (err instanceof ApiError) {
      return reply.status(err.status).send(err.body());
    }
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status < 500) {
      const code = (err as { code?: string }).code ?? 'bad_request';
      return reply
        .status(status)
        .send({ error: { code: code.toLowerCase(), message: (err as Error).message } });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'internal', message: 'Internal server error' } });
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send({ error: { code: 'not_found', message: `No route ${request.method} ${request.url}` } }),
  );

  // While shutting down, answers close their connection so keep-alive sockets do not hold close() open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ method: request.method, route, status: reply.statusCode });
    metrics.latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  await registerDocs(app);
  await registerRateLimit(
    app,
    deps.lootsmith.deps.store,
    deps.redis && { redis: deps.redis, prefix: config.redisPrefix },
  );
  registerIdempotency(app, deps.lootsmith.deps.coordination);
  registerPlayerRoutes(app, deps, auth);
  registerItemRoutes(app, deps);
  registerProxyRoutes(app, deps);

  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );

  if (config.staticDir && existsSync(config.staticDir)) {
    const { default: fastifyStatic } = await import('@fastify/static');
    await app.register(fastifyStatic, { root: config.staticDir, index: 'index.html' });
  }
  return app;
}
