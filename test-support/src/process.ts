import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../server/src/cli.ts', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote, for assertions about its logs. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Per-address limits out of reach: a suite's or benchmark's players all come from loopback. */
export const ONE_ADDRESS = {
  LOOTSMITH_SESSIONS_PER_ADDRESS: '1000000',
  LOOTSMITH_GUEST_REQUESTS_PER_ADDRESS: '10000000',
};

/** Starts `lootsmith` as a child process on a free loopback port and waits for its URL. */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--conditions=@lootsmith/source', '--import', 'tsx', CLI], {
    env: {
      PATH: process.env.PATH,
      LOOTSMITH_PORT: '0',
      LOOTSMITH_LOG_LEVEL: 'info',
      // Every test and benchmark player comes from this one address.
      ...ONE_ADDRESS,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /serving .* at (http:\/\/[^\s"/]+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
