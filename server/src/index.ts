export { type AppOptions, buildLootsmithApp } from './app.ts';
export { signPlayerToken } from './auth.ts';
export { type Config, ConfigError, type LootsmithOptions, loadConfig, resolveConfig } from './config.ts';
export { type DropGrantClaims, signDropGrant } from './drop-grants.ts';
export { type LootsmithPluginOptions, lootsmith } from './plugin.ts';
export { type RunningServer, startServer } from './server.ts';
export { Core, type CoreDeps } from './service/core.ts';
export { SqliteStore } from './store/sqlite.ts';
export type { Store } from './store/store.ts';
