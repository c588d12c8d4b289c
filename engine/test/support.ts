import type { FastifyInstance } from 'fastify';
import { afterEach } from 'vitest';
import { buildEngineApp, type EngineKeyConfig } from '../src/index.ts';

export const KEY = 'test-key-0001';
export const auth = (key = KEY) => ({ authorization: `Bearer ${key}` });

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** An engine app with the given keys (default: one unlimited key), closed after each test. */
export async function engine(
  keys: EngineKeyConfig[] = [{ key: KEY }],
  bodyLimit?: number,
): Promise<FastifyInstance> {
  const app = await buildEngineApp({ keys, ...(bodyLimit ? { bodyLimit } : {}) });
  apps.push(app);
  return app;
}

export { type DecodedPng, decodePng, differingPixels, redShare } from './png.ts';
