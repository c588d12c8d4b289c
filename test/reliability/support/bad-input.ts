import { createHmac } from 'node:crypto';
import fc from 'fast-check';

/** Strings heavy in multi-byte graphemes: emoji, combining marks, right-to-left, astral planes. */
export const unicode = (constraints: { minLength?: number; maxLength?: number } = {}) =>
  fc.string({ unit: 'grapheme', ...constraints });

/** Any JSON value that is not a string. */
export const notString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(unicode({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(unicode({ maxLength: 6 }), fc.integer(), { maxKeys: 3 }),
);

/** Any JSON value that is not a whole number. */
export const notInteger = fc.oneof(
  unicode({ maxLength: 8 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
);

export const notBoolean = fc.oneof(
  fc.integer(),
  unicode({ maxLength: 8 }),
  fc.constant(null),
  fc.array(fc.boolean()),
);
export const notArray = fc.oneof(
  fc.integer(),
  unicode({ maxLength: 8 }),
  fc.constant(null),
  fc.boolean(),
  fc.dictionary(unicode({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);
export const notObject = fc.oneof(
  fc.integer(),
  unicode({ maxLength: 8 }),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 2 }),
);

/** Integers outside [min, max], or no integer at all. */
export const outOfRange = (min: number, max: number) =>
  fc.oneof(
    fc.integer({ min: Math.min(min - 1, -(2 ** 31)), max: min - 1 }),
    fc.integer({ min: max + 1, max: Math.max(max + 1, 2 ** 31 - 1) }),
    notInteger,
  );

/** A string longer than `max` (counted in UTF-16 units, as zod counts), or not a string. */
export const tooLong = (max: number) =>
  fc.oneof(
    fc.constantFrom('x', '\u{1F5E1}', 'é', '\u202E').map((c) => c.repeat(max + 1)),
    unicode({ minLength: max + 1, maxLength: max + 40 }).filter((s) => s.length > max),
    notString,
  );

/** What a trimmed `min(1)` text rejects: empty, blank, too long, not a string. */
export const badText = (max: number) => fc.oneof(fc.constantFrom('', '   ', '\t\n'), tooLong(max));

/** Player ids the protocol's one rule refuses: empty, over 128 characters, with a control or format character. */
export const badPlayerId = fc.oneof(
  fc.constant(''),
  tooLong(128),
  fc
    .tuple(
      unicode({ maxLength: 10 }),
      fc.constantFrom('\u0000', '\n', '\u202E', '\u200B'),
      unicode({ maxLength: 10 }),
    )
    .map(([before, bad, after]) => before + bad + after),
);

export const badArray = (min: number, max: number, element: fc.Arbitrary<unknown>) =>
  fc.oneof(
    notArray,
    min > 0 ? fc.constant([]) : fc.constant(null),
    fc.array(element, { minLength: max + 1, maxLength: max + 3 }),
  );

/** A key no schema knows: every body schema is strict, so this alone makes a body invalid. */
export const unknownKey = fc
  .tuple(fc.constantFrom('x_', '\u{1F480}', '__', 'ⓩ'), unicode({ maxLength: 12 }))
  .map(([a, b]) => a + b);

/** Sets `value` at `path` in a copy of `body`. */
export function setPath(body: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1] as string | number] = value;
  return copy;
}

export function deletePath(body: unknown, path: (string | number)[]): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  delete at[path[path.length - 1] as string | number];
  return copy;
}

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

/** An HS256 token with the given claims and secret, built by hand so it can be wrong in every way. */
export function jwt(claims: Record<string, unknown>, secret: string, header: Record<string, unknown> = {}) {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', ...header }));
  const body = b64url(JSON.stringify(claims));
  const sig = b64url(createHmac('sha256', secret).update(`${head}.${body}`).digest());
  return `${head}.${body}.${sig}`;
}

/** Authorization headers that must be refused with 401, whatever the route. */
export function badAuthorization(playerId: string, realSecret: string) {
  const now = Math.floor(Date.now() / 1000);
  const bearer = (token: string) => `Bearer ${token}`;
  const signed = jwt({ sub: playerId, exp: now + 600 }, realSecret);
  return fc
    .oneof(
      fc.constant(undefined),
      fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'bearer\t', 'Token abc', signed),
      fc.stringMatching(/^[\x21-\x7e]{1,80}$/).map(bearer),
      fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
      // Signed with another secret; expired; no subject; no expiry; alg none; HS512; a forged signature.
      fc.constant(bearer(jwt({ sub: playerId, exp: now + 600 }, 'not-the-secret-0123456789abcdef'))),
      fc
        .integer({ min: 1, max: 10 ** 6 })
        .map((ago) => bearer(jwt({ sub: playerId, exp: now - ago }, realSecret))),
      fc.constant(bearer(jwt({ exp: now + 600 }, realSecret))),
      fc.constant(bearer(jwt({ sub: playerId }, realSecret))),
      fc.constant(bearer(jwt({ sub: 42, exp: now + 600 }, realSecret))),
      fc.constant(
        bearer(
          `${b64url('{"alg":"none","typ":"JWT"}')}.${b64url(JSON.stringify({ sub: playerId, exp: now + 600 }))}.`,
        ),
      ),
      fc.constant(bearer(jwt({ sub: playerId, exp: now + 600 }, realSecret, { alg: 'HS512' }))),
      fc
        .stringMatching(/^[A-Za-z0-9_-]{43}$/)
        .map((sig) => bearer(`${signed.split('.').slice(0, 2).join('.')}.${sig}`)),
    )
    .map((v): Record<string, string> => (v === undefined ? {} : { authorization: v }));
}

/** Extra headers of no meaning, printable ASCII, that must not change an answer's class. */
export const noiseHeaders = fc.dictionary(
  fc.stringMatching(/^x-[a-z0-9-]{1,20}$/),
  fc.stringMatching(/^[\x20-\x7e]{0,100}$/).map((s) => s.trim()),
  { maxKeys: 4 },
);
