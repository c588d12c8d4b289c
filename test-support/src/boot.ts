import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GameDefinition } from '@lootsmith/protocol';
import { loadConfig, type RunningServer, signPlayerToken, startServer } from 'lootsmith';
import { type Backends, backendEnv } from './backends.ts';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.ts';
import { writeGameFile } from './game-file.ts';
import { ONE_ADDRESS } from './process.ts';

export const UPSTREAM_KEY = 'upstream-secret-key-do-not-leak';
export const SERVER_KEY = 'server-credential-0123456789abcdef';
export const PLAYER_SECRET = 'player-secret-0123456789abcdefghij';

export interface Booted {
  server: RunningServer;
  fake: FakeUpstream;
  dataDir: string;
  /** A player token from the guest login, keeping the guest secret the player's first session gave. */
  token(playerId: string): Promise<string>;
  close(): Promise<void>;
}

export interface BootOptions {
  /** Server variables, applied last. */
  env?: Record<string, string>;
  logStream?: NodeJS.WritableStream;
  /** `silent` unless given. */
  logLevel?: string;
  /** The chat and image APIs the server speaks to the fake (the spec's /v1 service by default). */
  backends?: Backends;
  /** A fake to share (it is then not closed with the server); a fresh one otherwise. */
  fake?: FakeUpstream;
  /** Where the server sends `/v1` calls, when not straight to the fake (a fault proxy in front of it). */
  upstreamUrl?: string;
  /** Share another server's data directory (a second instance); it is then not removed on close. */
  dataDir?: string;
  /** Listen on a loopback port (default: not listening, tests use `app.inject`). */
  listen?: boolean;
  /** The upstream key, server credential and player secret (default: this module's constants). */
  keys?: { upstream: string; server: string; player: string };
  /** The shipped game with these fields changed, written into the data directory. */
  game?: (game: GameDefinition) => Partial<GameDefinition>;
  /**
   * When the guest login is refused (a player the game server made first), `token` signs one as a
   * game server would; `false`: it throws instead.
   */
  signWhenRefused?: boolean;
}

/** The server over a scripted fake `/v1` service, with a temporary SQLite store. */
export async function bootServer(options: BootOptions = {}): Promise<Booted> {
  const keys = options.keys ?? { upstream: UPSTREAM_KEY, server: SERVER_KEY, player: PLAYER_SECRET };
  const fake = options.fake ?? (await startFakeUpstream());
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'lootsmith-test-'));
  const env = options.env ?? {};
  const timeoutMs = env.LOOTSMITH_UPSTREAM_TIMEOUT_MS ?? '1000';
  const server = await startServer(
    loadConfig({
      LOOTSMITH_UPSTREAM_URL: options.upstreamUrl ?? fake.url,
      LOOTSMITH_UPSTREAM_KEY: keys.upstream,
      LOOTSMITH_SERVER_KEY: keys.server,
      LOOTSMITH_PLAYER_SECRET: keys.player,
      LOOTSMITH_DATA_DIR: dataDir,
      LOOTSMITH_LOG_LEVEL: options.logLevel ?? 'silent',
      LOOTSMITH_UPSTREAM_RETRIES: '0',
      LOOTSMITH_UPSTREAM_TIMEOUT_MS: '1000',
      LOOTSMITH_PORT: '0',
      ...ONE_ADDRESS,
      ...(options.game ? { LOOTSMITH_GAME_FILE: writeGameFile(options.game, dataDir) } : {}),
      ...backendEnv(fake, options.backends ?? {}, keys.upstream, { url: options.upstreamUrl, timeoutMs }),
      ...env,
    }),
    { listen: options.listen ?? false, logStream: options.logStream },
  );
  const guestSecrets = new Map<string, string>();
  return {
    server,
    fake,
    dataDir,
    async token(playerId) {
      const guest_secret = guestSecrets.get(playerId);
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { player_id: playerId, ...(guest_secret ? { guest_secret } : {}) },
      });
      if (res.statusCode !== 200) {
        if (options.signWhenRefused === false)
          throw new Error(`session ${playerId}: ${res.statusCode} ${res.body}`);
        return signPlayerToken(keys.player, playerId, 600);
      }
      if (res.json().guest_secret) guestSecrets.set(playerId, res.json().guest_secret);
      return res.json().token;
    },
    async close() {
      await server.close();
      if (!options.fake) await fake.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `bootServer` with server variables, a log stream and backends: what most suites need. */
export const bootWithFake = (
  env: Record<string, string> = {},
  logStream?: NodeJS.WritableStream,
  backends: Backends = {},
): Promise<Booted> => bootServer({ env, logStream, backends });
