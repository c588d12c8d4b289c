import type { ErrorBody } from '@lootsmith/protocol';
import type { ZodError } from 'zod';

/** An error with its HTTP status and the one error body every response uses. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { reason?: string; details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    const { reason, details } = this.extra;
    return {
      error: { code: this.code, message: this.message, ...(details === undefined ? {} : { details }) },
      ...(reason ? { reason } : {}),
    };
  }
}

export function invalidBody(error: ZodError, where = 'body'): ApiError {
  const issues = error.issues.map((i) => ({ path: [where, ...i.path].join('.'), message: i.message }));
  const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new ApiError(400, 'invalid_request', message, { details: issues });
}

export const reasonError = (status: number, reason: string, message: string, details?: unknown) =>
  new ApiError(status, reason, message, { reason, details });
