// Writes game/game-file.schema.json from the protocol's GameFile schema (`npm run game:schema`); a
// server test fails while the file says anything else.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gameFileJsonSchema } from '@lootsmith/protocol';

const file = fileURLToPath(new URL('../game/game-file.schema.json', import.meta.url));
writeFileSync(file, JSON.stringify(gameFileJsonSchema()));
spawnSync('npx', ['biome', 'format', '--write', file], { stdio: 'inherit' });
