import { errorBody } from '@lootsmith/protocol';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import pino from 'pino';
import { prettyFactory } from 'pino-pretty';
import { jsonAccessLog, readableAccessLog } from './access-log.ts';
import { registerApi } from './api.ts';
import { type Config, type LootsmithOptions, resolveConfig } from './config.ts';
import { type Services, startServices } from './services.ts';
import type { Store } from './store/store.ts';

const REDACT = ['req.headers.authorization', 'headers.authorization', 'authorization', '*.authorization'];

/**
 * Standard output, written asynchronously in batches of at least 12 KB (sonic-boom writes up to 16 KB
 * at once) or every 100 ms: a request never waits for a log write, and thousands of lines a second
 * cost a few writes. A crash loses at most the last 100 ms of lines.
 */
const logDestination = () =>
  pino.destination({ dest: 1, sync: false, minLength: 12 * 1024, periodicFlush: 100 });

/** Development logs for a person at a terminal: one readable line per entry, access lines as `GET /url 200 in 3 ms`. */
const readableLine = () =>
  prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    singleLine: true,
    ignore: 'pid,hostname,req,res,responseTime',
    messageFormat: (log, key) => {
      const { req, res, responseTime } = log as {
        req?: { method?: string; url?: string };
        res?: { statusCode?: number };
        responseTime?: number;
      };
      const message = String(log[key] ?? '');
      return req?.method
        ? `${message} ${req.method} ${req.url} ${res?.statusCode ?? ''} in ${Math.round(responseTime ?? 0)} ms`
        : message;
    },
  });

export interface AppOptions {
  store?: Store;
  /**
   * Where logs go, as JSON lines; tests read them to prove secrets stay out. By default standard output:
   * JSON lines in production, readable lines in development.
   */
  logStream?: NodeJS.WritableStream;
}

/** The standalone Fastify app over running services: logger with redaction, URL errors in the one shape. */
export async function buildStandaloneApp(
  services: Services,
  options: Pick<AppOptions, 'logStream'> = {},
): Promise<FastifyInstance> {
  const { config } = services;
  // The last look before a line is written: no secret leaves in a log, whatever was logged.
  const scrub = (line: string) => (services.secrets.leaks(line) ? services.secrets.scrub(line) : line);
  const format = options.logStream || config.production ? undefined : readableLine();
  const hooks = { streamWrite: format ? (line: string) => scrub(format(line)) : scrub };
  const stream = options.logStream ?? logDestination();
  const accessLog = format
    ? readableAccessLog(config.logLevel, (line) => stream.write(scrub(line)))
    : jsonAccessLog(config.logLevel, hooks, stream);
  const app = Fastify({
    logger: { level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' }, hooks, stream },
    // One line per request (the access log, written by the API's onResponse hook) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy ?? false,
    return503OnClosing: false,
    // A URL that cannot be decoded is refused before routing; it still gets the one error body.
    frameworkErrors: (err, _request, reply) =>
      (reply as unknown as FastifyReply).status(400).send(errorBody('bad_url', err.message)),
  });
  app.addHook('onClose', () => services.close());
  closeConnectionsWhenDone(app);
  await registerApi(app, services, { accessLog });
  return app;
}

/**
 * Shutting down waits for requests in flight, then closes every connection left: keep-alive ones, and
 * ones a client opened ahead of a request it never sent, which would otherwise hold `close()` open
 * until their headers time out.
 */
function closeConnectionsWhenDone(app: FastifyInstance) {
  let inFlight = 0;
  let closing = false;
  const closeIfDone = () => {
    if (closing && inFlight === 0) app.server.closeAllConnections();
  };
  app.server.on('request', (_request, response) => {
    inFlight++;
    response.once('close', () => {
      inFlight--;
      closeIfDone();
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    closeIfDone();
  });
}

/**
 * The whole Lootsmith server as a Fastify app, not yet listening: `await app.listen({ port })`.
 * `options` are validated like the environment of the `lootsmith` command (a bad value throws).
 */
export async function buildLootsmithApp(
  options: LootsmithOptions | Config = {},
  appOptions: AppOptions = {},
): Promise<FastifyInstance> {
  const config = 'upstream' in options ? options : resolveConfig(options);
  const services = await startServices(config, { store: appOptions.store });
  return buildStandaloneApp(services, appOptions);
}
