import { buildEngineApp } from './app.ts';
import { type EngineKeyConfig, generateKey, unlimitedKey } from './keys.ts';

export { buildEngineApp, type EngineOptions } from './app.ts';
export type { EngineKeyConfig } from './keys.ts';
export { PAINTER_MODEL, WRITER_MODEL } from './models.ts';
export { type PaintRequest, paintImage } from './painter/index.ts';
export { type Completion, type WriteRequest, writeCompletion } from './writer/index.ts';
export { isThingIn, readWishFor, type Wish } from './writer/requests.ts';

export interface StartEngineOptions {
  host?: string;
  port?: number;
  keys?: EngineKeyConfig[];
  key?: string;
  logger?: boolean;
}

export interface RunningEngine {
  /** Like `http://127.0.0.1:43123`: no trailing slash, no /v1. */
  url: string;
  /** A key that works: the given `key`, the generated one, or the first of `keys`. */
  key: string;
  close(): Promise<void>;
}

/** Starts the engine on loopback (port 0 by default); without keys, one unlimited key is used or generated. */
export async function startEngine(options: StartEngineOptions = {}): Promise<RunningEngine> {
  const keys = options.keys?.length ? options.keys : [unlimitedKey(options.key ?? generateKey())];
  const app = await buildEngineApp({ keys, logger: options.logger ?? false });
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    key: (keys[0] as EngineKeyConfig).key,
    close: async () => {
      await app.close();
    },
  };
}
