import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ONE_ADDRESS } from '@lootsmith/test-support/process';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Child {
  url: string;
  pid: number;
  /** SIGTERM, then waits for the exit (a CPU profile is written on the way out). */
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript entry point in its own Node process (workspace sources, through tsx) and waits
 * for the first `http://127.0.0.1:PORT` it prints. Output goes to a file, as a server's logs would,
 * so reading it costs the load generator nothing.
 */
export async function startChild(
  entry: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
  timeoutMs = 60_000,
): Promise<Child> {
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-log-'));
  const log = join(dir, 'output.log');
  const fd = openSync(log, 'w');
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, '--conditions=@lootsmith/source', '--import', 'tsx', entry],
    { cwd: ROOT, env: { PATH: process.env.PATH, ...ONE_ADDRESS, ...env }, stdio: ['ignore', fd, fd] },
  );
  closeSync(fd);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  const started = Date.now();
  let url: string | undefined;
  while (!url) {
    const output = readFileSync(log, 'utf8');
    url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    if (url) break;
    if (exited !== undefined || Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${entry} did not start (exit ${exited}):\n${output.slice(0, 4000)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exit = once(child, 'exit');
        child.kill('SIGTERM');
        await exit;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
