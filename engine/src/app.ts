import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { AccountBook } from './accounts.ts';
import { authenticate } from './auth.ts';
import { EngineError, errorBody } from './errors.ts';
import { type EngineKeyConfig, resolveKeys } from './keys.ts';
import { chatRoutes } from './routes/chat.ts';
import { imageRoutes } from './routes/images.ts';
import { modelRoutes } from './routes/models.ts';
import { usageRoutes } from './routes/usage.ts';

export interface EngineOptions {
  keys: readonly EngineKeyConfig[];
  logger?: boolean;
  /** Largest accepted request body in bytes; larger is a 400. */
  bodyLimit?: number;
}

const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Maps Fastify's own errors (bad JSON, body too large, wrong content type) to the one error shape. */
function toEngineError(error: FastifyError, bodyLimit: number): EngineError {
  if (error instanceof EngineError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new EngineError(400, 'body_too_large', `body: larger than ${bodyLimit} bytes`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new EngineError(
        400,
        'invalid_content_type',
        'body: send JSON with Content-Type: application/json',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new EngineError(400, 'invalid_json', 'body: empty, expected a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new EngineError(400, 'invalid_json', `body: not valid JSON (${error.message})`);
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return new EngineError(400, 'invalid_json', `body: not valid JSON (${error.message})`);
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new EngineError(400, 'invalid_request', error.message);
  }
  return new EngineError(500, 'internal_error', 'internal error');
}

/** The embedded /v1 service as a Fastify app (not listening: use `listen` or `inject`). */
export async function buildEngineApp(options: EngineOptions): Promise<FastifyInstance> {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const book = new AccountBook(resolveKeys(options.keys));
  const app = Fastify({
    bodyLimit,
    logger: options.logger
      ? { level: 'info', redact: ['req.headers.authorization', 'req.headers["x-api-key"]'] }
      : false,
    // A URL that cannot be decoded is refused before routing; it still gets the one error body.
    frameworkErrors: (err, _request, reply) =>
      (reply as unknown as FastifyReply)
        .status(400)
        .send({ error: { code: 'bad_url', message: err.message } }),
  });
  // zod validates in the handlers (after the key check); the JSON Schemas are for OpenAPI only.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.decorateRequest('account', undefined);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const engineError = toEngineError(error, bodyLimit);
    if (engineError.statusCode >= 500 && engineError.statusCode !== 502)
      request.log.error({ err: error }, 'engine error');
    return reply.status(engineError.statusCode).send(errorBody(engineError.code, engineError.message));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(errorBody('not_found', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lootsmith engine: Game Content Generation Service',
        version: '1.0.0',
        description:
          'The embedded /v1 service: procedural image and chat generation, keys, credits and usage. See the README of @lootsmith/engine.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/health', { schema: { summary: 'Liveness (no key needed)', security: [] } }, async () => ({
    status: 'ok',
  }));
  await app.register(async (v1) => {
    v1.addHook('onRequest', authenticate(book));
    imageRoutes(v1);
    chatRoutes(v1);
    modelRoutes(v1);
    usageRoutes(v1);
  });
  return app;
}
