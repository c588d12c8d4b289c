import { createServer, type IncomingMessage } from 'node:http';
import { listenOnLoopback } from '@lootsmith/test-support/listen';
import { TINY_PNG } from '@lootsmith/test-support/png';

/**
 * Faults at the HTTP level that the scripted fake does not make: non-JSON and schema-violating 200s,
 * a body cut off mid-JSON, 429 with a chosen Retry-After, and a hostile service's: an error quoting
 * the key it was sent, a 10 MB answer, a body trickled a byte at a time, an "image" that is HTML or
 * carries the key (in the shape of the image API asked). Anything else is passed to `target`.
 */
export type HttpFault =
  | 'pass'
  | 'html'
  | 'wrong-schema'
  | 'cut-body'
  | 'empty-200'
  | `retry-after:${number}`
  | `delay:${number}`
  | 'reset'
  | 'echo-key'
  | 'huge'
  | 'trickle'
  | 'html-image'
  | 'keyed-image';

export interface FaultUpstream {
  url: string;
  /** Faults for the next calls, in order; then `mode`. */
  script: HttpFault[];
  mode: HttpFault;
  calls: number;
  /** Calls whose client hung up before the answer was sent. */
  abandoned: number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFaultUpstream(target: string): Promise<FaultUpstream> {
  const state: FaultUpstream = {
    url: '',
    script: [],
    mode: 'pass',
    calls: 0,
    abandoned: 0,
    close: async () => {},
  };
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    state.calls++;
    const fault = state.script.shift() ?? state.mode;
    if (fault === 'reset') return req.socket.destroy();
    if (fault.startsWith('delay:')) {
      // A slow but successful answer; a client that hangs up meanwhile is counted.
      await new Promise((r) => setTimeout(r, Number(fault.slice(6))));
      if (res.destroyed || req.socket.destroyed) {
        state.abandoned++;
        return;
      }
    }
    if (fault === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html><body>502 Bad Gateway</body></html>');
    }
    if (fault === 'empty-200') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end();
    }
    if (fault === 'wrong-schema') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const isImage = req.url?.includes('image');
      return res.end(
        JSON.stringify(
          isImage ? { images: ['x'], image: 42 } : { object: 'chat.completion', choices: 'none', id: 7 },
        ),
      );
    }
    if (fault === 'echo-key') {
      res.writeHead(400, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ error: { message: `Refused: you sent ${req.headers.authorization}` } }),
      );
    }
    if (fault === 'huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(`{"image":"${'A'.repeat(10 * 1024 * 1024)}"}`);
    }
    if (fault === 'trickle') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 300);
      res.on('close', () => clearInterval(drip));
      return;
    }
    if (fault === 'html-image' || fault === 'keyed-image') {
      const bytes =
        fault === 'html-image'
          ? Buffer.from('<html><script>alert(1)</script></html>')
          : Buffer.concat([TINY_PNG, Buffer.from(req.headers.authorization ?? '')]);
      const image = bytes.toString('base64');
      // The picture in the shape of each image API (ComfyUI's comes as the bytes of /view).
      const shapes: Record<string, unknown> = {
        '/v1/image/generations': { image },
        '/v1/images/generations': { created: 1, data: [{ b64_json: image }] },
        '/sdapi/v1/txt2img': { images: [image], parameters: {}, info: '{}' },
      };
      const path = req.url?.split('?')[0] ?? '';
      if (path in shapes) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(shapes[path]));
      }
      if (path === '/view') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(bytes);
      }
    }
    if (fault.startsWith('retry-after:')) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': fault.slice(12) });
      return res.end(JSON.stringify({ error: { code: 'rate_limit_exceeded', message: 'slow down' } }));
    }
    let upstream: Response;
    try {
      upstream = await fetch(target + req.url, {
        method: req.method,
        headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
        body: req.method === 'GET' ? undefined : body,
      });
    } catch {
      // The target hung up (a scripted "down"): so does the proxy.
      return req.socket.destroy();
    }
    const text = Buffer.from(await upstream.arrayBuffer());
    if (fault === 'cut-body') {
      // Promise the whole body, send half of it, then hang up.
      res.writeHead(upstream.status, {
        'content-type': 'application/json',
        'content-length': String(text.length),
      });
      res.write(text.subarray(0, Math.floor(text.length / 2)));
      setTimeout(() => res.destroy(), 5).unref();
      return;
    }
    res.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
    });
    res.end(text);
  });
  Object.assign(state, await listenOnLoopback(server));
  return state;
}
