import { randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { refuse } from '../refusal.ts';

/** Audience of a drop grant, so no other token signed with the same key passes for one. */
const AUDIENCE = 'lootsmith:drop';

export interface DropGrantClaims {
  playerId: string;
  /** The enemy's game-definition id; leave it out for a drop that names no enemy (tier 1). */
  enemy?: string;
  level: number;
}

export interface VerifiedDropGrant extends DropGrantClaims {
  id: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/**
 * Signs a single-use drop grant with the server credential (`LOOTSMITH_SERVER_KEY`), for a game server
 * to hand its player's client when an enemy falls: HS256, `sub` = player, a fresh `jti`, short-lived.
 */
export function signDropGrant(serverKey: string, claims: DropGrantClaims, ttlSeconds = 60): string {
  return createSigner({
    key: serverKey,
    algorithm: 'HS256',
    expiresIn: ttlSeconds * 1000,
    aud: AUDIENCE,
    sub: claims.playerId,
    jti: randomUUID(),
  })({ level: claims.level, ...(claims.enemy ? { enemy: claims.enemy } : {}) });
}

/** Checks grants against the server credential; a grant that passes is not yet spent (the store does that). */
export class DropGrantVerifier {
  private readonly verify?: (token: string) => Record<string, unknown>;

  constructor(
    serverKey: string | undefined,
    private readonly maxTtlSeconds: number,
  ) {
    if (serverKey)
      this.verify = createVerifier({
        key: serverKey,
        algorithms: ['HS256'],
        allowedAud: AUDIENCE,
        requiredClaims: ['sub', 'jti', 'iat', 'exp', 'aud', 'level'],
      });
  }

  check(token: string): VerifiedDropGrant {
    if (!this.verify)
      throw refuse('grant_invalid', 'This server has no server credential to check drop grants with');
    let claims: Record<string, unknown>;
    try {
      claims = this.verify(token);
    } catch (err) {
      if ((err as { code?: string }).code === 'FAST_JWT_EXPIRED')
        throw refuse('grant_expired', 'The drop grant has expired; ask the game server for a new one');
      throw refuse('grant_invalid', 'The drop grant is not one the game server signed');
    }
    const { sub, jti, iat, exp, enemy, level } = claims;
    if (
      typeof sub !== 'string' ||
      typeof jti !== 'string' ||
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      !Number.isInteger(level) ||
      (enemy !== undefined && typeof enemy !== 'string')
    )
      throw refuse('grant_invalid', 'The drop grant lacks a player, id, level or lifetime');
    if (exp - iat > this.maxTtlSeconds)
      throw refuse(
        'grant_invalid',
        `The drop grant lives longer than ${this.maxTtlSeconds} s (loot_authority.grant_max_ttl_seconds)`,
      );
    return { id: jti, playerId: sub, enemy, level: level as number, expiresAt: exp * 1000 };
  }
}
