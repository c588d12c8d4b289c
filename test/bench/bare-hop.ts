// The comparator a user would otherwise deploy: Fastify with @fastify/reply-from, checking one static
// bearer token and forwarding to the same upstream with the key swapped in. It also serves a bare
// route sending a fixed JSON body (the inventory comparator). Configured by BARE_* variables.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import replyFrom from '@fastify/reply-from';
import Fastify from 'fastify';

const { BARE_UPSTREAM_URL, BARE_UPSTREAM_KEY, BARE_TOKEN, BARE_JSON_FILE } = process.env;
if (!BARE_UPSTREAM_URL || !BARE_UPSTREAM_KEY || !BARE_TOKEN || !BARE_JSON_FILE)
  throw new Error('BARE_UPSTREAM_URL, BARE_UPSTREAM_KEY, BARE_TOKEN and BARE_JSON_FILE are required');
const json = readFileSync(BARE_JSON_FILE, 'utf8');
const bearer = `Bearer ${BARE_TOKEN}`;
const upstreamAuthorization = `Bearer ${BARE_UPSTREAM_KEY}`;

const app = Fastify({ logger: false });
await app.register(replyFrom, {
  base: BARE_UPSTREAM_URL,
  undici: { connections: 64, keepAliveTimeout: 30_000 },
});
app.post('/v1/image/generations', (request, reply) => {
  if (request.headers.authorization !== bearer)
    return reply.status(401).send({ error: { code: 'unauthorized', message: 'bad token' } });
  return reply.from('/v1/image/generations', {
    rewriteRequestHeaders: (_req, headers) => ({ ...headers, authorization: upstreamAuthorization }),
  });
});
app.get('/inventory', (_request, reply) => reply.type('application/json').send(json));
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening at http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
