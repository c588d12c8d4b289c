import { jsonSchemaOf, ModelList } from '@lootsmith/protocol';
import type { FastifyInstance } from 'fastify';
import { accountOf } from '../auth.ts';
import { PAINTER_MODEL } from '../models.ts';
import { chatModels } from './chat.ts';
import { ERROR_RESPONSES } from './openapi.ts';

export function modelRoutes(app: FastifyInstance): void {
  app.get(
    '/v1/models',
    {
      schema: {
        summary: 'Models the calling key may use (OpenAI list shape)',
        response: {
          200: {
            description: 'Model list',
            content: { 'application/json': { schema: jsonSchemaOf(ModelList) } },
          },
          401: ERROR_RESPONSES[401],
        },
      },
    },
    async (request) => {
      const account = accountOf(request);
      const data: Array<{
        id: string;
        object: 'model';
        owned_by: string;
        created: number;
        capability: string;
      }> = [];
      if (account.key.permissions.includes('chat')) {
        for (const id of chatModels(account)) {
          data.push({
            id,
            object: 'model',
            owned_by: id === account.key.text.backend?.model ? 'text-backend' : 'lootsmith',
            created: 0,
            capability: 'chat',
          });
        }
      }
      if (account.key.permissions.includes('image')) {
        data.push({
          id: PAINTER_MODEL,
          object: 'model',
          owned_by: 'lootsmith',
          created: 0,
          capability: 'image',
        });
      }
      return { object: 'list', data };
    },
  );
}
