import {
  ApiError,
  ImageGenerationRequest,
  ImageGenerationResponse,
  jsonSchemaOf,
  parseRequest,
} from '@lootsmith/protocol';
import type { FastifyInstance } from 'fastify';
import { accountOf, requireClientAllowed, requirePermission, reserveCredits } from '../auth.ts';
import { CREDIT_COST } from '../credits.ts';
import { PAINTER_MODEL } from '../models.ts';
import { paintImage } from '../painter/index.ts';
import { ERROR_RESPONSES } from './openapi.ts';

export function imageRoutes(app: FastifyInstance): void {
  app.post(
    '/v1/image/generations',
    {
      schema: {
        summary: 'Generate an image (PNG, base64)',
        description:
          "Paints a PNG from the prompt. Unset fields take the API key's image defaults. The same request (with the same `seed`) gives the same bytes. With `generation_only: true` the answer is the bare base64 text as text/plain. Costs 1 credit.",
        body: jsonSchemaOf(ImageGenerationRequest, 'input'),
        response: {
          200: {
            description: 'The image as base64 PNG',
            content: {
              'application/json': { schema: jsonSchemaOf(ImageGenerationResponse) },
              'text/plain': { schema: { type: 'string', description: 'base64 PNG (generation_only)' } },
            },
          },
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      requirePermission(account, 'image');
      const body = parseRequest(ImageGenerationRequest, request.body);
      requireClientAllowed(account, body.client_id);
      const defaults = account.key.image;
      const model = body.model ?? defaults.model;
      if (model !== PAINTER_MODEL) {
        throw new ApiError(
          400,
          'unknown_model',
          `model: unknown image model ${JSON.stringify(model)}; known: ${PAINTER_MODEL}`,
        );
      }
      reserveCredits(account, CREDIT_COST.image);
      let png: Buffer;
      try {
        png = paintImage({
          prompt: body.prompt,
          negative_prompt: body.negative_prompt ?? defaults.negative_prompt,
          width: body.width ?? defaults.width,
          height: body.height ?? defaults.height,
          steps: body.steps ?? defaults.steps,
          seed: body.seed,
        });
      } catch (error) {
        account.credits.refund(CREDIT_COST.image);
        throw error;
      }
      account.usage.record(body.client_id, { images: 1, credits_spent: CREDIT_COST.image });
      const image = png.toString('base64');
      if (body.generation_only) return reply.type('text/plain; charset=utf-8').send(image);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify({ image }));
    },
  );
}
