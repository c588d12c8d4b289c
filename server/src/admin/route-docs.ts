import { jsonSchemaOf } from '@lootsmith/protocol';
import type { ZodType } from 'zod';
import { docs } from '../routes/schemas.ts';

/** A console route's OpenAPI entry, under the `admin` tag. */
export function adminDocs(summary: string, parts: { body?: ZodType; response?: ZodType; query?: ZodType }) {
  return {
    ...docs(`Console: ${summary}`, { body: parts.body, response: parts.response, tags: ['admin'] }),
    ...(parts.query ? { querystring: jsonSchemaOf(parts.query, 'input') } : {}),
  };
}
