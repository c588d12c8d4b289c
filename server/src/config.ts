import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));
const secret = z.string().min(16, 'must be at least 16 characters');
const whole = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

/** Every `LOOTSMITH_` variable, validated once at start-up. */
const ConfigSchema = z.object({
  LOOTSMITH_PORT: whole(0, 65535).default(8787),
  LOOTSMITH_HOST: z.string().min(1).default('127.0.0.1'),
  LOOTSMITH_DATA_DIR: z.string().min(1).default('./.lootsmith'),
  LOOTSMITH_DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' })
    .optional(),
  LOOTSMITH_REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).optional(),
  LOOTSMITH_REDIS_PREFIX: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'letters, digits and _ . : - only')
    .default('lootsmith:'),
  LOOTSMITH_UPSTREAM_URL: url.optional(),
  LOOTSMITH_UPSTREAM_KEY: z.string().min(8, 'must be at least 8 characters').optional(),
  LOOTSMITH_FALLBACK_URL: url.optional(),
  LOOTSMITH_FALLBACK_KEY: z.string().min(8).optional(),
  LOOTSMITH_UPSTREAM_TIMEOUT_MS: whole(100, 600_000).default(30_000),
  LOOTSMITH_UPSTREAM_RETRIES: whole(0, 5).default(2),
  LOOTSMITH_PLAYER_SECRET: secret.optional(),
  LOOTSMITH_SERVER_KEY: secret.optional(),
  LOOTSMITH_DEV_LOGIN: flag.optional(),
  LOOTSMITH_ALLOW_CHAT: flag.default(false),
  LOOTSMITH_TOKEN_TTL_S: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(86_400),
  LOOTSMITH_GAME_FILE: z.string().min(1).optional(),
  LOOTSMITH_STATIC_DIR: z.string().min(1).optional(),
  LOOTSMITH_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOOTSMITH_TEXT_MODEL: z.string().min(1).optional(),
  NODE_ENV: z.string().optional(),
});

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
  devLogin: boolean;
  allowChat: boolean;
  tokenTtlSeconds: number;
  gameFile?: string;
  staticDir?: string;
  logLevel: string;
  textModel?: string;
}

/** Variables of the engine, the test suites and the Chromium finder: not the server's, not typos. */
const OTHER_TOOLS = /^LOOTSMITH_(ENGINE_|TEST_|CHROMIUM$|RELIABILITY$)/;

export class ConfigError extends Error {}

/** Reads the environment; a bad value throws a `ConfigError` that names the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset, as in the shell idiom `VAR= command`.
  const known = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => v !== '' && (k.startsWith('LOOTSMITH_') || k === 'NODE_ENV')),
  );
  const unknown = Object.keys(known).filter((k) => !(k in ConfigSchema.shape) && !OTHER_TOOLS.test(k));
  if (unknown.length)
    throw new ConfigError(`Unknown variable ${unknown.join(', ')} (see \`lootsmith --help\`)`);
  const parsed = ConfigSchema.safeParse(known);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.LOOTSMITH_FALLBACK_URL && !e.LOOTSMITH_FALLBACK_KEY)
    throw new ConfigError('LOOTSMITH_FALLBACK_KEY: required when LOOTSMITH_FALLBACK_URL is set');
  if (e.LOOTSMITH_UPSTREAM_URL && !e.LOOTSMITH_UPSTREAM_KEY)
    throw new ConfigError('LOOTSMITH_UPSTREAM_KEY: required when LOOTSMITH_UPSTREAM_URL is set');
  const production = e.NODE_ENV === 'production';
  if (production && !e.LOOTSMITH_PLAYER_SECRET)
    throw new ConfigError('LOOTSMITH_PLAYER_SECRET: required when NODE_ENV=production');
  return {
    port: e.LOOTSMITH_PORT,
    host: e.LOOTSMITH_HOST,
    dataDir: resolve(e.LOOTSMITH_DATA_DIR),
    databaseUrl: e.LOOTSMITH_DATABASE_URL,
    redisUrl: e.LOOTSMITH_REDIS_URL,
    redisPrefix: e.LOOTSMITH_REDIS_PREFIX,
    upstream: {
      url: e.LOOTSMITH_UPSTREAM_URL,
      key: e.LOOTSMITH_UPSTREAM_KEY,
      timeoutMs: e.LOOTSMITH_UPSTREAM_TIMEOUT_MS,
      retries: e.LOOTSMITH_UPSTREAM_RETRIES,
    },
    fallback:
      e.LOOTSMITH_FALLBACK_URL && e.LOOTSMITH_FALLBACK_KEY
        ? { url: e.LOOTSMITH_FALLBACK_URL, key: e.LOOTSMITH_FALLBACK_KEY }
        : undefined,
    // Without a configured secret tokens only live as long as this process: fine for development.
    playerSecret: e.LOOTSMITH_PLAYER_SECRET ?? randomBytes(32).toString('hex'),
    serverKey: e.LOOTSMITH_SERVER_KEY,
    devLogin: e.LOOTSMITH_DEV_LOGIN ?? !production,
    allowChat: e.LOOTSMITH_ALLOW_CHAT,
    tokenTtlSeconds: e.LOOTSMITH_TOKEN_TTL_S,
    gameFile: e.LOOTSMITH_GAME_FILE,
    staticDir: e.LOOTSMITH_STATIC_DIR && resolve(e.LOOTSMITH_STATIC_DIR),
    logLevel: e.LOOTSMITH_LOG_LEVEL,
    textModel: e.LOOTSMITH_TEXT_MODEL,
  };
}
