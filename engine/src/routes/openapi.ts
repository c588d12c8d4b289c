import { ErrorBody, jsonSchemaOf } from '@lootsmith/protocol';

const errorSchema = jsonSchemaOf(ErrorBody);

export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: errorSchema } } };
}

/** The error answers every generation route shares (docs/SPEC.md 7, plus 400 for any invalid field). */
export const ERROR_RESPONSES = {
  400: errorResponse('Invalid request: missing client_id, or another field invalid (the message names it)'),
  401: errorResponse('API key missing or invalid'),
  403: errorResponse('No permission for this resource, client_id restricted, or out of credits'),
};
