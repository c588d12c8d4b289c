import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const tsx = resolve(root, 'node_modules/.bin/tsx');
const cli = resolve(root, 'engine/src/cli.ts');

function run(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(tsx, ['--conditions=@lootsmith/source', cli, ...args], {
    env: { ...process.env, LOOTSMITH_ENGINE_KEYS: '', LOOTSMITH_ENGINE_KEY: '', ...env },
    cwd: root,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out, err })),
  );
  return { child, done };
}

describe('npm run engine', () => {
  it('prints help', async () => {
    const { code, out } = await run(['--help']).done;
    expect(code).toBe(0);
    expect(out).toContain('--keys FILE');
  });

  it.each([
    [['--port', 'abc'], {}, '--port'],
    [['--port', '70000'], {}, '--port'],
    [['--bogus'], {}, 'bogus'],
    [['--keys', '/nonexistent/keys.json'], {}, '--keys'],
    [['--port', '0'], { LOOTSMITH_ENGINE_KEY: 'short' }, 'LOOTSMITH_ENGINE_KEY'],
    [['--port', '0'], { LOOTSMITH_ENGINE_KEYS: '/nonexistent/keys.json' }, 'LOOTSMITH_ENGINE_KEYS'],
  ])('exits 2 naming the culprit for %j %j', async (args, env, culprit) => {
    const { code, err } = await run(args as string[], env as Record<string, string>).done;
    expect(code).toBe(2);
    expect(err).toContain(culprit);
  });

  it('serves, keeps the key out of its logs, and shuts down on SIGTERM', async () => {
    const key = 'cli-secret-key-0042';
    const { child, done } = run(['--port', '0'], { LOOTSMITH_ENGINE_KEY: key });
    const url = await new Promise<string>((resolveUrl, reject) => {
      let seen = '';
      child.stdout?.on('data', (d) => {
        seen += d;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
        if (m) resolveUrl(m[1] as string);
      });
      child.on('close', () => reject(new Error(`exited early: ${seen}`)));
    });
    const res = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    const { code, out, err } = await done;
    expect(code).toBe(0);
    expect(out + err).not.toContain(key);
    expect(out + err).toContain('/v1/models');
  });
});
