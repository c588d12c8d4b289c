import { ChatCompletionRequest, ImageGenerationRequest, ImageGenerationResponse } from '@lootsmith/protocol';
import fastJson from 'fast-json-stringify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { issuedAt } from '../auth.ts';
import { ApiError } from '../http/errors.ts';
import { clientCancel, parse } from '../http/request.ts';
import { refuse } from '../refusal.ts';
import type { ForwardLimit } from '../service/forwarding.ts';
import { withReservation } from '../service/reservations.ts';
import type { Services } from '../services.ts';
import { docs } from './schemas.ts';

/** Images a player may have painted per minute through the forward. */
const IMAGE_LIMIT: ForwardLimit = { name: 'image', max: 30, windowMs: 60_000 };
/** Raw chat completions a player may send per minute, when the forward is on. */
const CHAT_LIMIT: ForwardLimit = { name: 'chat', max: 10, windowMs: 60_000 };

/** The `/v1` generation endpoints forwarded for a player: client_id comes from the token, never the body. */
export function registerProxyRoutes(app: FastifyInstance, { config, core }: Services) {
  const { upstream, game, content } = core.deps;
  const { max_size, max_steps } = game.image_forward;

  /** A player paints on the operator's key within the game's image settings, with the configured model. */
  const imageWithinGame = (body: ImageGenerationRequest): ImageGenerationRequest => {
    if (body.model !== undefined)
      throw refuse('forbidden', 'body.model: only the game server chooses the image model');
    for (const side of ['width', 'height'] as const)
      if ((body[side] ?? 0) > max_size)
        throw new ApiError(
          400,
          'invalid_request',
          `body.${side}: at most ${max_size} (the game's image_forward.max_size)`,
        );
    if ((body.steps ?? 0) > max_steps)
      throw new ApiError(
        400,
        'invalid_request',
        `body.steps: at most ${max_steps} (the game's image_forward.max_steps)`,
      );
    return {
      ...body,
      width: body.width ?? Math.min(512, max_size),
      height: body.height ?? Math.min(512, max_size),
    };
  };

  /** A player chats on the operator's key with the configured model, within the game's max_tokens. */
  const chatWithinGame = (body: ChatCompletionRequest): ChatCompletionRequest => {
    if (body.model !== undefined)
      throw refuse('forbidden', 'body.model: only the game server chooses the chat model');
    const { max_tokens } = game.chat_forward;
    if ((body.max_tokens ?? 0) > max_tokens)
      throw new ApiError(
        400,
        'invalid_request',
        `body.max_tokens: at most ${max_tokens} (the game's chat_forward.max_tokens)`,
      );
    return { ...body, max_tokens: body.max_tokens ?? max_tokens };
  };

  const clientId = (principal: ReturnType<FastifyRequest['principal']>, given: unknown) => {
    if (principal.kind === 'player') return principal.playerId;
    if (typeof given === 'string' && given) return given;
    throw new ApiError(400, 'invalid_request', 'body.client_id: required with the server credential');
  };

  app.post(
    '/v1/image/generations',
    {
      schema: docs('Generate an image (forwarded)', {
        body: ImageGenerationRequest,
        response: ImageGenerationResponse,
        tags: ['v1'],
      }),
      // The hot route's answer is written by a serialiser compiled from its schema.
      serializerCompiler: ({ schema }) => fastJson(schema as unknown as Parameters<typeof fastJson>[0]),
    },
    async (request, reply) => {
      const principal = request.principal();
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const client_id = clientId(principal, raw.client_id);
      const parsed = parse(ImageGenerationRequest, { ...raw, client_id });
      const body = principal.kind === 'player' ? imageWithinGame(parsed) : parsed;
      // The call counts against the per-minute limit and reserves the daily budget in one transaction;
      // only well-formed requests get this far, so a bad request changes nothing. Once the call has
      // gone it stays counted, whether the player waited for the image or not.
      const release = await core.forwarding.reserve(client_id, 'images', IMAGE_LIMIT, issuedAt(principal));
      const answer = await withReservation(release, async () => {
        // Screened as crafting screens a player's words; a refusal sent nothing, so it is given back.
        if (principal.kind === 'player')
          await content?.screenPlayer(
            client_id,
            [
              ['prompt', body.prompt],
              ['negative_prompt', body.negative_prompt],
            ],
            release.textRefusedAt,
          );
        return upstream.image(body, clientCancel(reply), { priority: 'forward' });
      });
      if (body.generation_only) return reply.type('text/plain').send(answer.image);
      return answer;
    },
  );

  app.post(
    '/v1/chat/completions',
    {
      schema: docs('Chat completion (forwarded only when LOOTSMITH_ALLOW_CHAT=1)', {
        body: ChatCompletionRequest,
        tags: ['v1'],
      }),
    },
    async (request, reply) => {
      if (!config.allowChat)
        throw new ApiError(
          403,
          'chat_disabled',
          'Raw chat is off on this server (LOOTSMITH_ALLOW_CHAT=1 turns it on)',
        );
      const principal = request.principal();
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const client_id = clientId(principal, raw.client_id);
      const parsed = parse(ChatCompletionRequest, { ...raw, client_id, stream: undefined });
      const body = principal.kind === 'player' ? chatWithinGame(parsed) : parsed;
      // A raw completion counts against the player's daily items budget, given back only if it never left.
      const release = await core.forwarding.reserve(client_id, 'items', CHAT_LIMIT, issuedAt(principal));
      return withReservation(release, async () => {
        if (principal.kind === 'player')
          await content?.screenPlayer(
            client_id,
            body.messages.map((m, i): [string, string] => [`messages.${i}.content`, m.content]),
            release.textRefusedAt,
          );
        return upstream.chat(body, clientCancel(reply), { priority: 'forward' });
      });
    },
  );
}
