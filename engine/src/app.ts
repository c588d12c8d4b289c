import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ApiError, errorBody, requestError } from '@lootsmith/protocol';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { AccountBook } from './accounts.ts';
import { authenticate } from './auth.ts';
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

/**
 * Any failure as the answer it gets: ApiErrors as they are, the framework's refusals of a body (bad
 * JSON, too large, another content type) as 400 like every other bad body, anything else 500.
 */
function answerOf(error: unknown, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  const refused = error instanceof Error ? requestError(error, bodyLimit) : undefined;
  if (refused) return new ApiError(400, refused.code, refused.message);
  return new ApiError(500, 'internal', 'Internal server error');
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
      (reply as unknown as FastifyReply).status(400).send(errorBody('bad_url', err.message)),
  });
  // zod validates in the handlers (after the key check); the JSON Schemas are for OpenAPI only.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.decorateRequest('account', undefined);

  app.setErrorHandler((error, request, reply) => {
    const answer = answerOf(error, bodyLimit);
    if (answer.status >= 500 && answer.status !== 502) request.log.error({ err: error }, 'engine error');
    return reply.status(answer.status).send(answer.body());
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
