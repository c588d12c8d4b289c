import type { FastifyReply, FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';
import { isColorSupported } from 'pino-pretty';

/** Writes the one line of an answered request, `ms` after it arrived. */
export type AccessLog = (request: FastifyRequest, reply: FastifyReply, ms: number) => void;

const MESSAGE = 'incoming request';

/** Whether `level` lets an info line (pino's 30) through; `silent`, which pino gives no number, does not. */
const writesInfo = (level: string) => (pino.levels.values[level] ?? Number.POSITIVE_INFINITY) <= 30;

/** JSON lines through pino, the shape log searches read in production. */
export function jsonAccessLog(
  level: string,
  hooks: NonNullable<LoggerOptions['hooks']>,
  stream: DestinationStream,
): AccessLog | undefined {
  if (!writesInfo(level)) return undefined;
  // Its fields are fixed and carry no header: it needs no redaction, which would cost more than the line.
  const log = pino({ level, hooks }, stream);
  return (request, reply, ms) =>
    log.info(
      {
        reqId: request.id,
        req: { method: request.method, url: request.url },
        res: { statusCode: reply.statusCode },
        responseTime: ms,
      },
      MESSAGE,
    );
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * The line pino-pretty writes for an access entry in development (`[12:00:00.000] INFO: incoming
 * request GET /url 200 in 3 ms {"reqId":"req-1"}`, coloured as it colours it), put together directly:
 * through pino and pino-pretty (stringify, parse, copy, date format) it cost more than the rest of an
 * inventory read. `write` gets the whole line.
 */
export function readableAccessLog(level: string, write: (line: string) => void): AccessLog | undefined {
  if (!writesInfo(level)) return undefined;
  const [label, message, rest, end] = isColorSupported
    ? ['\u001b[32mINFO\u001b[39m', '\u001b[36m', '\u001b[39m \u001b[90m', '\u001b[39m']
    : ['INFO', '', ' ', ''];
  return (request, reply, ms) => {
    const t = new Date();
    const time = `${two(t.getHours())}:${two(t.getMinutes())}:${two(t.getSeconds())}.${three(t.getMilliseconds())}`;
    write(
      `[${time}] ${label}: ${message}${MESSAGE} ${request.method} ${request.url} ${reply.statusCode} in ${Math.round(ms)} ms${rest}{"reqId":${JSON.stringify(request.id)}}${end}\n`,
    );
  };
}
