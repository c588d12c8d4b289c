import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type RunningServer, signPlayerToken, startServer } from 'lootsmith';
import { type Backends, backendEnv } from './backends.ts';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.ts';
import { ONE_ADDRESS } from './process.ts';

export const UPSTREAM_KEY = 'upstream-secret-key-do-not-leak';
export const SERVER_KEY = 'server-credential-0123456789';
export const PLAYER_SECRET = 'player-secret-0123456789abcdef';

export interface Booted {
  server: RunningServer;
  fake: FakeUpstream;
  dataDir: string;
  token(playerId: string): Promise<string>;
  close(): Promise<void>;
}

/** The server over a scripted fake `/v1` service, not listening: tests use `app.inject`. */
export async function bootWithFake(
  env: Record<string, string> = {},
  logStream?: NodeJS.WritableStream,
  backends: Backends = {},
): Promise<Booted> {
  const fake = await startFakeUpstream();
  const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-test-'));
  const server = await startServer(
    loadConfig({
      LOOTSMITH_UPSTREAM_URL: fake.url,
      LOOTSMITH_UPSTREAM_KEY: UPSTREAM_KEY,
      LOOTSMITH_SERVER_KEY: SERVER_KEY,
      LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
      LOOTSMITH_DATA_DIR: dataDir,
      LOOTSMITH_LOG_LEVEL: 'silent',
      LOOTSMITH_UPSTREAM_RETRIES: '0',
      LOOTSMITH_UPSTREAM_TIMEOUT_MS: '1000',
      ...ONE_ADDRESS,
      ...backendEnv(fake, backends, UPSTREAM_KEY, { timeoutMs: env.LOOTSMITH_UPSTREAM_TIMEOUT_MS ?? '1000' }),
      ...env,
    }),
    { listen: false, logStream },
  );
  const guestSecrets = new Map<string, string>();
  const booted: Booted = {
    server,
    fake,
    dataDir,
    async token(playerId) {
      // As a guest, keeping the secret its first session gave; a player the game server made
      // first gets a token signed as a game server signs one.
      const guest_secret = guestSecrets.get(playerId);
      const res = await booted.server.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { player_id: playerId, ...(guest_secret ? { guest_secret } : {}) },
      });
      if (res.statusCode !== 200) return signPlayerToken(PLAYER_SECRET, playerId, 600);
      if (res.json().guest_secret) guestSecrets.set(playerId, res.json().guest_secret);
      return res.json().token;
    },
    async close() {
      await booted.server.close();
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return booted;
}
