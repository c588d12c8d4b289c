import {
  EquipmentResponse,
  EquipRequest,
  PlayerId,
  UnequipRequest,
  UseItemRequest,
  UseItemResponse,
} from '@lootsmith/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse } from '../http/request.ts';
import type { Services } from '../services.ts';
import { docs } from './schemas.ts';

const PlayerParams = z.strictObject({ player_id: PlayerId });

export function registerEquipmentRoutes(app: FastifyInstance, { core }: Services) {
  const { equipment } = core;
  const tags = ['equipment'];

  app.get(
    '/api/v1/player/:player_id/equipment',
    {
      schema: docs('What a player wears: every slot of the game, and the worn stats summed', {
        response: EquipmentResponse,
        tags,
      }),
    },
    async (request) => {
      const principal = request.principal();
      const { player_id } = parse(PlayerParams, request.params, 'params');
      return equipment.view(principal, player_id);
    },
  );

  app.post(
    '/api/v1/player/:player_id/equipment/equip',
    {
      schema: docs('Wear an owned item in the slot of its type (replacing what was there)', {
        body: EquipRequest,
        response: EquipmentResponse,
        tags,
      }),
    },
    async (request) => {
      const principal = request.principal();
      const { player_id } = parse(PlayerParams, request.params, 'params');
      const body = parse(EquipRequest, request.body);
      return equipment.equip(principal, player_id, body);
    },
  );

  app.post(
    '/api/v1/player/:player_id/equipment/unequip',
    {
      schema: docs('Empty a slot (the item stays in the inventory)', {
        body: UnequipRequest,
        response: EquipmentResponse,
        tags,
      }),
    },
    async (request) => {
      const principal = request.principal();
      const { player_id } = parse(PlayerParams, request.params, 'params');
      const { slot } = parse(UnequipRequest, request.body);
      return equipment.unequip(principal, player_id, slot);
    },
  );

  app.post(
    '/api/v1/player/:player_id/use-item',
    {
      schema: docs('Use one owned consumable: it is spent, and its stats come back as effects', {
        body: UseItemRequest,
        response: UseItemResponse,
        tags,
      }),
    },
    async (request) => {
      const principal = request.principal();
      const { player_id } = parse(PlayerParams, request.params, 'params');
      const body = parse(UseItemRequest, request.body);
      return equipment.use(principal, player_id, body);
    },
  );
}
