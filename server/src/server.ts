import type { FastifyInstance } from 'fastify';
import type { RequestLog } from './admin/requests.ts';
import { type AppOptions, buildStandaloneApp } from './app.ts';
import type { Config } from './config.ts';
import type { Core } from './service/core.ts';
import { startServices } from './services.ts';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** The services behind the routes, and through `core.deps` the store, game and the rest. */
  core: Core;
  /** The console's request log (tests flush it). */
  requestLog: RequestLog;
  /** Where the `/v1` service is: the embedded engine's loopback URL when none is configured. */
  upstreamUrl: string;
  /** Whether that is the embedded engine. */
  embedded: boolean;
  close(): Promise<void>;
}

/** Starts the standalone server: services, app and (unless `listen: false`) the listening socket. */
export async function startServer(
  config: Config,
  options: AppOptions & { listen?: boolean } = {},
): Promise<RunningServer> {
  const services = await startServices(config, { store: options.store });
  const app = await buildStandaloneApp(services, options);
  let url = '';
  if (options.listen !== false) {
    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  }
  return {
    app,
    url,
    core: services.core,
    requestLog: services.requestLog,
    upstreamUrl: services.upstreamUrl,
    embedded: services.embedded,
    // Fastify's close waits for in-flight requests, then closes the services (an onClose hook).
    close: () => app.close(),
  };
}
