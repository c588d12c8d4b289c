import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

const LOOPBACK = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/** Whether a page on `origin` may call the API: listed origins, `*`, and loopback outside production. */
export function originAllowed(config: Pick<Config, 'corsOrigins' | 'corsLoopback'>, origin: string): boolean {
  return (
    config.corsOrigins.includes('*') ||
    config.corsOrigins.includes(origin) ||
    (config.corsLoopback && LOOPBACK.test(origin))
  );
}

/**
 * Cross-origin games (`LOOTSMITH_CORS_ORIGINS`): preflights are answered for allowed origins; any other
 * origin gets no `Access-Control-Allow-Origin`, so its page cannot read an answer. Tokens travel in the
 * Authorization header, never in cookies, so no credentials are allowed.
 */
export async function registerCors(app: FastifyInstance, config: Config) {
  if (!config.corsLoopback && config.corsOrigins.length === 0) return;
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && originAllowed(config, origin)),
    methods: ['GET', 'POST', 'PATCH'],
    allowedHeaders: ['authorization', 'content-type', 'idempotency-key'],
    exposedHeaders: [
      'retry-after',
      'idempotent-replayed',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
    ],
    maxAge: 600,
  });
}
