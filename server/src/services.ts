import { randomBytes } from 'node:crypto';
import type { GameDefinition } from '@lootsmith/protocol';
import type { Redis } from 'ioredis';
import { ActivityRecorder } from './admin/activity.ts';
import { RequestLog } from './admin/requests.ts';
import type { Config } from './config.ts';
import { TextFilter } from './content/filter.ts';
import { ContentGuard } from './content/guard.ts';
import type { Coordination } from './coordination/coordination.ts';
import { LocalCoordination } from './coordination/local.ts';
import { RedisCoordination } from './coordination/redis.ts';
import { DEFAULT_GAME_FILE, loadGameDefinition } from './game/definition.ts';
import { loadArtReferences } from './game/references.ts';
import { gameNames } from './game/rules.ts';
import { IconService } from './icons.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { SpendAlerts } from './money/alerts.ts';
import { SpendGate } from './money/caps.ts';
import { Pricing } from './money/pricing.ts';
import { LootPools } from './pools/pools.ts';
import { Secrets } from './secrets.ts';
import { Core } from './service/core.ts';
import { PostgresStore } from './store/postgres.ts';
import { SqliteStore } from './store/sqlite.ts';
import type { Store } from './store/store.ts';
import { backendSecrets, moderation } from './upstream/backends/registry.ts';
import { UpstreamClient, type WarnLog } from './upstream/client.ts';

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
  /** What the developer console counts: requests, backend calls, item provenance. */
  activity: ActivityRecorder;
  /** The console's request log (off when `requestLogMax` is 0). */
  requestLog: RequestLog;
  /** Where chat goes: the embedded engine's loopback URL when no service is configured. */
  upstreamUrl: string;
  /** Whether the embedded engine makes all content (chat and images). */
  embedded: boolean;
  /** Sends the backends' warnings (failures, refusals, a fallback serving) to the server's logger. */
  useLogger(logger: WarnLog): void;
  close(): Promise<void>;
}

/** Every secret of a configured server, the embedded engine's key among them when it runs. */
export const serverSecrets = (config: Config, engineKey?: string) =>
  new Secrets([
    ...backendSecrets(config.upstream, engineKey),
    config.serverKey,
    config.metricsToken,
    config.playerSecret,
    config.moderationKey,
    config.consolePassword,
    config.spendAlertSecret,
  ]);

/**
 * Opens the store, the coordination and the backends; starts the embedded engine on loopback when a
 * kind (chat or images) has no backend configured (spoken to over HTTP exactly like a hosted service).
 */
export async function startServices(config: Config, options: { store?: Store } = {}): Promise<Services> {
  const game = loadGameDefinition(config.gameFile);
  // The game's reference icons, read once: a bad one stops start-up as a bad game file does.
  const references = await loadArtReferences(config.gameFile ?? DEFAULT_GAME_FILE, game);
  const store = options.store ?? (await openStore(config));
  const coordination: Coordination = config.redisUrl
    ? new RedisCoordination(config.redisUrl, config.redisPrefix)
    : new LocalCoordination(store);
  const { chat, image } = config.upstream;
  let engine: { url: string; key: string; close(): Promise<void> } | undefined;
  if (chat.api === 'embedded' || image.api === 'embedded' || config.caps?.serve === 'embedded') {
    // Loaded only when used: a server whose backends are all configured never loads the engine.
    const { startEngine } = await import('@lootsmith/engine');
    engine = await startEngine({
      host: '127.0.0.1',
      port: 0,
      key: config.upstreamKey ?? `lsk_${randomBytes(24).toString('hex')}`,
    });
  }
  const metrics = createMetrics();
  const secrets = serverSecrets(config, engine?.key);
  // The logger exists once the app does: warnings before that have nowhere to go but are rare (start-up).
  let logger: WarnLog | undefined;
  const log: WarnLog = { warn: (fields, message) => logger?.warn(fields, message) };
  const warn = (message: string, err: unknown) =>
    log.warn({ err: err instanceof Error ? err.message : err }, message);
  const activity = new ActivityRecorder(store.admin, { log: warn });
  const requestLog = new RequestLog(
    store.requestLog,
    { max: config.requestLogMax, days: config.requestLogDays },
    { scrub: (text) => secrets.scrub(text), log: warn },
  );
  const alerts =
    config.caps &&
    new SpendAlerts(store, {
      url: config.spendAlertUrl,
      secret: config.spendAlertSecret,
      currency: config.prices.currency,
      log,
    });
  const spending =
    config.caps && new SpendGate(store, config.caps, { log: warn, spent: (spends) => alerts?.spent(spends) });
  const upstream = UpstreamClient.open(config.upstream, {
    embedded: engine,
    metrics,
    secrets,
    log,
    observe: (call) => {
      activity.upstreamCall(call);
      requestLog.call(call);
    },
    pricing: new Pricing(config.prices),
    spending,
  });
  const icons = new IconService(
    store,
    coordination,
    upstream,
    game,
    metrics,
    config.iconsAfterItem,
    references,
  );
  const moderator = moderation.open(config);
  const content = new ContentGuard({
    store,
    filter: new TextFilter(game.content_filter),
    rules: game.content_filter,
    ownNames: gameNames(game),
    moderation: moderator,
  });
  const loot = { game, upstream, icons, metrics, textModel: config.textModel, activity, content };
  // A pool refill waits behind players and icons at every backend: its own view of the client and icons.
  const refillIcons =
    config.pools &&
    new IconService(
      store,
      coordination,
      upstream.at('refill'),
      game,
      metrics,
      config.iconsAfterItem,
      references,
    );
  const pools =
    config.pools &&
    refillIcons &&
    new LootPools({
      loot: {
        ...loot,
        upstream: upstream.at('refill'),
        icons: refillIcons,
        materials: new Map(),
      },
      store,
      settings: config.pools,
      imageConcurrency: config.upstream.image.concurrency,
      registry: metrics.registry,
      log: warn,
    });
  const core = new Core({
    ...loot,
    store,
    coordination,
    serverKey: config.serverKey,
    pools: pools || undefined,
    // Production never leaves a player's spend unbounded: the game's defaults stand in for none set.
    budgets: config.production ? game.default_budgets : undefined,
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
    requestLog,
    upstreamUrl: chat.api === 'embedded' ? (engine?.url as string) : (chat.url as string),
    embedded: chat.api === 'embedded' && image.api === 'embedded',
    useLogger(to) {
      logger = to;
    },
    async close() {
      // Background work first (refills, icons painted after their item): it still needs the upstream.
      await pools?.close();
      await refillIcons?.close();
      await icons.close();
      await upstream.close();
      await moderator?.close();
      await engine?.close();
      await coordination.close();
      await alerts?.close();
      await activity.close();
      await requestLog.close();
      await store.close();
    },
  };
}

/** PostgreSQL when `LOOTSMITH_DATABASE_URL` is set, else SQLite in the data directory. */
function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl) return PostgresStore.connect(config.databaseUrl);
  return Promise.resolve(new SqliteStore(config.dataDir));
}
