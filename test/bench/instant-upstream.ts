// A `/v1` service that answers at once, as a child process of the benchmark: every image call gets the
// same 64×64 icon the embedded painter makes, so what is measured is the hops' own cost.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paintImage } from '@lootsmith/engine';

const png = paintImage({ prompt: 'an iron sword, game item, fantasy', width: 64, height: 64 });
const answer = Buffer.from(JSON.stringify({ image: png.toString('base64') }));
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    res.end(answer);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  console.log(
    `listening at http://127.0.0.1:${(server.address() as AddressInfo).port} (${png.length}-byte PNG)`,
  );
});
// Keep-alive sockets of a client that never closed its pool must not hold the process open.
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
