import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServerProcess, startServerProcess } from '@lootsmith/test-support/process';
import { afterEach, describe, expect, it } from 'vitest';

const SERVER_KEY = 'log-format-server-key-0123456789';
let server: ServerProcess | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `lootsmith`, sends two requests (one with the server key in its URL) and returns its output lines. */
async function logsOf(env: Record<string, string>): Promise<string[]> {
  dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-logs-'));
  server = await startServerProcess({
    LOOTSMITH_DATA_DIR: dataDir,
    LOOTSMITH_SERVER_KEY: SERVER_KEY,
    ...env,
  });
  await (await fetch(`${server.url}/health?key=${SERVER_KEY}`)).text();
  await (await fetch(`${server.url}/no-such-page`)).text();
  await server.stop();
  return server.output().trim().split('\n');
}

describe('the log lines of `lootsmith`', () => {
  it('are readable in development: one line per request, secrets still scrubbed', async () => {
    const lines = await logsOf({});
    expect(lines.some((l) => l.startsWith('{'))).toBe(false);
    const access = lines.filter((l) => l.includes('incoming request'));
    expect(access).toEqual([
      expect.stringMatching(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: incoming request GET \/health\?key=\[redacted\] 200 in \d+ ms/,
      ),
      expect.stringMatching(/INFO: incoming request GET \/no-such-page 404 in \d+ ms/),
    ]);
    expect(lines.join('\n')).not.toContain(SERVER_KEY);
  });

  it('are JSON lines in production, secrets scrubbed', async () => {
    const lines = await logsOf({
      NODE_ENV: 'production',
      LOOTSMITH_PLAYER_SECRET: 'log-format-player-secret-0123456789ab',
    });
    const entries = lines.map((l) => JSON.parse(l) as { msg: string; req?: { url: string } });
    const access = entries.filter((e) => e.msg === 'incoming request');
    expect(access.map((e) => e.req?.url)).toEqual(['/health?key=[redacted]', '/no-such-page']);
    expect(lines.join('\n')).not.toContain(SERVER_KEY);
  });
});
