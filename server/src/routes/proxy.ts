import { ChatCompletionRequest, ImageGenerationRequest, ImageGenerationResponse } from '@lootsmith/protocol';
import fastJson from 'fast-json-stringify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { clientCancel, parse } from '../http/request.ts';
import type { ForwardLimit } from '../service/forwarding.ts';
import type { Services } from '../services.ts';
import { docs } from './schemas.ts';

/** Images a player may have painted per minute through the forward. */
const IMAGE_LIMIT: ForwardLimit = { name: 'image', max: 30, windowMs: 60_000 };
/** Raw chat completions a player may send per minute, when the forward is on. */
const CHAT_LIMIT: ForwardLimit = { name: 'chat', max: 10, windowMs: 60_000 };

/** The `/v1` generation endpoints forwarded for a player: client_id comes from the token, never the body. */
export function registerProxyRoutes(app: FastifyInstance, { config, core }: Services) {
  const { upstream } = core.deps;

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
      const body = parse(ImageGenerationRequest, { ...raw, client_id });
      // The call counts against the per-minute limit and reserves the daily budget in one transaction;
      // only well-formed requests get this far, so a bad request changes nothing.
      const release = await core.forwarding.reserve(client_id, 'images', IMAGE_LIMIT);
      const answer = await upstream.image(body, clientCancel(reply)).catch(async (err) => {
        await release();
        throw err;
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
      const body = parse(ChatCompletionRequest, { ...raw, client_id, stream: undefined });
      // A raw completion counts against the player's daily items budget, given back if it fails.
      const release = await core.forwarding.reserve(client_id, 'items', CHAT_LIMIT);
      return upstream.chat(body, clientCancel(reply)).catch(async (err) => {
        await release();
        throw err;
      });
    },
  );
}
