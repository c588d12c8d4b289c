import { type ZodType, z } from 'zod';

/** JSON Schema of a zod schema, as a model's `response_format` or OpenAPI needs it. */
export function jsonSchemaOf(schema: ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}
