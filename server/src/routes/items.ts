import {
  CombineRequest,
  CombineResponse,
  CreateItemRequest,
  CreateItemResponse,
  GameDefinition,
  GenerateItemsRequest,
  GenerateItemsResponse,
  PlayerId,
} from '@lootsmith/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type AppDeps, clientSignal, parse } from '../app.ts';
import { assertActsFor } from '../auth.ts';
import { ApiError } from '../http/errors.ts';
import { CREATE_ITEM_LIMIT } from '../lootsmith.ts';
import { docs } from './schemas.ts';

export function registerItemRoutes(app: FastifyInstance, { lootsmith }: AppDeps) {
  const { store, game } = lootsmith.deps;

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
    async (request) => {
      const principal = request.principal();
      const body = parse(GenerateItemsRequest, request.body);
      return lootsmith.generateItems(principal, body, clientSignal(request));
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
    async (request) => {
      const principal = request.principal();
      const body = parse(CombineRequest, request.body);
      return lootsmith.combine(principal, body, clientSignal(request));
    },
  );

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
      const { player_id } = parse(z.strictObject({ player_id: PlayerId }), request.params, 'params');
      assertActsFor(principal, player_id);
      // Every authenticated request counts, as a rate limiter does; the counter lives in the store.
      const now = Date.now();
      const hit = await store.hit(`create-item:${player_id}`, CREATE_ITEM_LIMIT.windowMs, now);
      reply.header('x-ratelimit-limit', CREATE_ITEM_LIMIT.max);
      reply.header('x-ratelimit-remaining', Math.max(0, CREATE_ITEM_LIMIT.max - hit.count));
      if (hit.count > CREATE_ITEM_LIMIT.max) {
        const retryAfter = Math.ceil((hit.resetAt - now) / 1000);
        throw new ApiError(
          429,
          'rate_limit_exceeded',
          `Only ${CREATE_ITEM_LIMIT.max} items may be created per hour; try again in ${Math.ceil(retryAfter / 60)} min`,
          { reason: 'rate_limit_exceeded', retryAfter, details: { retry_after: retryAfter } },
        );
      }
      const body = parse(CreateItemRequest, request.body);
      return lootsmith.createItem(principal, player_id, body, new Date(hit.resetAt), clientSignal(request));
    },
  );

  app.get(
    '/api/v1/icons/:file',
    { schema: { summary: 'An item icon (PNG, immutable)', tags: ['items'] } },
    async (request, reply) => {
      const id = /^([0-9a-f]{32})\.png$/.exec((request.params as { file: string }).file)?.[1];
      const png = id ? await lootsmith.deps.icons.png(id) : null;
      if (!png) throw new ApiError(404, 'not_found', 'No such icon');
      return reply.type('image/png').header('cache-control', 'public, max-age=31536000, immutable').send(png);
    },
  );
}
