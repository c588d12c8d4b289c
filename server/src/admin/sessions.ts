import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '@lootsmith/protocol';
import { safeEqual } from '../auth.ts';
import type { AdminStore, ConsoleSessionRow } from './store.ts';

/** The part of the store sessions use. */
export type SessionStore = Pick<AdminStore, 'createSession' | 'session' | 'touchSession' | 'deleteSession'>;

/** A session ends after this long idle, and after this long in any case. */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_MAX_MS = 8 * 3_600_000;
/** How stale a session's last-seen time may get before a request writes it again. */
const TOUCH_MS = 60_000;
/** Failed sign-ins allowed per address and minute. */
const SIGN_IN_LIMIT = 10;

export type ConsoleMode = 'credential' | 'open' | 'disabled';

/** Fingerprint of a credential: a session opened with it ends when it is no longer configured. */
const fingerprint = (credential: string) =>
  createHash('sha256').update(`lootsmith-console:${credential}`).digest('hex').slice(0, 32);
/** The stored id of a session token: the token itself is never stored. */
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export interface OpenedSession {
  token: string;
  csrf: string;
  expiresAt: number;
}

/**
 * Console sign-in and sessions, in the store so every instance knows them. Credentials: the server
 * credential and the console password. With neither, production has no console and a development
 * server lets loopback sign in without one.
 */
export class ConsoleSessions {
  readonly mode: ConsoleMode;
  private readonly credentials: string[];
  private readonly fingerprints: Set<string>;

  constructor(
    private readonly store: SessionStore,
    private readonly hit: (key: string, windowMs: number, now: number) => Promise<{ count: number }>,
    config: { serverKey?: string; consolePassword?: string; production: boolean },
  ) {
    this.credentials = [config.serverKey, config.consolePassword].filter((c): c is string => !!c);
    this.mode = this.credentials.length ? 'credential' : config.production ? 'disabled' : 'open';
    this.fingerprints = new Set(this.mode === 'open' ? ['open'] : this.credentials.map(fingerprint));
  }

  /**
   * Opens a session for a caller who gave a configured credential (or, `open`, who is on this machine).
   * Only failures count against the address: whoever holds the credential is never locked out by
   * someone else's guesses from the same address (a proxy's), and guessing one that passes the
   * production checks is hopeless anyway.
   */
  async signIn(
    credential: string,
    caller: { address: string; thisMachine: boolean },
  ): Promise<OpenedSession> {
    const now = Date.now();
    const match = this.credentials.find((c) => safeEqual(credential, c));
    const used = this.mode === 'open' ? caller.thisMachine && 'open' : match && fingerprint(match);
    if (!used) {
      const { count } = await this.hit(`console-sign-in:${caller.address}`, 60_000, now);
      if (count > SIGN_IN_LIMIT)
        throw new ApiError(429, 'rate_limit_exceeded', 'Too many failed sign-ins; wait a minute', {
          headers: { 'retry-after': '60' },
        });
      throw this.mode === 'open'
        ? new ApiError(403, 'forbidden', 'Without a console credential, only this machine may sign in')
        : new ApiError(401, 'unauthorized', 'That is not the console password or the server key');
    }
    const token = randomBytes(32).toString('base64url');
    const csrf = randomBytes(24).toString('base64url');
    const session: ConsoleSessionRow = {
      id: hashOf(token),
      csrf,
      credential: used,
      createdAt: now,
      seenAt: now,
      expiresAt: now + SESSION_MAX_MS,
    };
    await this.store.createSession(session);
    return { token, csrf, expiresAt: session.expiresAt };
  }

  /** The live session of a token; null when there is none, it has expired, or its credential changed. */
  async check(token: string): Promise<(ConsoleSessionRow & { endsAt: number }) | null> {
    const id = hashOf(token);
    const session = await this.store.session(id);
    if (!session) return null;
    const now = Date.now();
    if (
      now >= session.expiresAt ||
      now - session.seenAt >= SESSION_IDLE_MS ||
      !this.fingerprints.has(session.credential)
    ) {
      await this.store.deleteSession(id);
      return null;
    }
    if (now - session.seenAt >= TOUCH_MS) {
      await this.store.touchSession(id, now);
      session.seenAt = now;
    }
    return { ...session, endsAt: Math.min(session.expiresAt, session.seenAt + SESSION_IDLE_MS) };
  }

  async signOut(token: string) {
    await this.store.deleteSession(hashOf(token));
  }
}
