import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CombineResponse, CreateItemResponse, type Item } from '@lootsmith/protocol';
import { FANTASY_GAME, SPACE_GAME } from '@lootsmith/test-support/game-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { type RunningServer, startServer } from '../src/server.ts';

// Players type wishes, not nouns, and leave the form's defaults on: their words win. Both shipped
// games, through the real server and its embedded engine.

const SERVER_KEY = 'wishes-server-key-0123456789abcdef';
const servers: Record<string, RunningServer> = {};
const dirs: string[] = [];

beforeAll(async () => {
  for (const [name, file] of [
    ['fantasy', FANTASY_GAME],
    ['space', SPACE_GAME],
  ] as const) {
    const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-wishes-'));
    dirs.push(dataDir);
    servers[name] = await startServer(
      loadConfig({
        LOOTSMITH_SERVER_KEY: SERVER_KEY,
        LOOTSMITH_PLAYER_SECRET: 'wishes-player-secret-0123456789abc',
        LOOTSMITH_DATA_DIR: dataDir,
        LOOTSMITH_GAME_FILE: file,
        LOOTSMITH_LOG_LEVEL: 'silent',
      }),
      { listen: false },
    );
  }
});
afterAll(async () => {
  for (const server of Object.values(servers)) await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const call = (game: string, url: string, payload: object, method: 'POST' | 'PATCH' = 'POST') =>
  (servers[game] as RunningServer).app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${SERVER_KEY}` },
    payload,
  });

let players = 0;
/** A fresh crafter holding the materials. */
async function crafter(game: string, materials: Array<{ id: string; quantity: number }>) {
  const player = `wisher-${++players}`;
  await call(game, `/api/v1/player/${player}`, { crafting_level: 5, level: 10 }, 'PATCH');
  const items = materials.map((m) => ({ item_id: m.id, quantity: m.quantity }));
  await call(game, `/api/v1/player/${player}/inventory/grant`, { items });
  return player;
}

async function createItem(
  game: string,
  station: string,
  materials: Array<{ id: string; quantity: number }>,
  parameters: { type: string; description: string; focus?: string[]; look?: Record<string, string> },
) {
  const player = await crafter(game, materials);
  const res = await call(game, `/api/v1/player/${player}/create-item`, {
    crafting_station: station,
    materials,
    item_parameters: {
      type: parameters.type,
      description: parameters.description,
      focus_attributes: parameters.focus ?? [],
      visual_preferences: parameters.look ?? {},
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { item, notes } = CreateItemResponse.parse(res.json());
  return { item, notes: notes ?? [] };
}

const strongest = (item: Item) => [...item.stats].sort((a, b) => b.value - a.value)[0]?.name;

describe('wishes', () => {
  it("follows the words over the form's type, focus and colour, and says so in notes", async () => {
    const herbs = [{ id: 'healing_herb', quantity: 2 }];
    const { item, notes } = await createItem('fantasy', 'workbench', herbs, {
      type: 'WEAPON',
      description: 'a strong red healing potion',
      focus: ['attack'],
      look: { colour: 'emerald' },
    });
    expect(item).toMatchObject({ type: 'CONSUMABLE', color: 'red' });
    expect(strongest(item)).toBe('health');
    expect(notes).toEqual([
      'Made a consumable, not a weapon: that is what your words ask for.',
      'Leans to health, as your words ask, not to attack as the focus says.',
      'Coloured red as your words say, not emerald as the colour setting says.',
    ]);
    // A focus the words agree with stays, and says nothing.
    const agreed = await createItem('fantasy', 'alchemy_table', herbs, {
      type: 'CONSUMABLE',
      description: 'a healing potion',
      focus: ['health'],
    });
    expect(agreed.notes).toEqual([]);
  });

  it('picks the type, slot and effect a purpose asks for, in any game', async () => {
    const protect = await createItem('fantasy', 'workbench', [{ id: 'iron_ore', quantity: 2 }], {
      type: 'WEAPON',
      description: 'I want to protect myself',
    });
    expect(protect.item.type).toBe('SHIELD');
    const head = await createItem('fantasy', 'forge', [{ id: 'iron_ore', quantity: 2 }], {
      type: 'WEAPON',
      description: 'something for my head',
    });
    expect(head.item.type).toBe('HELMET');
    const frost = [
      { id: 'iron_ore', quantity: 2 },
      { id: 'frost_shard', quantity: 1 },
    ];
    const freezes = await createItem('fantasy', 'forge', frost, {
      type: 'WEAPON',
      description: 'freezes what it strikes',
    });
    expect(freezes.item.effects.map((e) => e.id)).toContain('frost_slow');
    const suit = await createItem('space', 'fabricator', [{ id: 'scrap_alloy', quantity: 2 }], {
      type: 'TOOL',
      description: 'i want to protect myself',
    });
    expect(['SUIT', 'MODULE']).toContain(suit.item.type);
    const stim = await createItem('space', 'med_bay', [{ id: 'bio_gel', quantity: 2 }], {
      type: 'STIM',
      description: 'heal me pls',
      focus: ['energy'],
    });
    expect(strongest(stim.item)).toBe('hull');
  });

  it('makes an open wish into a thing, on create-item and combine alike, never a noun of its words', async () => {
    for (const description of ['whatever you think is best', 'surprise me', 'i need to hit harder']) {
      const iron = [{ id: 'iron_ore', quantity: 2 }];
      const made = await createItem('fantasy', 'forge', iron, { type: 'WEAPON', description });
      expect(made.item.type).toBe('WEAPON');
      const player = await crafter('fantasy', iron);
      const res = await call('fantasy', '/api/v1/crafting/combine', {
        player_id: player,
        ingredients: [{ item_id: 'iron_ore', quantity: 2 }],
        crafting_station: 'forge',
        description,
      });
      const combined = CombineResponse.parse(res.json());
      expect(combined.success, combined.message).toBe(true);
      for (const item of [made.item, combined.result_item as Item]) {
        expect(`${item.name} ${item.subtype}`, description).not.toMatch(/think|whatever|surprise|need/i);
      }
    }
  });
});
