import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

const HELP = `lootsmith — the Lootsmith server: players, inventories, loot, crafting and icons

Usage: lootsmith [--help]

Configuration is by environment variable (a bad value stops start-up and names it):
  LOOTSMITH_PORT              port to listen on (default 8787)
  LOOTSMITH_HOST              address to bind (default 127.0.0.1)
  LOOTSMITH_DATA_DIR          SQLite data directory (default ./.lootsmith)
  LOOTSMITH_DATABASE_URL      postgres://… to keep everything in PostgreSQL instead (several instances)
  LOOTSMITH_REDIS_URL         redis://… for rate limits, idempotency, single-flight shared by instances
  LOOTSMITH_REDIS_PREFIX      prefix of every Redis key (default lootsmith:)
  LOOTSMITH_UPSTREAM_URL      hosted /v1 service; unset = start the embedded engine on loopback
  LOOTSMITH_UPSTREAM_KEY      its API key (never sent to players or logged)
  LOOTSMITH_FALLBACK_URL/_KEY a second /v1 service tried when the first is down
  LOOTSMITH_UPSTREAM_TIMEOUT_MS, LOOTSMITH_UPSTREAM_RETRIES
  LOOTSMITH_PLAYER_SECRET     HS256 secret of player tokens (required when NODE_ENV=production)
  LOOTSMITH_SERVER_KEY        credential of your game server (grant items, block players, budgets)
  LOOTSMITH_DEV_LOGIN=1       guest logins at POST /api/v1/session (on unless NODE_ENV=production)
  LOOTSMITH_ALLOW_CHAT=1      forward raw /v1/chat/completions for players (off by default)
  LOOTSMITH_GAME_FILE         game definition JSON (default: the fantasy RPG in server/game/)
  LOOTSMITH_STATIC_DIR        directory served at / (npm start serves the demo game)
  LOOTSMITH_LOG_LEVEL         fatal|error|warn|info|debug|trace|silent (default info)
  LOOTSMITH_TEXT_MODEL        model name asked of the /v1 service (default: the key's default)
`;

async function main(argv: string[]) {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  if (argv.length) {
    process.stderr.write(
      `Unknown argument ${argv[0]}; lootsmith is configured by environment variables (see --help)\n`,
    );
    process.exit(2);
  }
  const env = { ...process.env };
  env.LOOTSMITH_STATIC_DIR ??= fileURLToPath(new URL('../../demo-game/dist', import.meta.url));
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  const server = await startServer(config);
  server.app.log.info(`Lootsmith serving the demo, the API and /docs at ${server.url}/`);
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      server.app.log.info(`${signal}: finishing in-flight requests`);
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`lootsmith: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
