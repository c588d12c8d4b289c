import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  ApiError,
  ChatCompletionRequest,
  ChatCompletionResponse,
  jsonSchemaOf,
  parseRequest,
} from '@lootsmith/protocol';
import type { FastifyInstance } from 'fastify';
import type { Account } from '../accounts.ts';
import { accountOf, requireClientAllowed, requirePermission, reserveCredits } from '../auth.ts';
import { CREDIT_COST } from '../credits.ts';
import { WRITER_MODEL } from '../models.ts';
import { BackendUnavailable, completeWithBackend } from '../text-backend.ts';
import { type Completion, writeCompletion } from '../writer/index.ts';
import { ERROR_RESPONSES, errorResponse } from './openapi.ts';

/** The chat models a key may name: the writer, and its backend's model if it has one. */
export function chatModels(account: Account): string[] {
  const backend = account.key.text.backend?.model;
  return backend && backend !== WRITER_MODEL ? [WRITER_MODEL, backend] : [WRITER_MODEL];
}

async function complete(
  account: Account,
  model: string,
  request: ChatCompletionRequest,
): Promise<{ model: string; completion: Completion }> {
  const text = account.key.text;
  const merged = {
    messages: request.messages,
    temperature: request.temperature ?? text.temperature,
    max_tokens: request.max_tokens ?? text.max_tokens,
    response_format: request.response_format,
    seed: request.seed,
    stop: request.stop,
  };
  if (text.backend && model === text.backend.model && model !== WRITER_MODEL) {
    try {
      return { model, completion: await completeWithBackend(text.backend, merged) };
    } catch (error) {
      if (!(error instanceof BackendUnavailable) || text.fallback === 'none') {
        throw new ApiError(
          502,
          'upstream_unavailable',
          `${(error as Error).message}; no fallback configured, no credits charged`,
        );
      }
    }
  }
  return { model: WRITER_MODEL, completion: writeCompletion(merged) };
}

function sseEvents(
  id: string,
  created: number,
  model: string,
  completion: Completion,
  usage: object,
): string[] {
  const chunk = (delta: object, finish: string | null, extra: object = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  const events = [chunk({ role: 'assistant', content: '' }, null)];
  for (const piece of completion.content.match(/[\s\S]{1,24}/g) ?? [])
    events.push(chunk({ content: piece }, null));
  events.push(chunk({}, completion.finish_reason, { usage }), 'data: [DONE]\n\n');
  return events;
}

export function chatRoutes(app: FastifyInstance): void {
  app.post(
    '/v1/chat/completions',
    {
      schema: {
        summary: 'Chat completion (OpenAI shape)',
        description:
          "Writes a completion with the procedural writer, or with the key's OpenAI-compatible text backend (falling back to the writer, or 502 without charge). `response_format` json_object gives valid JSON; json_schema gives an instance of the schema, themed by the conversation. `stream: true` answers with server-sent events ending in `data: [DONE]`. Costs 1 credit.",
        body: jsonSchemaOf(ChatCompletionRequest, 'input'),
        response: {
          200: {
            description: 'A chat completion, or an SSE stream of chat.completion.chunk events',
            content: {
              'application/json': { schema: jsonSchemaOf(ChatCompletionResponse) },
              'text/event-stream': { schema: { type: 'string' } },
            },
          },
          ...ERROR_RESPONSES,
          502: errorResponse('Text backend and its fallback unavailable; nothing charged'),
        },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      requirePermission(account, 'chat');
      const body = parseRequest(ChatCompletionRequest, request.body);
      requireClientAllowed(account, body.client_id);
      const known = chatModels(account);
      const requested = body.model ?? account.key.textModel;
      if (!known.includes(requested)) {
        throw new ApiError(
          400,
          'unknown_model',
          `model: unknown model ${JSON.stringify(requested)}; known: ${known.join(', ')}`,
        );
      }
      reserveCredits(account, CREDIT_COST.chat);
      let answer: Awaited<ReturnType<typeof complete>>;
      try {
        answer = await complete(account, requested, body);
      } catch (error) {
        account.credits.refund(CREDIT_COST.chat);
        throw error;
      }
      const { completion } = answer;
      if (answer.model !== requested)
        request.log.warn(
          { model: requested },
          'the text backend failed; the procedural writer answered (text.fallback)',
        );
      const usage = {
        prompt_tokens: completion.prompt_tokens,
        completion_tokens: completion.completion_tokens,
        total_tokens: completion.prompt_tokens + completion.completion_tokens,
      };
      account.usage.record(body.client_id, {
        chat_completions: 1,
        tokens: usage.total_tokens,
        credits_spent: CREDIT_COST.chat,
      });
      const id = `chatcmpl-${randomUUID()}`;
      const created = Math.floor(Date.now() / 1000);
      if (body.stream) {
        reply.header('cache-control', 'no-cache').type('text/event-stream; charset=utf-8');
        return reply.send(Readable.from(sseEvents(id, created, answer.model, completion, usage)));
      }
      return {
        id,
        object: 'chat.completion',
        created,
        model: answer.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: completion.content },
            finish_reason: completion.finish_reason,
          },
        ],
        usage,
      };
    },
  );
}
