import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseSettings, readSettings, SettingsError, settingsSchema } from '@lootsmith/protocol';
import { z } from 'zod';
import type { SpendCaps } from './money/caps.ts';
import { loadPrices, type PriceList } from './money/prices.ts';
import { Pricing, toNanos } from './money/pricing.ts';
import { amount, flag, secret, setting, url, whole } from './setting-values.ts';
import type { Rules } from './upstream/backends/description.ts';
import {
  BACKEND_SETTINGS,
  checkBackendSettings,
  type Upstream,
  upstreamOf,
} from './upstream/backends/registry.ts';

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

/** An address or CIDR range (`10.0.0.0/8`, `::1`) of a proxy in front of the server. */
const proxyAddress = (text: string) => {
  const [address = '', bits, extra] = text.split('/');
  const version = isIP(address);
  const most = version === 4 ? 32 : 128;
  return (
    version !== 0 &&
    extra === undefined &&
    (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= most))
  );
};
/** Fastify's `trustProxy` as the proxies' addresses: never "trust anyone", which lets a client name itself. */
const trustedProxies = z.string().transform((text, ctx) => {
  const list = text.split(',').map((s) => s.trim());
  if (list.every(proxyAddress)) return list.join(',');
  ctx.addIssue({
    code: 'custom',
    message: 'must be the proxies’ addresses or CIDR ranges, comma-separated (10.0.0.0/8,127.0.0.1)',
  });
  return z.NEVER;
});

/**
 * Every setting of the server: its variable, its schema and default, and its line of `lootsmith --help`.
 * Code passes the same settings by name to `lootsmith` (the Fastify plugin) or `buildLootsmithApp`.
 * Adding a setting is one entry here (and its line in the docs); rules between settings are in `resolveConfig`.
 * A backend's settings are in its folder under `upstream/backends/`, gathered by the registry there.
 */
export const SETTINGS = {
  port: setting('LOOTSMITH_PORT', whole(0, 65535).default(8787), 'port to listen on'),
  host: setting(
    'LOOTSMITH_HOST',
    z.string().min(1).default('127.0.0.1'),
    'address to bind; 0.0.0.0 for every interface',
  ),
  dataDir: setting('LOOTSMITH_DATA_DIR', z.string().min(1).default('./.lootsmith'), 'SQLite data directory'),
  databaseUrl: setting(
    'LOOTSMITH_DATABASE_URL',
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
    'postgres://… to keep everything in PostgreSQL instead (several instances)',
  ),
  redisUrl: setting(
    'LOOTSMITH_REDIS_URL',
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).optional(),
    'redis://… for rate limits, idempotency and single-flight shared by instances',
  ),
  redisPrefix: setting(
    'LOOTSMITH_REDIS_PREFIX',
    z
      .string()
      .regex(/^[\w.:-]{1,64}$/, 'letters, digits and _ . : - only')
      .default('lootsmith:'),
    'prefix of every Redis key',
  ),
  ...BACKEND_SETTINGS,
  playerSecret: setting(
    'LOOTSMITH_PLAYER_SECRET',
    secret.optional(),
    'HS256 secret of player tokens (required in production, as 32 or more random characters: openssl rand -base64 32)',
  ),
  tokenTtlSeconds: setting(
    'LOOTSMITH_TOKEN_TTL_S',
    whole(60, 30 * 86_400).default(86_400),
    'lifetime of guest tokens in seconds',
  ),
  tokenMaxTtlSeconds: setting(
    'LOOTSMITH_TOKEN_MAX_TTL_S',
    whole(60, 365 * 86_400).default(7 * 86_400),
    'longest lifetime (exp − iat) a player token may have; a token living longer, or without iat, is refused',
  ),
  sessionsPerAddress: setting(
    'LOOTSMITH_SESSIONS_PER_ADDRESS',
    whole(1, 1_000_000).default(30),
    'guest sessions (POST /api/v1/session) one network address may open per hour',
  ),
  guestRequestsPerAddress: setting(
    'LOOTSMITH_GUEST_REQUESTS_PER_ADDRESS',
    whole(1, 10_000_000).default(600),
    'requests per minute one network address may send to the routes that need no token (game definition, icons, /docs, /metrics, static files); /health, console sign-in and requests with the server key or a console session are not counted',
  ),
  serverKey: setting(
    'LOOTSMITH_SERVER_KEY',
    secret.optional(),
    'credential of your game server (grant items, block players, budgets); required in production, as 32 or more random characters',
  ),
  metricsToken: setting(
    'LOOTSMITH_METRICS_TOKEN',
    secret.optional(),
    'bearer token for GET /metrics (the server key works too); without either, /metrics is open outside production and off in production',
  ),
  consolePassword: setting(
    'LOOTSMITH_CONSOLE_PASSWORD',
    secret.optional(),
    'password of the developer console at /console (the server key works too); with neither, the console is off in production and open to loopback outside it',
  ),
  devLogin: setting(
    'LOOTSMITH_DEV_LOGIN',
    flag.optional(),
    '1: guest logins at POST /api/v1/session (on unless in production; refused in production)',
  ),
  allowChat: setting(
    'LOOTSMITH_ALLOW_CHAT',
    flag.default(false),
    '1: forward raw /v1/chat/completions for players: the configured model, within the game file’s chat_forward.max_tokens (off by default)',
  ),
  corsOrigins: setting(
    'LOOTSMITH_CORS_ORIGINS',
    origins.default([]),
    'origins of games served elsewhere, comma-separated (https://game.example.com,http://localhost:5173; * for any); outside production, loopback origins on any port are allowed without it',
  ),
  gameFile: setting(
    'LOOTSMITH_GAME_FILE',
    z.string().min(1).optional(),
    'game definition JSON (default: the fantasy RPG shipped in game/)',
  ),
  staticDir: setting(
    'LOOTSMITH_STATIC_DIR',
    z.string().min(1).optional(),
    'a directory to serve at / (your built game, e.g. ./dist); nothing is served by default, never a dotfile, and a folder holding LOOTSMITH_DATA_DIR, a .env or a .git is refused',
  ),
  trustProxy: setting(
    'LOOTSMITH_TRUST_PROXY',
    trustedProxies.optional(),
    'addresses or CIDR ranges of the load balancers and reverse proxies in front of the server, comma-separated (10.0.0.0/8,127.0.0.1): per-address limits then count the client their X-Forwarded-For names (unset: the connecting address)',
  ),
  logLevel: setting(
    'LOOTSMITH_LOG_LEVEL',
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    'fatal|error|warn|info|debug|trace|silent',
  ),
  pools: setting(
    'LOOTSMITH_POOLS',
    flag.default(false),
    '1: loot pools, items generated ahead in the background per enemy, level band, item type and named location, so a drop is served at once (see docs/DEPLOY.md)',
  ),
  poolSize: setting('LOOTSMITH_POOL_SIZE', whole(1, 1000).optional(), 'items kept per bucket (default 12)'),
  poolTotal: setting(
    'LOOTSMITH_POOL_TOTAL',
    whole(1, 1_000_000).optional(),
    'items kept over all buckets (default 400)',
  ),
  poolBudgetPerHour: setting(
    'LOOTSMITH_POOL_BUDGET_PER_HOUR',
    whole(1, 1_000_000).optional(),
    'items the pools may generate per hour, all instances together (default 600); the server’s own spend, not a player’s daily budget',
  ),
  poolPlayerShare: setting(
    'LOOTSMITH_POOL_PLAYER_SHARE',
    whole(1, 1_000_000).optional(),
    'items the draws of one player may make the pools generate per hour, out of LOOTSMITH_POOL_BUDGET_PER_HOUR (default a tenth of it), so no one player’s demand drains the pools for the others',
  ),
  poolConcurrency: setting(
    'LOOTSMITH_POOL_CONCURRENCY',
    whole(1, 64).optional(),
    'generation batches one instance runs at once (default 8)',
  ),
  iconsAfterItem: setting(
    'LOOTSMITH_ICONS_AFTER_ITEM',
    flag.optional(),
    '1: a drop answers before its icons are painted (icon.status "pending", the icon URL answers 202 until ready); default on with pools, else off',
  ),
  pricesFile: setting(
    'LOOTSMITH_PRICES_FILE',
    z.string().min(1).optional(),
    'a JSON price list laid over the shipped one (OpenAI’s list prices of gpt-4o-mini, the GPT image and DALL·E models), per backend API and model: chat per 1M input and output tokens, images per image by quality and size (see docs/DEPLOY.md); a call without a price counts as unpriced',
  ),
  spendDailyCap: setting(
    'LOOTSMITH_SPEND_DAILY_CAP',
    amount.optional(),
    'most the game’s backend calls may cost in a UTC day, in the price list’s currency (25 = $25): every call is reserved at its most before it is sent and settled to its cost after, on every instance; past it a call is refused (429 spend_cap_reached) or served as LOOTSMITH_SPEND_CAP_SERVE says',
  ),
  spendMonthlyCap: setting(
    'LOOTSMITH_SPEND_MONTHLY_CAP',
    amount.optional(),
    'most the game’s backend calls may cost in a UTC month, kept like LOOTSMITH_SPEND_DAILY_CAP',
  ),
  spendPlayerDailyCap: setting(
    'LOOTSMITH_SPEND_PLAYER_DAILY_CAP',
    amount.optional(),
    'most one player’s calls may cost in a UTC day (the server’s own work, such as pool refills, counts only for the game)',
  ),
  spendCapServe: setting(
    'LOOTSMITH_SPEND_CAP_SERVE',
    z.enum(['refuse', 'embedded', 'fallback']).optional(),
    'what serves a call once a spend cap is reached: refuse (the default: 429 spend_cap_reached), embedded (the embedded engine, free) or fallback (the /v1 service of LOOTSMITH_FALLBACK_URL alone, its cost counted in the figures but not held to the cap)',
  ),
  spendAlertUrl: setting(
    'LOOTSMITH_SPEND_ALERT_URL',
    url.optional(),
    'a webhook told when a spend cap reaches 80% and 100% in its period: a JSON POST, once per cap, threshold and period across every instance, answered within 5 s or given up; it never holds up a request (the log has a line for each alert, with or without it); never logged',
  ),
  spendAlertSecret: setting(
    'LOOTSMITH_SPEND_ALERT_SECRET',
    secret.optional(),
    'signs each alert: x-lootsmith-signature: sha256=<HMAC-SHA256 of the body, hex>',
  ),
  requestLogMax: setting(
    'LOOTSMITH_REQUEST_LOG_MAX',
    whole(0, 10_000_000).default(10_000),
    'requests the console’s request log keeps, newest first, with their bodies (secrets left out, 16 KB each) and their backend calls’ prompts and answers (0: no request log)',
  ),
  requestLogDays: setting(
    'LOOTSMITH_REQUEST_LOG_DAYS',
    whole(1, 365).default(7),
    'days the request log keeps a request; whichever of this and LOOTSMITH_REQUEST_LOG_MAX keeps fewer holds',
  ),
  production: setting(
    'NODE_ENV',
    z.union([z.boolean(), z.string().transform((v) => /^\s*prod(uction)?\s*$/i.test(v))]).default(false),
    'production (any spelling: prod, Production…), as is any LOOTSMITH_HOST that is not loopback: no guest logins, no default CORS origins, LOOTSMITH_PLAYER_SECRET and LOOTSMITH_SERVER_KEY required and every secret strong, finite default daily budgets; a server embedded in code follows NODE_ENV too unless given production',
  ),
};

const OptionsSchema = settingsSchema(SETTINGS);

/** What `lootsmith` (the Fastify plugin) and `buildLootsmithApp` take; every field is optional. */
export type LootsmithOptions = z.input<typeof OptionsSchema>;
/** The settings as validated, defaults filled in. */
export type Settings = z.output<typeof OptionsSchema>;

/** The environment variable of each option (`NODE_ENV=production` sets `production`). */
export const ENV_NAMES = Object.fromEntries(Object.entries(SETTINGS).map(([k, s]) => [k, s.env])) as {
  [K in keyof typeof SETTINGS]: string;
};

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
  /** Items one player's draws may make the pools generate per hour (a share of the budget). */
  playerShare: number;
}

export const POOL_DEFAULTS: PoolSettings = {
  size: 12,
  total: 400,
  budgetPerHour: 600,
  concurrency: 8,
  playerShare: 60,
};

/** The validated settings, with what follows from them worked out. */
export type Config = Omit<
  Settings,
  | 'playerSecret'
  | 'devLogin'
  | 'iconsAfterItem'
  | 'corsOrigins'
  | 'pools'
  | 'spendDailyCap'
  | 'spendMonthlyCap'
  | 'spendPlayerDailyCap'
  | 'spendCapServe'
> & {
  /** Hardened: `NODE_ENV` is production, or the server listens beyond loopback. */
  production: boolean;
  /** What weakens a production server without stopping it, each naming its variable: logged at start-up. */
  warnings: string[];
  playerSecret: string;
  devLogin: boolean;
  iconsAfterItem: boolean;
  /** Origins whose pages may call the API; `*` allows any. */
  corsOrigins: string[];
  /** Outside production, pages on loopback (any port) may call the API too. */
  corsLoopback: boolean;
  /** Loot pools; undefined when off (the default). */
  pools?: PoolSettings;
  upstream: Upstream;
  /** What each backend call costs: the shipped prices with `LOOTSMITH_PRICES_FILE` laid over them. */
  prices: PriceList;
  /** The spend caps in money; undefined when none is set (the default). */
  caps?: SpendCaps;
};

/** Variables of the engine, the test suites and the Chromium finder: not the server's, not typos. */
const OTHER_TOOLS = /^LOOTSMITH_(ENGINE_|TEST_|BENCH_|CHROMIUM$|RELIABILITY$)/;

export class ConfigError extends SettingsError {}

/** The server's own secrets, each apart from the others and, in production, strong. */
const SECRET_OPTIONS = [
  'playerSecret',
  'serverKey',
  'metricsToken',
  'consolePassword',
  'spendAlertSecret',
] as const;
const MAKE_SECRET = 'use 32 or more random characters of its own, e.g. from `openssl rand -base64 32`';

/**
 * At least 32 characters and about 90 bits by the frequency of its characters: what random ones from
 * `openssl rand` always have, and `aaaa…` or a word repeated never has.
 */
function strongSecret(value: string): boolean {
  if (value.length < 32) return false;
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= n * Math.log2(n / value.length);
  return bits >= 90;
}

/** Whether a bind address reaches only this machine. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The static directory must be a built game: never the database's folder, and not a project folder
 * whose secrets sit beside the game (dotfiles are never served, but a project has more than those).
 */
function checkStaticDir(
  root: string,
  dataDir: string,
  fail: (option: 'staticDir', message: string) => never,
  name: (option: string) => string,
) {
  if (!existsSync(root)) fail('staticDir', `${root} does not exist`);
  const data = relative(root, dataDir);
  if (!data.startsWith('..') && !isAbsolute(data))
    fail(
      'staticDir',
      `${root} holds ${name('dataDir')} (${dataDir}): serve only your built game (e.g. ./dist), or move ${name('dataDir')} out of it`,
    );
  const secrets = ['.env', '.git'].find((file) => existsSync(join(root, file)));
  if (secrets)
    fail(
      'staticDir',
      `${root} has a ${secrets} in it, so it looks like a project folder: serve only your built game (e.g. ./dist)`,
    );
}

/**
 * Validates options given in code; a bad value throws a `ConfigError` naming it (`name` maps names).
 * Without a `production` option, `NODE_ENV` decides it, as it does for the `lootsmith` command.
 */
export function resolveConfig(
  options: LootsmithOptions = {},
  name: (option: string) => string = (option) => option,
  env: NodeJS.ProcessEnv = process.env,
): Config {
  const fromEnv = options.production === undefined && env.NODE_ENV !== undefined;
  const named = (option: string) =>
    fromEnv && option === 'production' ? 'NODE_ENV=production' : name(option);
  let o: Settings;
  try {
    o = parseSettings(SETTINGS, fromEnv ? { ...options, production: env.NODE_ENV } : options, named);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return configOf(o, named);
}

function configOf(o: Settings, name: (option: string) => string): Config {
  type Option = keyof Settings;
  const fail = (option: Option, message: string) => {
    throw new ConfigError(`${name(option)}: ${message}`);
  };
  const requires = (option: Option, when: Option) => {
    if (o[when] && !o[option]) fail(option, `required when ${name(when)} is set`);
  };
  const onlyWith = (options: Option[], needed: Option, what = `${name(needed)} is set`) => {
    for (const option of options)
      if (o[option] !== undefined && !o[needed]) fail(option, `has no effect unless ${what}`);
  };
  const rules = { o, fail, requires, onlyWith, name } as Rules;
  checkBackendSettings(rules);
  onlyWith(
    ['poolSize', 'poolTotal', 'poolBudgetPerHour', 'poolConcurrency', 'poolPlayerShare'],
    'pools',
    `${name('pools')} is on`,
  );
  if (o.staticDir) checkStaticDir(resolve(o.staticDir), resolve(o.dataDir), fail, name);
  const budgetPerHour = o.poolBudgetPerHour ?? POOL_DEFAULTS.budgetPerHour;
  const pools: PoolSettings | undefined = o.pools
    ? {
        size: o.poolSize ?? POOL_DEFAULTS.size,
        total: o.poolTotal ?? Math.max(POOL_DEFAULTS.total, o.poolSize ?? 0),
        budgetPerHour,
        concurrency: o.poolConcurrency ?? POOL_DEFAULTS.concurrency,
        playerShare: o.poolPlayerShare ?? Math.ceil(budgetPerHour / 10),
      }
    : undefined;
  if (pools && pools.size > pools.total)
    fail('poolSize', `must not be above ${name('poolTotal')} (${pools.total})`);
  // Production is whatever NODE_ENV says in any spelling, or a bind address beyond this machine.
  const exposed = !isLoopback(o.host);
  const production = o.production || exposed;
  const why = o.production ? name('production') : `${name('host')}=${o.host}, not a loopback address`;
  const warnings: string[] = [];
  if (production) {
    if (!o.playerSecret) fail('playerSecret', `required in production (${why})`);
    if (!o.serverKey)
      fail(
        'serverKey',
        `required in production (${why}): without it no one can block a player or set a budget`,
      );
    if (o.devLogin)
      fail('devLogin', `guest login is refused in production (${why}): your game server signs player tokens`);
    if (o.allowChat)
      warnings.push(
        `${name('allowChat')}=1 in production: players may send raw chat on your key, within their budgets`,
      );
    if ((o.corsOrigins as string[]).includes('*'))
      warnings.push(
        `${name('corsOrigins')}=* in production: a page on any origin may call the API with a player's token`,
      );
  }
  if (o.tokenTtlSeconds > o.tokenMaxTtlSeconds)
    fail('tokenTtlSeconds', `must not be above ${name('tokenMaxTtlSeconds')} (${o.tokenMaxTtlSeconds})`);
  // Each secret opens something else (Prometheus holds the metrics token, a leaked player token
  // rests on the player secret): none may open what another does.
  SECRET_OPTIONS.forEach((option, i) => {
    const value = o[option];
    if (!value) return;
    const same = SECRET_OPTIONS.slice(0, i).find((other) => o[other] === value);
    if (same) fail(option, `must differ from ${name(same)}: ${MAKE_SECRET}`);
    // One token signed with the player secret is enough to guess it offline.
    if (production && !strongSecret(value)) fail(option, `too weak for production (${why}): ${MAKE_SECRET}`);
  });
  const upstream = upstreamOf(rules);
  let prices: PriceList;
  try {
    prices = loadPrices(o.pricesFile);
  } catch (err) {
    return fail('pricesFile', (err as Error).message);
  }
  const caps = spendCaps(o, upstream, new Pricing(prices), fail, name);

  return {
    ...o,
    dataDir: resolve(o.dataDir),
    // Without a configured secret tokens only live as long as this process: fine for development.
    production,
    warnings,
    playerSecret: o.playerSecret ?? randomBytes(32).toString('hex'),
    devLogin: o.devLogin ?? !production,
    corsOrigins: o.corsOrigins as string[],
    corsLoopback: !production,
    staticDir: o.staticDir && resolve(o.staticDir),
    pools,
    iconsAfterItem: o.iconsAfterItem ?? o.pools,
    upstream,
    prices,
    caps,
  };
}

const CAPS = ['spendDailyCap', 'spendMonthlyCap', 'spendPlayerDailyCap'] as const;

/**
 * The spend caps, when any is set. A cap is exact only if every call it holds has a price: each
 * configured backend (the fallback too) must have one; what serves past a cap must exist.
 */
function spendCaps(
  o: Settings,
  upstream: Upstream,
  pricing: Pricing,
  fail: (option: keyof Settings, message: string) => never,
  name: (option: string) => string,
): SpendCaps | undefined {
  const set = CAPS.filter((c) => o[c] !== undefined);
  const [first] = set;
  if (o.spendAlertSecret !== undefined && o.spendAlertUrl === undefined)
    fail('spendAlertSecret', `has no effect unless ${name('spendAlertUrl')} is set`);
  if (!first) {
    for (const option of ['spendCapServe', 'spendAlertUrl'] as const)
      if (o[option] !== undefined)
        fail(option, `has no effect unless ${CAPS.map(name).join(', ')} or more is set`);
    return undefined;
  }
  if (o.spendCapServe === 'fallback' && !upstream.fallback)
    fail(
      'spendCapServe',
      `fallback needs a /v1 fallback: set ${name('fallbackUrl')} and ${name('fallbackKey')}`,
    );
  const backends = [
    { kind: 'chat' as const, ...upstream.chat },
    { kind: 'image' as const, ...upstream.image },
    ...(upstream.fallback
      ? (['chat', 'image'] as const).map((kind) => ({ kind, api: 'v1', model: undefined }))
      : []),
  ];
  for (const b of backends)
    if (!pricing.prices(b.kind, b.api, b.model))
      fail(
        first,
        `needs a price for every backend it caps, and ${b.kind}:${b.api}${b.model ? ` model ${b.model}` : ''} has none: give it one in ${name('pricesFile')}`,
      );
  const nanos = (value: number | undefined) => (value === undefined ? undefined : toNanos(value));
  return {
    daily: nanos(o.spendDailyCap),
    monthly: nanos(o.spendMonthlyCap),
    playerDaily: nanos(o.spendPlayerDailyCap),
    serve: o.spendCapServe ?? 'refuse',
  };
}

/** Reads the environment; a bad value throws a `ConfigError` that names the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const named = (option: string) =>
    option === 'production' ? 'NODE_ENV=production' : (ENV_NAMES[option as keyof typeof ENV_NAMES] ?? option);
  let o: Settings;
  try {
    o = readSettings(SETTINGS, { env, prefix: 'LOOTSMITH_', ignore: OTHER_TOOLS });
  } catch (err) {
    throw new ConfigError((err as Error).message.replace('(see --help)', '(see `lootsmith --help`)'));
  }
  return configOf(o, named);
}
