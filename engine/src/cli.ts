import { readSettings, type Setting, SettingsError, settingsHelp } from '@lootsmith/protocol';
import { z } from 'zod';
import { startEngine } from './index.ts';
import { type EngineKeyConfig, generateKey, loadKeysFile, unlimitedKey } from './keys.ts';

const setting = <S extends z.ZodType>(
  env: string,
  flag: string | undefined,
  schema: S,
  help: string,
): Setting<S> => ({
  env,
  schema,
  help,
  ...(flag ? { flag } : {}),
});

/** The engine's settings, validated by the same helper as the server's (`@lootsmith/protocol`). */
const SETTINGS = {
  port: setting(
    'LOOTSMITH_ENGINE_PORT',
    'port',
    z.coerce
      .number({ error: 'expected a port number 0–65535' })
      .int('expected a port number 0–65535')
      .min(0, 'expected a port number 0–65535')
      .max(65535, 'expected a port number 0–65535')
      .default(8788),
    'port to listen on; 0 picks a free port',
  ),
  host: setting(
    'LOOTSMITH_ENGINE_HOST',
    'host',
    z.string().trim().min(1, 'must not be empty').default('127.0.0.1'),
    'address to bind',
  ),
  keys: setting(
    'LOOTSMITH_ENGINE_KEYS',
    'keys',
    z.string().min(1).optional(),
    'JSON file of API keys (see the README of @lootsmith/engine)',
  ),
  key: setting(
    'LOOTSMITH_ENGINE_KEY',
    undefined,
    z
      .string()
      .regex(/^\S{8,}$/, 'must be at least 8 characters without spaces')
      .optional(),
    'the one key (unlimited credits, all permissions) when there is no keys file; without it a key is generated and printed',
  ),
};

const HELP = `Usage: lootsmith-engine [--port N] [--host H] [--keys FILE]

Runs the embedded /v1 Game Content Generation Service alone. Each flag has a variable; a flag wins:

${settingsHelp(SETTINGS)}  --help, -h                      show this help
`;

/** A configuration mistake: printed without a stack, exit code 2. */
class UsageError extends Error {}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  let settings: ReturnType<typeof readSettings<typeof SETTINGS>>;
  try {
    settings = readSettings(SETTINGS, { env: process.env, argv, prefix: 'LOOTSMITH_ENGINE_' });
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    throw new UsageError(`${error.message}\n\n${HELP}`);
  }
  const { port, host } = settings;
  let keys: EngineKeyConfig[];
  let generated = false;
  if (settings.keys) {
    try {
      keys = loadKeysFile(settings.keys);
    } catch (error) {
      const named = argv.some((a) => a.startsWith('--keys')) ? '--keys' : 'LOOTSMITH_ENGINE_KEYS';
      throw new UsageError(`${named}: ${(error as Error).message}`);
    }
  } else {
    generated = settings.key === undefined;
    keys = [unlimitedKey(settings.key ?? generateKey())];
  }
  const engine = await startEngine({ host, port, keys, logger: true });
  process.stdout.write(
    `lootsmith engine listening on ${engine.url} (API at ${engine.url}/v1, docs at ${engine.url}/docs)\n`,
  );
  if (generated) process.stdout.write(`generated API key (unlimited, all permissions): ${engine.key}\n`);
  else process.stdout.write(`${keys.length} API key(s) loaded\n`);
  const stop = async (signal: string) => {
    process.stdout.write(`${signal}: shutting down\n`);
    await engine.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`lootsmith engine: ${error.message}\n`);
    process.exit(2);
  }
  const listenError = error as NodeJS.ErrnoException;
  if (
    listenError.code === 'EADDRINUSE' ||
    listenError.code === 'EACCES' ||
    listenError.code === 'EADDRNOTAVAIL'
  ) {
    process.stderr.write(`lootsmith engine: cannot listen: ${listenError.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`lootsmith engine: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
