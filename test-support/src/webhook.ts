import { createServer, type IncomingHttpHeaders } from 'node:http';
import { type Listening, listenOnLoopback } from './listen.ts';

/** A webhook on loopback that keeps what it was sent (the spend alerts' receiver, as an operator runs one). */
export interface WebhookReceiver extends Listening {
  /** Each POST, in the order it came: its JSON body and its headers. */
  got: Array<{ body: Record<string, unknown>; headers: IncomingHttpHeaders }>;
}

/**
 * Starts a receiver that answers each POST with `status`, or never answers (`hang`: a receiver that
 * holds the connection open).
 */
export async function startWebhookReceiver(status: number | 'hang' = 204): Promise<WebhookReceiver> {
  const got: WebhookReceiver['got'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      got.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), headers: request.headers });
      if (status !== 'hang') response.writeHead(status).end();
    });
  });
  return { ...(await listenOnLoopback(server)), got };
}
