import { parseRequest } from '@lootsmith/protocol';
import type { FastifyReply } from 'fastify';
import type { ZodType } from 'zod';
import type { Principal } from '../auth.ts';
import { Cancel } from '../cancel.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling; throws 401 when the Authorization header is missing or bad. */
    principal(): Principal;
    /** `principal()` once it succeeded. */
    verifiedPrincipal: Principal | null;
    /**
     * For the console's figures, the code of a 2xx answer: the game's refusal it gives in its body (a
     * combine's verdict), or `replayed` for an answer given again for a repeated Idempotency-Key.
     */
    verdict: string | null;
    /** The request's id in the console's request log (null until given, and when the log is off). */
    logId: string | null;
  }
}

/** Parses a body (or params, a query) with its protocol schema; 400 naming every invalid field under `where`. */
export function parse<T>(schema: ZodType<T>, value: unknown, where = 'body'): T {
  return parseRequest(schema, value, where);
}

/** Calls `abort` if the client goes away before its answer. */
function onHangUp(reply: FastifyReply, abort: () => void) {
  // Not the request stream: it closes as soon as its body is read. The response closes when it is
  // sent or when the connection drops, and only a drop leaves it unfinished.
  if (reply.raw.socket?.destroyed) abort();
  else
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) abort();
    });
}

/** An AbortSignal that fires when the client goes away before its answer, so upstream work stops with it. */
export function clientSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  onHangUp(reply, () => controller.abort());
  return controller.signal;
}

/** `clientSignal` for the hot forward routes, as a `Cancel` (far cheaper than an AbortController). */
export function clientCancel(reply: FastifyReply): Cancel {
  const cancel = new Cancel();
  onHangUp(reply, () => cancel.abort());
  return cancel;
}
