import {
  GameCheck,
  GameCheckResult,
  GameState,
  ItemDetail,
  ItemParams,
  ItemsPage,
  ItemsQuery,
  ModerationPage,
  ModerationQuery,
  Overview,
  OverviewQuery,
  PlayerDetail,
  PlayerParams,
  PlayerPatch,
  PlayersPage,
  PlayersQuery,
  PlaygroundCombine,
  PlaygroundCombineResult,
  PlaygroundDrop,
  PlaygroundDropResult,
  PlaygroundSheet,
  PlaygroundSheetResult,
  ReferenceParams,
  RemoveItem,
} from '@lootsmith/protocol';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { clientSignal, parse } from '../http/request.ts';
import type { Services } from '../services.ts';
import { registerConsoleApp } from './app.ts';
import { actorOf, refuseWhenDisabled, registerConsoleAuth } from './auth.ts';
import { Playground } from './playground.ts';
import { registerRequestRoutes } from './request-routes.ts';
import { RequestService } from './request-service.ts';
import { adminDocs } from './route-docs.ts';
import { AdminService } from './service.ts';
import type { ConsoleSessions } from './sessions.ts';

/**
 * The developer console: its page at `/console/` and every action it takes as an admin API route
 * under `/api/v1/admin/`, all behind one door (`registerConsoleAuth`).
 */
export async function registerAdmin(app: FastifyInstance, services: Services, sessions: ConsoleSessions) {
  const { config, core } = services;
  const { store, game, coordination, upstream, icons, textModel, content } = core.deps;
  const materials = core.players.materials;
  const admin = new AdminService({
    game,
    store,
    materials,
    pools: config.pools !== undefined,
    currency: config.prices.currency,
    caps: config.caps,
  });
  const requests = new RequestService({
    store,
    settings: services.requestLog.settings,
    currency: config.prices.currency,
  });
  const playground = new Playground({
    game,
    gameFile: config.gameFile,
    store,
    coordination,
    upstream,
    icons,
    materials,
    textModel,
    content,
  });

  // The page holds no data: it needs no session, only a console that is on.
  await app.register(async (page) => {
    refuseWhenDisabled(page, sessions);
    await registerConsoleApp(page);
  });
  await app.register(async (scope) => {
    registerConsoleAuth(scope, sessions, config.serverKey);
    registerRequestRoutes(scope, requests);

    scope.get(
      '/api/v1/admin/overview',
      {
        schema: adminDocs('figures of every instance for the last hour or day', {
          query: OverviewQuery,
          response: Overview,
        }),
      },
      async (request) => admin.overview(parse(OverviewQuery, request.query, 'query').window),
    );

    scope.get(
      '/api/v1/admin/players',
      {
        schema: adminDocs('players, searched by id prefix, paged', {
          query: PlayersQuery,
          response: PlayersPage,
        }),
      },
      async (request) => admin.players(parse(PlayersQuery, request.query, 'query')),
    );

    scope.get(
      '/api/v1/admin/players/:player_id',
      {
        schema: adminDocs('a player: inventory, equipment, recent requests, moderation', {
          response: PlayerDetail,
        }),
      },
      async (request) => admin.player(parse(PlayerParams, request.params, 'params').player_id),
    );

    scope.patch(
      '/api/v1/admin/players/:player_id',
      {
        schema: adminDocs('block or unblock a player (at once, on every instance), set its daily budgets', {
          body: PlayerPatch,
          response: PlayerDetail,
        }),
      },
      async (request) =>
        admin.updatePlayer(
          parse(PlayerParams, request.params, 'params').player_id,
          parse(PlayerPatch, request.body),
        ),
    );

    scope.get(
      '/api/v1/admin/items',
      {
        schema: adminDocs('generated items by rarity, type, enemy, source and day, newest first', {
          query: ItemsQuery,
          response: ItemsPage,
        }),
      },
      async (request) => admin.items(parse(ItemsQuery, request.query, 'query')),
    );

    scope.get(
      '/api/v1/admin/items/:item_id',
      { schema: adminDocs('an item, who holds it, how it was made', { response: ItemDetail }) },
      async (request) => admin.item(parse(ItemParams, request.params, 'params').item_id),
    );

    scope.post(
      '/api/v1/admin/items/:item_id/remove',
      {
        schema: adminDocs('remove an item from the game: from every inventory, with a record of why', {
          body: RemoveItem,
          response: ItemDetail,
        }),
      },
      async (request) => {
        const { item_id } = parse(ItemParams, request.params, 'params');
        const { reason } = parse(RemoveItem, request.body);
        return admin.removeItem(item_id, reason, actorOf(request));
      },
    );

    scope.get(
      '/api/v1/admin/game',
      {
        schema: adminDocs('the loaded game definition, and whether its file still says the same', {
          response: GameState,
        }),
      },
      async () => playground.gameState(),
    );

    scope.get(
      '/api/v1/admin/game/references/:index',
      {
        schema: adminDocs(
          "one of the loaded game's reference icons (`art.references[index]`), as read at start-up",
          {},
        ),
      },
      async (request, reply) => {
        const { index } = parse(ReferenceParams, request.params, 'params');
        const reference = icons.references[index];
        if (!reference)
          throw new ApiError(
            404,
            'not_found',
            `The loaded game has ${icons.references.length} reference icon(s): ask for an index below that`,
          );
        return reply.type(reference.type).header('cache-control', 'private, no-cache').send(reference.bytes);
      },
    );

    scope.post(
      '/api/v1/admin/game/check',
      {
        schema: adminDocs('check a game definition without loading it', {
          body: GameCheck,
          response: GameCheckResult,
        }),
      },
      async (request) => playground.check(parse(GameCheck, request.body).definition),
    );

    scope.post(
      '/api/v1/admin/playground/drop',
      {
        schema: adminDocs('a drop as a player would get it, granting nothing and counting against no one', {
          body: PlaygroundDrop,
          response: PlaygroundDropResult,
        }),
      },
      async (request, reply) => playground.drop(parse(PlaygroundDrop, request.body), clientSignal(reply)),
    );

    scope.post(
      '/api/v1/admin/playground/combine',
      {
        schema: adminDocs('a combine as a player would get it, spending and granting nothing', {
          body: PlaygroundCombine,
          response: PlaygroundCombineResult,
        }),
      },
      async (request, reply) =>
        playground.combine(parse(PlaygroundCombine, request.body), clientSignal(reply)),
    );

    scope.post(
      '/api/v1/admin/playground/sheet',
      {
        schema: adminDocs(
          "a fresh icon of each item type (at most 64), painted by the configured image backend in the game's art",
          { body: PlaygroundSheet, response: PlaygroundSheetResult },
        ),
      },
      async (request, reply) =>
        playground.sheet(parse(PlaygroundSheet, request.body).definition, clientSignal(reply)),
    );

    scope.get(
      '/api/v1/admin/moderation',
      {
        schema: adminDocs('refusals of player text and generated text: who, when, why', {
          query: ModerationQuery,
          response: ModerationPage,
        }),
      },
      async (request) => admin.moderation(parse(ModerationQuery, request.query, 'query')),
    );
  });
}
