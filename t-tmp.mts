import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './server/src/config.ts';
import { startServer } from './server/src/server.ts';
const KEY = 'k-0123456789abcdefghij';
const server = await startServer(loadConfig({ LOOTSMITH_SERVER_KEY: KEY, LOOTSMITH_DATA_DIR: mkdtempSync(join(tmpdir(), 'x-')), LOOTSMITH_GAME_FILE: process.argv[2], LOOTSMITH_LOG_LEVEL: 'silent' }), { listen: false });
const call = async (method: any, url: string, payload?: any) => (await server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${KEY}` } })).json();
for (const enemy of (process.argv[3] ?? 'rogue_drone,void_leech,derelict_ai').split(',')) {
  const r = await call('POST', '/v1/generate/items', { client_id: 'p1', generation_context: { enemy, location: 'Cargo Bay', player_level: 8 }, items: [{}, {}, {}] });
  for (const i of r.items ?? [r]) console.log(JSON.stringify({ ...i, icon: i.icon?.prompt, id: undefined, created_at: undefined }));
}
for (const [ings, intent, st] of [[['scrap_alloy', 'circuit_board'], 'a clockwork gadget', 'fabricator'], [['plasma_coil', 'cryo_cell'], undefined, 'fabricator'], [['bio_gel', 'bio_gel'], 'asdkjh qwpoeiru', 'med_bay'], [['scrap_alloy', 'scrap_alloy'], 'a banana-powered spaceship made of regret and tax forms', 'fabricator'], [['scrap_alloy', 'scrap_alloy'], 'a stim pack', 'fabricator']] as const) {
  await call('POST', '/api/v1/player/p2/inventory/grant', { items: [{ item_id: 'plasma_coil', quantity: 2 }, { item_id: 'cryo_cell', quantity: 2 }, { item_id: 'scrap_alloy', quantity: 4 }, { item_id: 'circuit_board', quantity: 2 }] });
  const r = await call('POST', '/api/v1/crafting/combine', { player_id: 'p2', ingredients: ings.map((id) => ({ item_id: id, quantity: 1 })), crafting_station: st, description: intent });
  console.log(JSON.stringify({ intent, success: r.success, msg: r.message, sug: r.suggestions, item: r.result_item && { name: r.result_item.name, type: r.result_item.type, subtype: r.result_item.subtype, d: r.result_item.description, l: r.result_item.lore } }));
}
await server.close();
