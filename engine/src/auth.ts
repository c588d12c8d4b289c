import { ApiError } from '@lootsmith/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account, AccountBook } from './accounts.ts';

declare module 'fastify' {
  interface FastifyRequest {
    account: Account | undefined;
  }
}

/** The key from `Authorization: Bearer <key>`, or from Basic auth's password (for the usage page in a browser). */
export function presentedKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.trim().split(/\s+/, 2);
  if (!value) return undefined;
  if (scheme?.toLowerCase() === 'bearer') return value;
  if (scheme?.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
}

/** onRequest hook: runs before the body is read, so a missing key is 401 whatever the body holds. */
export function authenticate(book: AccountBook) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const secret = presentedKey(request.headers.authorization);
    const account = secret ? book.find(secret) : undefined;
    if (!account) {
      if (request.url.startsWith('/v1/usage/page'))
        reply.header('www-authenticate', 'Basic realm="lootsmith engine"');
      throw new ApiError(
        401,
        secret ? 'invalid_api_key' : 'missing_api_key',
        secret ? 'API key is invalid' : 'API key is missing: send Authorization: Bearer <key>',
      );
    }
    request.account = account;
  };
}

export function accountOf(request: FastifyRequest): Account {
  if (!request.account) throw new ApiError(401, 'missing_api_key', 'API key is missing');
  return request.account;
}

export function requirePermission(account: Account, permission: 'image' | 'chat'): void {
  if (!account.key.permissions.includes(permission)) {
    throw new ApiError(403, 'permission_denied', `this API key has no ${permission} permission`);
  }
}

export function requireClientAllowed(account: Account, clientId: string): void {
  if (account.key.restricted_clients.includes(clientId)) {
    throw new ApiError(
      403,
      'client_restricted',
      `client_id ${JSON.stringify(clientId)} is restricted for this API key`,
    );
  }
}

/** Takes the cost from the balance now; the caller refunds it if the generation fails. */
export function reserveCredits(account: Account, cost: number): void {
  if (!account.credits.reserve(cost)) {
    throw new ApiError(
      403,
      'insufficient_credits',
      `out of credits: this request costs ${cost}, ${account.credits.remaining} left`,
    );
  }
}
