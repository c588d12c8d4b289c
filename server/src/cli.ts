import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

const HELP = `lootsmith — the Lootsmith server: players, inventories, loot, crafting and icons

Usage: lootsmith [--help]

Serves the API (OpenAPI at /docs) and, without LOOTSMITH_UPSTREAM_URL, the embedded /v1 engine on
loopback, so it runs offline. Configuration is by environment variable (a bad value stops start-up
and names it):

  LOOTSMITH_PORT              port to listen on (default 8787)
  LOOTSMITH_HOST              address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
  LOOTSMITH_DATA_DIR          SQLite data directory (default ./.lootsmith)
  LOOTSMITH_DATABASE_URL      postgres://… to keep everything in PostgreSQL instead (several instances)
  LOOTSMITH_REDIS_URL         redis://… for rate limits, idempotency, single-flight shared by instances
  LOOTSMITH_REDIS_PREFIX      prefix of every Redis key (default lootsmith:)
  LOOTSMITH_UPSTREAM_URL      hosted /v1 service; unset = start the embedded engine on loopback
  LOOTSMITH_UPSTREAM_KEY      its API key (never sent to players or logged)
  LOOTSMITH_FALLBACK_URL      a second /v1 service tried when the first is down
  LOOTSMITH_FALLBACK_KEY      its API key
  LOOTSMITH_UPSTREAM_TIMEOUT_MS  one attempt at the /v1 service, to its last byte (default 30000);
                              all attempts of a call (retries, fallback) get twice this in total
  LOOTSMITH_UPSTREAM_RETRIES  retries of a failed call (default 2)
  LOOTSMITH_PLAYER_SECRET     HS256 secret of player tokens (required when NODE_ENV=production)
  LOOTSMITH_TOKEN_TTL_S       lifetime of guest tokens in seconds (default 86400)
  LOOTSMITH_SERVER_KEY        credential of your game server (grant items, block players, budgets)
  LOOTSMITH_METRICS_TOKEN     bearer token for GET /metrics (the server key works too); without
                              either, /metrics is open outside production and off in production
  LOOTSMITH_CONSOLE_PASSWORD  password of the developer console at /console (the server key works
                              too); with neither, the console is off in production and open to
                              loopback outside it
  LOOTSMITH_DEV_LOGIN=1       guest logins at POST /api/v1/session (on unless NODE_ENV=production)
  LOOTSMITH_ALLOW_CHAT=1      forward raw /v1/chat/completions for players (off by default)
  LOOTSMITH_CORS_ORIGINS      origins of games served elsewhere, comma-separated
                              (https://game.example.com,http://localhost:5173; * for any); outside
                              production, loopback origins on any port are allowed without it
  LOOTSMITH_GAME_FILE         game definition JSON (default: the fantasy RPG shipped in game/)
  LOOTSMITH_STATIC_DIR        a directory to serve at / (your built game); nothing is served by default
  LOOTSMITH_LOG_LEVEL         fatal|error|warn|info|debug|trace|silent (default info)
  LOOTSMITH_TEXT_MODEL        model name asked of the /v1 service (default: the key's default)
  LOOTSMITH_POOLS=1           loot pools: items generated ahead in the background, per enemy, level
                              band, item type and named location, so a drop is served at once; off
                              by default (with the embedded engine drops are instant anyway)
  LOOTSMITH_POOL_SIZE         items kept per bucket (default 12)
  LOOTSMITH_POOL_TOTAL        items kept over all buckets (default 400)
  LOOTSMITH_POOL_BUDGET_PER_HOUR  items the pools may generate per hour, all instances together
                              (default 600); the server's own spend, not a player's daily budget
  LOOTSMITH_POOL_CONCURRENCY  generation batches one instance runs at once (default 8)
  LOOTSMITH_ICONS_AFTER_ITEM=1  a drop answers before its icons are painted (icon.status "pending",
                              the icon URL answers 202 until ready); default on with pools, else off
  NODE_ENV=production         no guest logins, no default CORS origins, LOOTSMITH_PLAYER_SECRET required
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
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  const server = await startServer(config);
  const content = server.embedded
    ? 'content from the embedded engine (offline)'
    : `content from ${new URL(server.upstreamUrl).origin}`;
  const game = config.staticDir ? ` and ${config.staticDir} at /` : '';
  server.app.log.info(`Lootsmith serving the API, /docs, /console${game} at ${server.url}/; ${content}`);
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
