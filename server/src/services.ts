import { randomBytes } from 'node:crypto';
import type { GameDefinition } from '@lootsmith/protocol';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Coordination } from './coordination/coordination.ts';
import { LocalCoordination } from './coordination/local.ts';
import { RedisCoordination } from './coordination/redis.ts';
import { loadGameDefinition } from './game/definition.ts';
import { IconService } from './icons.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { LootPools } from './pools/pools.ts';
import { Secrets } from './secrets.ts';
import { ActivityRecorder } from './service/admin-activity.ts';
import { Core } from './service/core.ts';
import { PostgresStore } from './store/postgres.ts';
import { SqliteStore } from './store/sqlite.ts';
import type { Store } from './store/store.ts';
import { UpstreamClient } from './upstream/client.ts';

/** Everything behind the HTTP routes of one server instance. */
export interface Services {
  config: Config;
  game: GameDefinition;
  core: Core;
  metrics: Metrics;
  /** Keys and credentials that never leave in a response or a log line. */
  secrets: Secrets;
  /** Shared Redis of several instances: rate limits live there. */
  redis?: Redis;
  /** What the developer console counts: requests, upstream calls, item provenance. */
  activity: ActivityRecorder;
  /** Where the `/v1` service is: the embedded engine's loopback URL when none is configured. */
  upstreamUrl: string;
  /** Whether that is the embedded engine. */
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Opens the store, the coordination and the upstream client; starts the embedded engine on loopback
 * when no upstream is configured (spoken to over HTTP exactly like a hosted service).
 */
export async function startServices(config: Config, options: { store?: Store } = {}): Promise<Services> {
  const game = loadGameDefinition(config.gameFile);
  const store = options.store ?? (await openStore(config));
  const coordination: Coordination = config.redisUrl
    ? new RedisCoordination(config.redisUrl, config.redisPrefix)
    : new LocalCoordination(store);
  let upstreamUrl = config.upstream.url;
  let upstreamKey = config.upstream.key;
  let engine: { url: string; key: string; close(): Promise<void> } | undefined;
  if (!upstreamUrl) {
    // Loaded only when used: a server with a hosted upstream never loads the engine.
    const { startEngine } = await import('@lootsmith/engine');
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
  const secrets = new Secrets([
    upstreamKey,
    config.fallback?.key,
    config.serverKey,
    config.metricsToken,
    config.playerSecret,
    config.consolePassword,
  ]);
  const activity = new ActivityRecorder(store.admin, { embedded: engine !== undefined });
  const upstream = new UpstreamClient({
    primary: { url: upstreamUrl, key: upstreamKey },
    fallback: config.fallback,
    timeoutMs: config.upstream.timeoutMs,
    retries: config.upstream.retries,
    metrics,
    secrets,
    observe: (call) => activity.upstreamCall(call),
  });
  const icons = new IconService(store, coordination, upstream, game, metrics, config.iconsAfterItem);
  const loot = { game, upstream, icons, metrics, textModel: config.textModel, activity };
  const pools =
    config.pools &&
    new LootPools({
      loot: { ...loot, materials: new Map() },
      store,
      settings: config.pools,
      registry: metrics.registry,
    });
  const core = new Core({
    ...loot,
    store,
    coordination,
    serverKey: config.serverKey,
    pools: pools || undefined,
    iconsAfterItem: config.iconsAfterItem,
  });
  await core.init();
  return {
    config,
    game,
    core,
    metrics,
    secrets,
    redis: coordination instanceof RedisCoordination ? coordination.redis : undefined,
    activity,
    upstreamUrl,
    embedded: engine !== undefined,
    async close() {
      // Background work first (refills, icons painted after their item): it still needs the upstream.
      await pools?.close();
      await icons.close();
      await upstream.close();
      await engine?.close();
      await coordination.close();
      await activity.close();
      await store.close();
    },
  };
}

/** PostgreSQL when `LOOTSMITH_DATABASE_URL` is set, else SQLite in the data directory. */
function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl) return PostgresStore.connect(config.databaseUrl);
  return Promise.resolve(new SqliteStore(config.dataDir));
}
