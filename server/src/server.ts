import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { LocalCoordination } from './coordination/local.ts';
import { RedisCoordination } from './coordination/redis.ts';
import { loadGameDefinition } from './game/definition.ts';
import { IconService } from './icons.ts';
import { Lootsmith } from './lootsmith.ts';
import { createMetrics } from './metrics.ts';
import { PostgresStore } from './store/postgres.ts';
import { SqliteStore } from './store/sqlite.ts';
import type { Store } from './store/store.ts';
import { UpstreamClient } from './upstream/client.ts';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  lootsmith: Lootsmith;
  /** Where the `/v1` service is: the embedded engine's loopback URL when none is configured. */
  upstreamUrl: string;
  close(): Promise<void>;
}

/**
 * Starts everything `npm start` serves: store, the embedded engine when no upstream is configured
 * (on loopback, spoken to over HTTP exactly like a hosted service), the upstream client and the app.
 */
export async function startServer(
  config: Config,
  options: { store?: Store; listen?: boolean; logStream?: NodeJS.WritableStream } = {},
): Promise<RunningServer> {
  const game = loadGameDefinition(config.gameFile);
  const store = options.store ?? (await openStore(config));
  const coordination = config.redisUrl
    ? new RedisCoordination(config.redisUrl, config.redisPrefix)
    : new LocalCoordination(store);
  let upstreamUrl = config.upstream.url;
  let upstreamKey = config.upstream.key;
  let engine: { url: string; key: string; close(): Promise<void> } | undefined;
  if (!upstreamUrl) {
    // Loaded only when used: a server with a hosted upstream never loads the engine.
    const { startEngine } = await import('./engine/index.ts');
    engine = await startEngine({
      host: '127.0.0.1',
      port: 0,
      key: upstreamKey ?? `lsk_${randomBytes(24).toString('hex')}`,
    });
    upstreamUrl = engine.url;
    upstreamKey = engine.key;
  }
  if (!upstreamUrl || !upstreamKey) throw new Error('no upstream');
  const metrics = createMetrics();
  const upstream = new UpstreamClient({
    primary: { url: upstreamUrl, key: upstreamKey as string },
    fallback: config.fallback,
    timeoutMs: config.upstream.timeoutMs,
    retries: config.upstream.retries,
    metrics,
  });
  const icons = new IconService(store, coordination, upstream, game, metrics);
  const lootsmith = new Lootsmith({
    game,
    store,
    coordination,
    upstream,
    icons,
    metrics,
    textModel: config.textModel,
  });
  await lootsmith.init();
  const redis = coordination instanceof RedisCoordination ? coordination.redis : undefined;
  const app = await buildApp({ config, lootsmith, metrics, redis, logStream: options.logStream });
  let url = '';
  if (options.listen !== false) {
    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  }
  return {
    app,
    url,
    lootsmith,
    upstreamUrl,
    async close() {
      // Fastify's close waits for in-flight requests before resolving.
      await app.close();
      await upstream.close();
      await engine?.close();
      await coordination.close();
      await store.close();
    },
  };
}

/** PostgreSQL when `LOOTSMITH_DATABASE_URL` is set, else SQLite in the data directory. */
function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl) return PostgresStore.connect(config.databaseUrl);
  return Promise.resolve(new SqliteStore(config.dataDir));
}
