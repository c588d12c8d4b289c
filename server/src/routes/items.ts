import {
  CombineRequest,
  CombineResponse,
  CreateItemRequest,
  CreateItemResponse,
  GameDefinition,
  GenerateItemsRequest,
  GenerateItemsResponse,
  type IconPending,
  PlayerId,
} from '@lootsmith/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { COMBINE_REFUSED } from '../crafting/service.ts';
import { ApiError } from '../http/errors.ts';
import { clientSignal, parse } from '../http/request.ts';
import type { Services } from '../services.ts';
import { imageType } from '../upstream/image.ts';
import { docs } from './schemas.ts';

export function registerItemRoutes(app: FastifyInstance, { core }: Services) {
  const { game, icons } = core.deps;

  app.get(
    '/api/v1/game',
    { schema: docs('The game definition', { response: GameDefinition, tags: ['items'] }) },
    async () => game,
  );

  app.post(
    '/v1/generate/items',
    {
      schema: docs('Generate themed items (loot drops)', {
        body: GenerateItemsRequest,
        response: GenerateItemsResponse,
        tags: ['items'],
      }),
    },
    async (request, reply) => {
      const principal = request.principal();
      const body = parse(GenerateItemsRequest, request.body);
      return core.drops.generate(principal, body, clientSignal(reply));
    },
  );

  app.post(
    '/api/v1/crafting/combine',
    {
      schema: docs('Combine items (crafting)', {
        body: CombineRequest,
        response: CombineResponse,
        tags: ['items'],
      }),
    },
    async (request, reply) => {
      const principal = request.principal();
      const body = parse(CombineRequest, request.body);
      const answer = await core.crafting.combine(principal, body, clientSignal(reply));
      if (!answer.success) request.verdict = COMBINE_REFUSED;
      return answer;
    },
  );

  const playerParams = z.strictObject({ player_id: PlayerId });
  app.post(
    '/api/v1/player/:player_id/create-item',
    {
      schema: docs('Create a player item (5 per hour)', {
        body: CreateItemRequest,
        response: CreateItemResponse,
        tags: ['items'],
      }),
    },
    async (request, reply) => {
      const principal = request.principal();
      const { player_id } = parse(playerParams, request.params, 'params');
      const body = parse(CreateItemRequest, request.body);
      const { created, window } = await core.crafting.createItem(
        principal,
        player_id,
        body,
        clientSignal(reply),
      );
      // The hourly window as a rate limiter reports it; only requests that reached the model count.
      reply.headers({
        'x-ratelimit-limit': window.max,
        'x-ratelimit-remaining': Math.max(0, window.max - window.count),
        'x-ratelimit-reset': Math.ceil((window.resetAt - Date.now()) / 1000),
      });
      return created;
    },
  );

  app.get(
    '/api/v1/icons/:file',
    {
      schema: {
        summary:
          'An item icon (PNG, immutable); 202 with {status: "pending", retry_after_ms} while it is painted',
        tags: ['items'],
      },
    },
    async (request, reply) => {
      const id = /^([0-9a-f]{32})\.png$/.exec((request.params as { file: string }).file)?.[1];
      const found = id ? await icons.lookup(id) : null;
      if (!found) throw new ApiError(404, 'not_found', 'No such icon');
      if ('retryAfterMs' in found) {
        const pending: IconPending = { status: 'pending', retry_after_ms: found.retryAfterMs };
        return reply
          .status(202)
          .header('cache-control', 'no-store')
          .header('retry-after', String(Math.ceil(found.retryAfterMs / 1000)))
          .send(pending);
      }
      const png = found.png;
      // Stored icons were checked when painted; the type still comes from the bytes, never assumed.
      return reply
        .type(imageType(png) ?? 'application/octet-stream')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(png);
    },
  );
}
