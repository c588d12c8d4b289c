import type { FastifyPluginAsync } from 'fastify';
import { registerApi } from './api.ts';
import { ConfigError, type LootsmithOptions, resolveConfig } from './config.ts';
import { startServices } from './services.ts';
import type { Store } from './store/store.ts';

export interface LootsmithPluginOptions
  extends Omit<LootsmithOptions, 'port' | 'host' | 'logLevel' | 'trustProxy'> {
  /** Your own store (tests, or a custom database); default SQLite in `dataDir`, or PostgreSQL. */
  store?: Store;
}

/**
 * Lootsmith inside your own Fastify server: `await app.register(lootsmith, { prefix: '/loot', … })`.
 * The routes, their error handler and hooks stay inside the registered context; the store, the
 * upstream client and the embedded engine (when no `upstreamUrl` is given) close with your app.
 * Logs go to your app's logger: redact its `req.headers.authorization` as you would for any API.
 */
export const lootsmith: FastifyPluginAsync<LootsmithPluginOptions> = async (app, options) => {
  // Fastify hands the plugin its own register options (prefix, logLevel, …) too: they are not ours.
  const {
    store,
    prefix: _prefix,
    logLevel: _logLevel,
    logSerializers: _serializers,
    ...rest
  } = options as LootsmithPluginOptions & { prefix?: string; logLevel?: string; logSerializers?: unknown };
  // Which proxies are believed is the game's app's own Fastify option (its request.ip is ours).
  if ('trustProxy' in rest)
    throw new ConfigError(
      'trustProxy: set Fastify’s trustProxy on your own app; Lootsmith uses its request.ip',
    );
  const services = await startServices(resolveConfig(rest), { store });
  app.addHook('onClose', () => services.close());
  await registerApi(app, services);
};
