import { ConsoleSession, ConsoleSignIn } from '@lootsmith/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, safeEqual } from '../auth.ts';
import { isLoopback } from '../config.ts';
import { ApiError } from '../http/errors.ts';
import { parse } from '../http/request.ts';
import { docs } from '../routes/schemas.ts';
import { type ConsoleSessions, SESSION_MAX_MS } from './sessions.ts';

const COOKIE = 'lootsmith_console';
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Who is using the console: a signed-in session, or a script holding the server credential. */
export type ConsoleActor = 'console' | 'server';
const actors = new WeakMap<FastifyRequest, ConsoleActor>();
export const actorOf = (request: FastifyRequest): ConsoleActor => actors.get(request) ?? 'console';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A console route anyone may call (the sign-in itself); every other needs a session or the server key. */
    consolePublic?: boolean;
  }
}

/**
 * Whether the caller is a browser on this machine that asked this machine: a loopback socket, a
 * loopback `Host` and `Origin` (a DNS-rebinding page sends its own name), and no proxy's forwarding
 * headers (a reverse proxy on this machine would make everyone look local).
 */
function fromThisMachine(request: FastifyRequest): boolean {
  if (!LOOPBACK.has(request.socket.remoteAddress ?? '')) return false;
  if (Object.keys(request.headers).some((h) => h === 'forwarded' || h.startsWith('x-forwarded-')))
    return false;
  const { host, origin } = request.headers;
  return loopbackUrl(`http://${host}`) && (origin === undefined || loopbackUrl(origin));
}

function loopbackUrl(text: string): boolean {
  try {
    return isLoopback(new URL(text).hostname);
  } catch {
    return false;
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site sends it), Secure over https, and
 * sent only to the console's API, under the prefix Lootsmith is mounted at (none of a game's routes).
 */
function setCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAgeS: number) {
  const forwarded = request.headers['x-forwarded-proto'];
  const https =
    request.protocol === 'https' || (typeof forwarded === 'string' && forwarded.startsWith('https'));
  const path = `${request.server.prefix}/api/v1/admin`;
  reply.header(
    'set-cookie',
    `${COOKIE}=${value}; Path=${path}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Strict${https ? '; Secure' : ''}`,
  );
}

/** Whether a request carries the server credential or a live console session: the operator's. */
export async function fromOperator(
  request: FastifyRequest,
  sessions: ConsoleSessions,
  serverKey: string | undefined,
): Promise<boolean> {
  const bearer = bearerToken(request.headers.authorization);
  if (bearer !== undefined) return !!serverKey && safeEqual(bearer, serverKey);
  const token = readCookie(request.headers.cookie, COOKIE);
  return !!token && (await sessions.check(token)) !== null;
}

/** Production without a credential has no console: its page and API are refused outright. */
export function refuseWhenDisabled(app: FastifyInstance, sessions: ConsoleSessions) {
  app.addHook('onRequest', async () => {
    if (sessions.mode === 'disabled')
      throw new ApiError(
        403,
        'console_disabled',
        'The console is off: set LOOTSMITH_CONSOLE_PASSWORD (or LOOTSMITH_SERVER_KEY) to use it in production',
      );
  });
}

/**
 * The console API's door, on every route of its context: the server credential as a bearer token
 * (for scripts), or a session cookie with, on anything that changes state, its CSRF token in
 * `x-csrf-token`. A player token gets nothing.
 */
export function registerConsoleAuth(
  app: FastifyInstance,
  sessions: ConsoleSessions,
  serverKey: string | undefined,
) {
  refuseWhenDisabled(app, sessions);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.consolePublic) return;
    const bearer = bearerToken(request.headers.authorization);
    if (bearer !== undefined) {
      if (serverKey && safeEqual(bearer, serverKey)) {
        actors.set(request, 'server');
        return;
      }
      throw new ApiError(403, 'forbidden', 'The console takes a console session or the server credential');
    }
    const token = readCookie(request.headers.cookie, COOKIE);
    const session = token ? await sessions.check(token) : null;
    if (!session) throw new ApiError(401, 'unauthorized', 'Sign in to the console first');
    if (!SAFE_METHODS.has(request.method)) {
      const csrf = request.headers['x-csrf-token'];
      if (typeof csrf !== 'string' || !safeEqual(csrf, session.csrf))
        throw new ApiError(403, 'forbidden', 'Send the session’s CSRF token in x-csrf-token');
    }
  });

  const docsOf = (summary: string, parts: Parameters<typeof docs>[1] = {}) =>
    docs(`Console: ${summary}`, { ...parts, response: ConsoleSession, tags: ['admin'] });

  app.get(
    '/api/v1/admin/session',
    {
      schema: docsOf('whether this browser is signed in (and its CSRF token)'),
      config: { consolePublic: true },
    },
    async (request): Promise<ConsoleSession> => {
      const token = readCookie(request.headers.cookie, COOKIE);
      const session = token ? await sessions.check(token) : null;
      if (!session) return { mode: sessions.mode, signed_in: false };
      return {
        mode: sessions.mode,
        signed_in: true,
        csrf_token: session.csrf,
        expires_at: new Date(session.endsAt).toISOString(),
      };
    },
  );

  app.post(
    '/api/v1/admin/session',
    {
      schema: docsOf('sign in with the console password or the server credential; sets an HttpOnly cookie', {
        body: ConsoleSignIn,
      }),
      config: { consolePublic: true },
    },
    async (request, reply): Promise<ConsoleSession> => {
      const { credential } = parse(ConsoleSignIn, request.body);
      const opened = await sessions.signIn(credential, {
        address: request.ip,
        thisMachine: fromThisMachine(request),
      });
      setCookie(request, reply, opened.token, SESSION_MAX_MS / 1000);
      return {
        mode: sessions.mode,
        signed_in: true,
        csrf_token: opened.csrf,
        expires_at: new Date(opened.expiresAt).toISOString(),
      };
    },
  );

  app.delete(
    '/api/v1/admin/session',
    { schema: docsOf('sign out') },
    async (request, reply): Promise<ConsoleSession> => {
      const token = readCookie(request.headers.cookie, COOKIE);
      if (token) await sessions.signOut(token);
      setCookie(request, reply, '', 0);
      return { mode: sessions.mode, signed_in: false };
    },
  );
}
