import type { ZodError } from 'zod';

/** An error that becomes `{"error": {"code", "message"}}` with its status. */
export class EngineError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

/** One 400 naming the first invalid field, e.g. `width: Too big: expected number to be <=768`. */
export function invalidRequest(error: ZodError): EngineError {
  // A missing client_id is reported before anything else wrong with the body (SPEC section 5).
  const issue = error.issues.find((i) => i.path[0] === 'client_id') ?? error.issues[0];
  if (!issue) return new EngineError(400, 'invalid_request', 'invalid request body');
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return new EngineError(400, 'invalid_request', `unknown field: ${issue.keys.join(', ')}`);
  }
  const field = path || 'body';
  const missing = issue.code === 'invalid_type' && issue.message.includes('received undefined');
  return new EngineError(
    400,
    path === 'client_id' && missing ? 'missing_client_id' : 'invalid_request',
    missing ? `${field} is required` : `${field}: ${issue.message}`,
  );
}

/** Parses a body with a protocol schema; the first issue becomes a 400 that names its field. */
export function parseBody<T>(
  schema: { safeParse(data: unknown): { success: true; data: T } | { success: false; error: ZodError } },
  body: unknown,
): T {
  const result = schema.safeParse(body);
  if (!result.success) throw invalidRequest(result.error);
  return result.data;
}
