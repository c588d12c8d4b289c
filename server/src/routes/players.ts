import { randomBytes } from 'node:crypto';
import {
  DropGrantRequest,
  DropGrantResponse,
  InventoryChangeRequest,
  InventoryResponse,
  PlayerId,
  PlayerSettingsRequest,
  SessionRequest,
  SessionResponse,
} from '@lootsmith/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Authenticator, assertServer } from '../auth.ts';
import { ApiError } from '../http/errors.ts';
import { parse } from '../http/request.ts';
import type { Services } from '../services.ts';
import { docs } from './schemas.ts';

const PlayerParams = z.strictObject({ player_id: PlayerId });

export function registerPlayerRoutes(app: FastifyInstance, { config, core }: Services, auth: Authenticator) {
  const { players, drops } = core;

  app.post(
    '/api/v1/session',
    {
      schema: docs('Guest login (while dev login is on; a player that exists needs its guest_secret)', {
        body: SessionRequest,
        response: SessionResponse,
        tags: ['players'],
      }),
      // Guests are free to make: one address may open only so many sessions an hour.
      config: {
        rateLimit: {
          max: config.sessionsPerAddress,
          timeWindow: 3_600_000,
          keyGenerator: (request: FastifyRequest) => `session:${request.ip}`,
        },
      },
    },
    async (request) => {
      if (!config.devLogin)
        throw new ApiError(
          403,
          'dev_login_disabled',
          'Guest login is off; your game server signs player tokens',
        );
      const { player_id, guest_secret } = parse(SessionRequest, request.body);
      const secret = guest_secret ?? randomBytes(24).toString('base64url');
      const { created } = await players.guestSession(player_id, secret, guest_secret !== undefined);
      const token = auth.sign(player_id, config.tokenTtlSeconds);
      return {
        token,
        player_id,
        expires_at: new Date(Date.now() + config.tokenTtlSeconds * 1000).toISOString(),
        ...(created ? { guest_secret: secret } : {}),
      } satisfies SessionResponse;
    },
  );

  app.get(
    '/api/v1/player/:player_id/inventory',
    {
      schema: docs('A player’s inventory, crafting level and recipe book', {
        response: InventoryResponse,
        tags: ['players'],
      }),
    },
    async (request, reply) => {
      const principal = request.principal();
      const { player_id } = parse(PlayerParams, request.params, 'params');
      return reply.type('application/json').send(await players.inventoryJson(principal, player_id));
    },
  );

  for (const [path, sign] of [
    ['grant', 1],
    ['remove', -1],
  ] as const)
    app.post(
      `/api/v1/player/:player_id/inventory/${path}`,
      {
        schema: docs(`Server credential: ${path} stacks`, {
          body: InventoryChangeRequest,
          response: InventoryResponse,
          tags: ['server'],
        }),
      },
      async (request) => {
        assertServer(request.principal());
        const { player_id } = parse(PlayerParams, request.params, 'params');
        const { items } = parse(InventoryChangeRequest, request.body);
        const changes = items.map((i) => ({ item_id: i.item_id, quantity: sign * i.quantity }));
        return players.changeInventory(player_id, changes, `server_${path}`);
      },
    );

  app.post(
    '/api/v1/player/:player_id/drop-grant',
    {
      schema: docs('Server credential: a single-use drop grant for one player, enemy and level', {
        body: DropGrantRequest,
        response: DropGrantResponse,
        tags: ['server'],
      }),
    },
    async (request) => {
      assertServer(request.principal());
      const { player_id } = parse(PlayerParams, request.params, 'params');
      const body = parse(DropGrantRequest, request.body);
      return drops.issueGrant(player_id, body);
    },
  );

  app.patch(
    '/api/v1/player/:player_id',
    {
      schema: docs('Server credential: block a player, set level, crafting level or daily budgets', {
        body: PlayerSettingsRequest,
        tags: ['server'],
      }),
    },
    async (request) => {
      assertServer(request.principal());
      const { player_id } = parse(PlayerParams, request.params, 'params');
      const body = parse(PlayerSettingsRequest, request.body);
      return players.update(player_id, body);
    },
  );
}
