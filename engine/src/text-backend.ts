import { ChatCompletionResponse, type ChatMessage, type ResponseFormat } from '@lootsmith/protocol';
import type { TextBackendConfig } from './keys.ts';

export class BackendUnavailable extends Error {}

export interface BackendRequest {
  messages: readonly ChatMessage[];
  temperature?: number | undefined;
  max_tokens?: number | undefined;
  response_format?: ResponseFormat | undefined;
  seed?: number | undefined;
  stop?: string | string[] | undefined;
}

export interface BackendAnswer {
  content: string;
  finish_reason: 'stop' | 'length';
  prompt_tokens: number;
  completion_tokens: number;
}

/**
 * One non-streaming call to an OpenAI-compatible chat server (llama.cpp, Ollama, vLLM). Any
 * failure — refused connection, timeout, non-2xx, a body that is not a chat completion — is
 * a BackendUnavailable, which the caller turns into the fallback or a 502.
 */
export async function completeWithBackend(
  backend: TextBackendConfig,
  request: BackendRequest,
): Promise<BackendAnswer> {
  const url = `${backend.base_url.replace(/\/+$/, '')}/chat/completions`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(backend.api_key ? { authorization: `Bearer ${backend.api_key}` } : {}),
      },
      body: JSON.stringify({ ...request, model: backend.model, stream: false }),
      signal: AbortSignal.timeout(backend.timeout_ms),
    });
  } catch (error) {
    throw new BackendUnavailable(`text backend unreachable: ${(error as Error).message}`);
  }
  if (!response.ok) throw new BackendUnavailable(`text backend answered ${response.status}`);
  let parsed: ChatCompletionResponse;
  try {
    parsed = ChatCompletionResponse.parse(await response.json());
  } catch {
    throw new BackendUnavailable('text backend answered something that is not a chat completion');
  }
  const choice = parsed.choices[0];
  const content = choice?.message.content;
  if (typeof content !== 'string') throw new BackendUnavailable('text backend answered without content');
  return {
    content,
    finish_reason: choice?.finish_reason === 'length' ? 'length' : 'stop',
    prompt_tokens: parsed.usage?.prompt_tokens ?? 0,
    completion_tokens: parsed.usage?.completion_tokens ?? 0,
  };
}
