import { jsonSchemaOf } from '@lootsmith/protocol';
import type { ZodType } from 'zod';

/** A route's OpenAPI schema from protocol schemas (documentation only; zod validates). */
export function docs(summary: string, parts: { body?: ZodType; response?: ZodType; tags?: string[] }) {
  return {
    summary,
    tags: parts.tags,
    ...(parts.body ? { body: jsonSchemaOf(parts.body, 'input') } : {}),
    ...(parts.response ? { response: { 200: jsonSchemaOf(parts.response) } } : {}),
  };
}
