import { parseArgs } from 'node:util';
import { startEngine } from './index.ts';
import { type EngineKeyConfig, generateKey, loadKeysFile, unlimitedKey } from './keys.ts';

const HELP = `Usage: lootsmith-engine [--port N] [--host H] [--keys FILE]

Runs the embedded /v1 Game Content Generation Service alone.

Options:
  --port N      port to listen on (default 8788; 0 picks a free port)
  --host H      address to bind (default 127.0.0.1)
  --keys FILE   JSON file of API keys (see the README of @lootsmith/engine)
  --help        show this help

Environment:
  LOOTSMITH_ENGINE_KEYS   keys file, when --keys is not given
  LOOTSMITH_ENGINE_KEY    the one key (unlimited credits, all permissions) when there is no keys file;
                          without it a key is generated and printed
`;

/** A configuration mistake: printed without a stack, exit code 2. */
class UsageError extends Error {}

function parsePort(text: string, name: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    throw new UsageError(`${name}: expected a port number 0–65535, got ${JSON.stringify(text)}`);
  return Number(text);
}

async function main(): Promise<void> {
  let values: { port?: string; host?: string; keys?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        keys: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${HELP}`);
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = parsePort(
    values.port ?? process.env.LOOTSMITH_ENGINE_PORT ?? '8788',
    values.port ? '--port' : 'LOOTSMITH_ENGINE_PORT',
  );
  const host = values.host ?? '127.0.0.1';
  if (!host.trim()) throw new UsageError('--host: must not be empty');
  const keysFile = values.keys ?? (process.env.LOOTSMITH_ENGINE_KEYS || undefined);
  let keys: EngineKeyConfig[];
  let generated = false;
  if (keysFile) {
    try {
      keys = loadKeysFile(keysFile);
    } catch (error) {
      throw new UsageError(
        `${values.keys ? '--keys' : 'LOOTSMITH_ENGINE_KEYS'}: ${(error as Error).message}`,
      );
    }
  } else {
    const key = process.env.LOOTSMITH_ENGINE_KEY || undefined;
    if (key !== undefined && (key.length < 8 || /\s/.test(key))) {
      throw new UsageError('LOOTSMITH_ENGINE_KEY: must be at least 8 characters without spaces');
    }
    generated = key === undefined;
    keys = [unlimitedKey(key ?? generateKey())];
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
