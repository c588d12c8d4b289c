import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEngine } from '@lootsmith/engine';

export interface PacedUpstream {
  url: string;
  key: string;
  /** Answers sent, by endpoint. */
  calls: { chat: number; image: number };
  close(): Promise<void>;
}

/**
 * A stand-in for a hosted `/v1` service on loopback: the embedded engine's answers (real items,
 * real icons), each sent only after a hosted model's pace (`chatMs`, `imageMs`). With
 * `oneImageAtATime` it paints like a single GPU: an image starts only when the one before is done.
 */
export async function startPacedUpstream(pace: {
  chatMs: number;
  imageMs: number;
  oneImageAtATime?: boolean;
}): Promise<PacedUpstream> {
  const engine = await startEngine({ host: '127.0.0.1', port: 0 });
  const calls = { chat: 0, image: 0 };
  const timers = new Set<NodeJS.Timeout>();
  /** When the single GPU is free again (`oneImageAtATime`). */
  let gpuFree = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const image = req.url === '/v1/image/generations';
    const answer = await fetch(engine.url + (req.url ?? '/'), {
      method: req.method,
      headers: {
        authorization: req.headers.authorization ?? '',
        'content-type': req.headers['content-type'] ?? 'application/json',
      },
      body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    let wait = image ? pace.imageMs : pace.chatMs;
    if (image && pace.oneImageAtATime) {
      gpuFree = Math.max(Date.now(), gpuFree) + pace.imageMs;
      wait = gpuFree - Date.now();
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (image) calls.image++;
      else if (req.url === '/v1/chat/completions') calls.chat++;
      res.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      });
      res.end(body);
    }, wait);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key: engine.key,
    calls,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await engine.close();
    },
  };
}
