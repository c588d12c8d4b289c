export { buildApp } from './app.ts';
export { signPlayerToken } from './auth.ts';
export { type Config, loadConfig } from './config.ts';
export { Lootsmith } from './lootsmith.ts';
export { type RunningServer, startServer } from './server.ts';
export { SqliteStore } from './store/sqlite.ts';
export type { Store } from './store/store.ts';
