import { timingSafeEqual } from 'node:crypto';
import { ApiError, BoundedMap, PlayerId } from '@lootsmith/protocol';
import { createSigner, createVerifier } from 'fast-jwt';
import { refuse } from './refusal.ts';

/** Who calls: a player (with when its token was issued, in ms) or the game server. */
export type Principal = { kind: 'player'; playerId: string; issuedAt: number } | { kind: 'server' };

/** How far a token's `iat` may be ahead of this server's clock (a game server's clock a little fast). */
const CLOCK_SKEW_MS = 60_000;

/**
 * A player token for game servers that log players in themselves (HS256, `sub` = player id). Besides
 * `iat` (whole seconds) it carries `iat_ms`, the issue time to the millisecond, so a block is exact
 * to it: a token signed right after an unblock stands even in the block's own second.
 */
export function signPlayerToken(secret: string, playerId: string, ttlSeconds: number): string {
  const now = Date.now();
  return createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000, clockTimestamp: now })(
    { sub: playerId, iat_ms: now },
  );
}

/**
 * When a token was issued, in ms: its `iat_ms` when that falls in its `iat`'s second, else the start of
 * that second (so a token of a block's own second counts as issued before it); never later than now.
 */
function issuedAtMs(claims: { iat?: unknown; iat_ms?: unknown }, now: number): number {
  const iat = claims.iat;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new Error('no iat');
  if (iat * 1000 > now + CLOCK_SKEW_MS)
    throw new ApiError(
      401,
      'unauthorized',
      "The player token was issued in the future (iat); check the game server's clock",
    );
  const exact = claims.iat_ms;
  const claimed =
    typeof exact === 'number' && Number.isInteger(exact) && Math.floor(exact / 1000) === iat
      ? exact
      : Math.floor(iat * 1000);
  return Math.min(claimed, now);
}

/** Verified player tokens remembered until they expire: a player's calls pay for the HMAC once. */
const VERIFIED_TOKENS = 50_000;

export class Authenticator {
  private readonly verify: (token: string) => { sub?: unknown; exp?: unknown };
  /** Tokens whose signature checked out, by the token itself (no two tokens share a key). */
  private readonly verified = new BoundedMap<string, { principal: Principal; expiresAt: number }>(
    VERIFIED_TOKENS,
  );

  constructor(
    private readonly secret: string,
    private readonly serverKey?: string,
    /** Longest lifetime (exp − iat) a token may have, in seconds. */
    private readonly maxTtlSeconds = Number.POSITIVE_INFINITY,
  ) {
    this.verify = createVerifier({
      key: secret,
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'exp', 'iat'],
    });
  }

  sign(playerId: string, ttlSeconds: number) {
    return signPlayerToken(this.secret, playerId, ttlSeconds);
  }

  /** The principal of an Authorization header; 401 when it is missing, forged or expired. */
  principal(header: string | undefined): Principal {
    const token = bearerToken(header);
    if (!token) throw new ApiError(401, 'unauthorized', 'Send `Authorization: Bearer <player token>`');
    if (this.serverKey && safeEqual(token, this.serverKey)) return { kind: 'server' };
    const known = this.verified.get(token);
    if (known && known.expiresAt > Date.now()) return known.principal;
    try {
      const claims = this.verify(token) as { sub?: unknown; exp?: unknown; iat?: unknown; iat_ms?: unknown };
      // A subject the routes could not name is no player: it could never be looked up or blocked.
      const subject = PlayerId.safeParse(claims.sub);
      if (!subject.success) throw new Error('no player id as subject');
      const issuedAt = issuedAtMs(claims, Date.now());
      if (!(Number(claims.exp) * 1000 - issuedAt <= this.maxTtlSeconds * 1000))
        throw new ApiError(
          401,
          'unauthorized',
          `The player token lives longer than this server allows (${this.maxTtlSeconds} s); issue a shorter one`,
        );
      const principal: Principal = { kind: 'player', playerId: subject.data, issuedAt };
      this.verified.set(token, { principal, expiresAt: Number(claims.exp) * 1000 });
      return principal;
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const expired = (err as { code?: string }).code === 'FAST_JWT_EXPIRED';
      throw new ApiError(
        401,
        expired ? 'token_expired' : 'unauthorized',
        expired ? 'The player token has expired; get a new one' : 'The player token is invalid',
      );
    }
  }
}

export const bearerToken = (header: string | undefined) => /^Bearer (.+)$/i.exec(header ?? '')?.[1]?.trim();

/**
 * Compares secrets in constant time. Strings of different lengths differ (their lengths are no secret):
 * a player token, compared with the server key on every request, is not copied into buffers for it.
 */
export function safeEqual(a: string, b: string) {
  if (a.length !== b.length) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Refused `forbidden` unless the principal may act for this player. */
export function assertActsFor(principal: Principal, playerId: string) {
  if (principal.kind === 'player' && principal.playerId !== playerId)
    throw refuse('forbidden', `This token belongs to player ${principal.playerId}, not ${playerId}`);
}

/** A token issued before the player's block: refused for good, whatever happened since. */
export const tokenRevoked = () =>
  new ApiError(
    401,
    'token_revoked',
    'This player token was issued before the player was blocked; get a new one',
  );

/** Refused 401 when the player's token was issued at or before `tokensAfter` (a block, in ms). */
export function assertTokenCurrent(principal: Principal, tokensAfter: number | null) {
  if (principal.kind === 'player' && tokensAfter !== null && principal.issuedAt <= tokensAfter)
    throw tokenRevoked();
}

/** When a player's token was issued, in ms; undefined for the server credential. */
export const issuedAt = (principal: Principal) =>
  principal.kind === 'player' ? principal.issuedAt : undefined;

export function assertServer(principal: Principal) {
  if (principal.kind !== 'server')
    throw refuse('forbidden', 'This route needs the server credential (LOOTSMITH_SERVER_KEY)');
}
