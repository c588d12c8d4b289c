// The standalone Lootsmith server built from code instead of the `lootsmith` command:
//   npm install lootsmith && node standalone.mjs
// Options are the environment variables of `npx lootsmith --help`, by name (LOOTSMITH_DATA_DIR → dataDir).
import { buildLootsmithApp } from 'lootsmith';

const app = await buildLootsmithApp({
  dataDir: process.env.LOOTSMITH_DATA_DIR ?? './.lootsmith',
  corsOrigins: ['http://localhost:5173'], // a Vite dev server on another port
  // Required when NODE_ENV=production, which makes this a production server as it does `lootsmith`.
  playerSecret: process.env.LOOTSMITH_PLAYER_SECRET,
  serverKey: process.env.LOOTSMITH_SERVER_KEY,
  // upstreamUrl: 'https://content.example.com', upstreamKey: process.env.CONTENT_KEY,
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 8787) });
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => app.close());
