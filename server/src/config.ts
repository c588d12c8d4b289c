import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

const flag = z.union([
  z.boolean(),
  z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true'),
]);
const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));
const secret = z.string().min(16, 'must be at least 16 characters');
const whole = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

/** `scheme://host[:port]` as a browser sends it in `Origin`, or `*` for any origin. */
const Origin = z.string().refine(
  (text) => {
    if (text === '*') return true;
    try {
      return new URL(text).origin === text;
    } catch {
      return false;
    }
  },
  { error: (issue) => `${JSON.stringify(issue.input)} is not an origin like https://game.example.com` },
);
const origins = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim().replace(/\/+$/, ''))
          .filter(Boolean)
      : value,
  z.array(Origin),
);

/** Every setting, by the name code passes to `lootsmith` or `buildLootsmithApp`; defaults included. */
const OptionsSchema = z.strictObject({
  port: whole(0, 65535).default(8787),
  host: z.string().min(1).default('127.0.0.1'),
  dataDir: z.string().min(1).default('./.lootsmith'),
  databaseUrl: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
  redisUrl: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).optional(),
  redisPrefix: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'letters, digits and _ . : - only')
    .default('lootsmith:'),
  upstreamUrl: url.optional(),
  upstreamKey: z.string().min(8, 'must be at least 8 characters').optional(),
  fallbackUrl: url.optional(),
  fallbackKey: z.string().min(8, 'must be at least 8 characters').optional(),
  upstreamTimeoutMs: whole(100, 600_000).default(30_000),
  upstreamRetries: whole(0, 5).default(2),
  playerSecret: secret.optional(),
  serverKey: secret.optional(),
  metricsToken: secret.optional(),
  /** The developer console's own password (the server credential signs in too). */
  consolePassword: secret.optional(),
  devLogin: flag.optional(),
  allowChat: flag.default(false),
  tokenTtlSeconds: whole(60, 30 * 86_400).default(86_400),
  corsOrigins: origins.default([]),
  gameFile: z.string().min(1).optional(),
  staticDir: z.string().min(1).optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  textModel: z.string().min(1).optional(),
  /** Loot pools: items generated ahead of drops, in the background (see docs/DEPLOY.md). */
  pools: flag.default(false),
  poolSize: whole(1, 1000).optional(),
  poolTotal: whole(1, 1_000_000).optional(),
  poolBudgetPerHour: whole(1, 1_000_000).optional(),
  poolConcurrency: whole(1, 64).optional(),
  /** A drop answers before its icons are painted (`icon.status: "pending"`); on with pools by default. */
  iconsAfterItem: flag.optional(),
  /** Production hardening: no guest logins, no default CORS origins, a player secret required. */
  production: flag.default(false),
});

/** What `lootsmith` (the Fastify plugin) and `buildLootsmithApp` take; every field is optional. */
export type LootsmithOptions = z.input<typeof OptionsSchema>;

/** The environment variable of each option (`NODE_ENV=production` sets `production`). */
export const ENV_NAMES = {
  port: 'LOOTSMITH_PORT',
  host: 'LOOTSMITH_HOST',
  dataDir: 'LOOTSMITH_DATA_DIR',
  databaseUrl: 'LOOTSMITH_DATABASE_URL',
  redisUrl: 'LOOTSMITH_REDIS_URL',
  redisPrefix: 'LOOTSMITH_REDIS_PREFIX',
  upstreamUrl: 'LOOTSMITH_UPSTREAM_URL',
  upstreamKey: 'LOOTSMITH_UPSTREAM_KEY',
  fallbackUrl: 'LOOTSMITH_FALLBACK_URL',
  fallbackKey: 'LOOTSMITH_FALLBACK_KEY',
  upstreamTimeoutMs: 'LOOTSMITH_UPSTREAM_TIMEOUT_MS',
  upstreamRetries: 'LOOTSMITH_UPSTREAM_RETRIES',
  playerSecret: 'LOOTSMITH_PLAYER_SECRET',
  serverKey: 'LOOTSMITH_SERVER_KEY',
  metricsToken: 'LOOTSMITH_METRICS_TOKEN',
  consolePassword: 'LOOTSMITH_CONSOLE_PASSWORD',
  devLogin: 'LOOTSMITH_DEV_LOGIN',
  allowChat: 'LOOTSMITH_ALLOW_CHAT',
  tokenTtlSeconds: 'LOOTSMITH_TOKEN_TTL_S',
  corsOrigins: 'LOOTSMITH_CORS_ORIGINS',
  gameFile: 'LOOTSMITH_GAME_FILE',
  staticDir: 'LOOTSMITH_STATIC_DIR',
  logLevel: 'LOOTSMITH_LOG_LEVEL',
  textModel: 'LOOTSMITH_TEXT_MODEL',
  pools: 'LOOTSMITH_POOLS',
  poolSize: 'LOOTSMITH_POOL_SIZE',
  poolTotal: 'LOOTSMITH_POOL_TOTAL',
  poolBudgetPerHour: 'LOOTSMITH_POOL_BUDGET_PER_HOUR',
  poolConcurrency: 'LOOTSMITH_POOL_CONCURRENCY',
  iconsAfterItem: 'LOOTSMITH_ICONS_AFTER_ITEM',
  production: 'NODE_ENV',
} as const satisfies Record<keyof LootsmithOptions, string>;

/** Limits of the loot pools, per game; defaults suit a small game on a hosted service. */
export interface PoolSettings {
  /** Items kept per bucket (ready or being generated). */
  size: number;
  /** Items kept over all buckets. */
  total: number;
  /** Items the pools may generate per hour, across all instances (the server's own spend). */
  budgetPerHour: number;
  /** Generation batches one instance runs at once. */
  concurrency: number;
}

export const POOL_DEFAULTS: PoolSettings = { size: 12, total: 400, budgetPerHour: 600, concurrency: 8 };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Prefix of every Redis key, so several games (or test runs) can share one Redis. */
  redisPrefix: string;
  upstream: { url?: string; key?: string; timeoutMs: number; retries: number };
  fallback?: { url: string; key: string };
  playerSecret: string;
  serverKey?: string;
  /** Bearer token of `/metrics` (the server credential works too). */
  metricsToken?: string;
  /** Signs in to the developer console at `/console` (the server credential works too). */
  consolePassword?: string;
  devLogin: boolean;
  allowChat: boolean;
  tokenTtlSeconds: number;
  /** Origins whose pages may call the API; `*` allows any. */
  corsOrigins: string[];
  /** Outside production, pages on loopback (any port) may call the API too. */
  corsLoopback: boolean;
  production: boolean;
  gameFile?: string;
  staticDir?: string;
  logLevel: string;
  textModel?: string;
  /** Loot pools; undefined when off (the default). */
  pools?: PoolSettings;
  iconsAfterItem: boolean;
}

/** Variables of the engine, the test suites and the Chromium finder: not the server's, not typos. */
const OTHER_TOOLS = /^LOOTSMITH_(ENGINE_|TEST_|CHROMIUM$|RELIABILITY$)/;

export class ConfigError extends Error {}

/** Validates options given in code; a bad value throws a `ConfigError` naming it (`name` maps names). */
export function resolveConfig(
  options: LootsmithOptions = {},
  name: (option: string) => string = (option) => option,
): Config {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) =>
      i.path.length ? `${name(String(i.path[0]))}: ${i.message}` : i.message,
    );
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const o = parsed.data;
  const require = (option: keyof LootsmithOptions, when: keyof LootsmithOptions, value: unknown) => {
    if (!value) throw new ConfigError(`${name(option)}: required when ${name(when)} is set`);
  };
  if (o.fallbackUrl) require('fallbackKey', 'fallbackUrl', o.fallbackKey);
  if (o.upstreamUrl) require('upstreamKey', 'upstreamUrl', o.upstreamKey);
  if (o.staticDir && !existsSync(o.staticDir))
    throw new ConfigError(`${name('staticDir')}: ${resolve(o.staticDir)} does not exist`);
  const poolOptions = ['poolSize', 'poolTotal', 'poolBudgetPerHour', 'poolConcurrency'] as const;
  for (const option of poolOptions)
    if (o[option] !== undefined && !o.pools)
      throw new ConfigError(`${name(option)}: has no effect unless ${name('pools')} is on`);
  const pools: PoolSettings | undefined = o.pools
    ? {
        size: o.poolSize ?? POOL_DEFAULTS.size,
        total: o.poolTotal ?? Math.max(POOL_DEFAULTS.total, o.poolSize ?? 0),
        budgetPerHour: o.poolBudgetPerHour ?? POOL_DEFAULTS.budgetPerHour,
        concurrency: o.poolConcurrency ?? POOL_DEFAULTS.concurrency,
      }
    : undefined;
  if (pools && pools.size > pools.total)
    throw new ConfigError(`${name('poolSize')}: must not be above ${name('poolTotal')} (${pools.total})`);
  if (o.production && !o.playerSecret)
    throw new ConfigError(`${name('playerSecret')}: required in production (${name('production')})`);
  return {
    port: o.port,
    host: o.host,
    dataDir: resolve(o.dataDir),
    databaseUrl: o.databaseUrl,
    redisUrl: o.redisUrl,
    redisPrefix: o.redisPrefix,
    upstream: {
      url: o.upstreamUrl,
      key: o.upstreamKey,
      timeoutMs: o.upstreamTimeoutMs,
      retries: o.upstreamRetries,
    },
    fallback: o.fallbackUrl && o.fallbackKey ? { url: o.fallbackUrl, key: o.fallbackKey } : undefined,
    // Without a configured secret tokens only live as long as this process: fine for development.
    playerSecret: o.playerSecret ?? randomBytes(32).toString('hex'),
    serverKey: o.serverKey,
    metricsToken: o.metricsToken,
    consolePassword: o.consolePassword,
    devLogin: o.devLogin ?? !o.production,
    allowChat: o.allowChat,
    tokenTtlSeconds: o.tokenTtlSeconds,
    corsOrigins: o.corsOrigins as string[],
    corsLoopback: !o.production,
    production: o.production,
    gameFile: o.gameFile,
    staticDir: o.staticDir && resolve(o.staticDir),
    logLevel: o.logLevel,
    textModel: o.textModel,
    pools,
    iconsAfterItem: o.iconsAfterItem ?? o.pools,
  };
}

/** Reads the environment; a bad value throws a `ConfigError` that names the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset, as in the shell idiom `VAR= command`.
  const set = Object.entries(env).filter(
    ([k, v]) => v !== '' && v !== undefined && k.startsWith('LOOTSMITH_'),
  );
  const byEnv = new Map<string, string>(
    Object.entries(ENV_NAMES).map(([option, variable]) => [variable, option]),
  );
  const unknown = set.map(([k]) => k).filter((k) => !byEnv.has(k) && !OTHER_TOOLS.test(k));
  if (unknown.length)
    throw new ConfigError(`Unknown variable ${unknown.join(', ')} (see \`lootsmith --help\`)`);
  const options: Record<string, unknown> = Object.fromEntries(
    set.filter(([k]) => byEnv.has(k)).map(([k, v]) => [byEnv.get(k), v]),
  );
  options.production = env.NODE_ENV === 'production';
  return resolveConfig(options as LootsmithOptions, (option) =>
    option === 'production' ? 'NODE_ENV=production' : (ENV_NAMES[option as keyof typeof ENV_NAMES] ?? option),
  );
}
