// Lootsmith inside your own Fastify game server, under /loot. Run it next to an installed `lootsmith`:
//   npm install lootsmith fastify && PLAYER_SECRET=$(openssl rand -base64 32) node game-server.mjs
// With NODE_ENV=production it is a production server, as `lootsmith` is: it then needs
// LOOTSMITH_SERVER_KEY too.
// then point the Phaser plugin at it: configure({ baseUrl: 'http://127.0.0.1:3000/loot', … }).
import Fastify from 'fastify';
import { lootsmith, signPlayerToken } from 'lootsmith';

// The secret your tokens are signed with: a known default would let anyone sign one for any player.
const playerSecret = process.env.PLAYER_SECRET;
if (!playerSecret) {
  console.error('Set PLAYER_SECRET to a secret of your own, e.g. PLAYER_SECRET=$(openssl rand -base64 32)');
  process.exit(1);
}
const app = Fastify({ logger: { redact: ['req.headers.authorization'] } });

// Your game's own routes stay yours. This one logs a player in and hands out a Lootsmith token.
app.post('/login', async (request) => {
  const { name } = request.body;
  return { token: signPlayerToken(playerSecret, name, 3600) };
});

// Without upstreamUrl/upstreamKey, the embedded engine generates everything offline.
await app.register(lootsmith, {
  prefix: '/loot',
  playerSecret,
  serverKey: process.env.LOOTSMITH_SERVER_KEY,
  dataDir: process.env.LOOTSMITH_DATA_DIR ?? './.lootsmith',
  corsOrigins: process.env.GAME_ORIGIN ? [process.env.GAME_ORIGIN] : [],
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
