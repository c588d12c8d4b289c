import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CombineResponse,
  FANTASY_EFFECTS,
  GenerateItemsResponse,
  gameFileJsonSchema,
  ICON_SILHOUETTES as ITEM_KINDS,
} from '@lootsmith/protocol';
import { FANTASY_GAME, SPACE_GAME } from '@lootsmith/test-support/game-file';
import { startServerProcess } from '@lootsmith/test-support/process';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { runGameCommand } from '../src/game/commands.ts';
import { GameFileError, parseGameFile } from '../src/game/definition.ts';
import { startServer } from '../src/server.ts';

const SCHEMA_FILE = fileURLToPath(new URL('../game/game-file.schema.json', import.meta.url));
const DOCS = readFileSync(new URL('../../docs/GAME-FILE.md', import.meta.url), 'utf8');
const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
/** tsx by its path: the commands run in a scratch folder, outside the workspace. */
const TSX = createRequire(import.meta.url).resolve('tsx');
const scratch = mkdtempSync(join(tmpdir(), 'lootsmith-game-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What a developer writes for a small game: a name, enemies, materials and stations. */
const SMALL = {
  name: 'Cave Crawl',
  enemies: [
    { id: 'cave_rat', name: 'Cave Rat' },
    { id: 'bandit', name: 'Bandit', tier: 2 },
    { id: 'wyvern', name: 'Wyvern', tier: 3, element: 'fire' },
  ],
  materials: [{ id: 'iron_ore', name: 'Iron Ore' }],
  stations: [{ id: 'tinker_bench', name: 'Tinker Bench' }],
};

/** The problems a file gets, as `path: message` lines. */
function problems(game: unknown): string[] {
  try {
    parseGameFile('game.json', JSON.stringify(game));
    return [];
  } catch (e) {
    if (!(e instanceof GameFileError)) throw e;
    return e.problems.map((p) => `${p.path}: ${p.message}`);
  }
}

/** `lootsmith <args>` as a child process: once per command, to prove the command line reaches it. */
function lootsmith(args: string[], cwd = scratch) {
  return spawnSync(process.execPath, ['--conditions=@lootsmith/source', '--import', TSX, CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
    timeout: 30_000,
  });
}

/**
 * A game command in this process: what `lootsmith <args>` runs once it has read its arguments
 * (`runGameCommand`), with what it writes to stdout and stderr.
 */
async function command(args: string[]) {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const status = await runGameCommand(args);
    return { status, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('the game file', () => {
  it('has a JSON Schema generated from the protocol, describing every field (npm run game:schema writes it)', () => {
    const shipped = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));
    expect(shipped).toEqual(gameFileJsonSchema());
    const undescribed: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      for (const [key, child] of Object.entries((n.properties ?? {}) as Record<string, unknown>)) {
        if (!(child as { description?: string }).description) undescribed.push(`${path}.${key}`);
        walk(child, `${path}.${key}`);
      }
      walk(n.items, `${path}[]`);
      walk(n.additionalProperties, `${path}.*`);
    };
    walk(shipped, '');
    expect(undescribed).toEqual([]);
  });

  it('validates the shipped games against it, and they name it in $schema', () => {
    const validate = new Ajv({ strict: false }).compile(gameFileJsonSchema());
    for (const file of [FANTASY_GAME, SPACE_GAME]) {
      const game = JSON.parse(readFileSync(file, 'utf8'));
      expect(validate(game), JSON.stringify(validate.errors)).toBe(true);
      expect(game.$schema).toBe('./game-file.schema.json');
    }
  });

  it('starts a small game with only a name, enemies, materials and stations, and any number of tiers', () => {
    const game = parseGameFile('small.json', JSON.stringify(SMALL));
    expect(game.tiers).toBe(3);
    expect(game.loot_tables).toHaveLength(3);
    expect(game.loot_authority.drop_limits).toHaveLength(3);
    expect(game.stations[0]?.types).toContain('WEAPON');
    expect(game.materials[0]).toMatchObject({ rarity: 'COMMON', type: 'MATERIAL' });
    const big = parseGameFile(
      'big.json',
      JSON.stringify({
        ...SMALL,
        enemies: [...SMALL.enemies, { id: 'lich_king', name: 'Lich King', tier: 9 }],
      }),
    );
    expect(big.tiers).toBe(9);
    expect(big.loot_tables).toHaveLength(9);
    // Rarer loot each tier up.
    const rare = big.loot_tables.map((t) => (t.RARE ?? 0) / Object.values(t).reduce((a, b) => a + b, 0));
    expect(rare[8]).toBeGreaterThan(rare[0] as number);
  });

  it('takes the vocabulary a file leaves out from the default game, fitted to what it gives', () => {
    const own = parseGameFile(
      'own-stats.json',
      JSON.stringify({ ...SMALL, stats: [{ id: 'grit' }, { id: 'fire_resist' }] }),
    );
    expect(own.stats.map((s) => s.id)).toEqual(['grit', 'fire_resist']);
    // The default elements keep only the resists this game has.
    expect(own.elements.find((e) => e.id === 'fire')?.resist).toBe('fire_resist');
    expect(own.elements.find((e) => e.id === 'frost')?.resist).toBeUndefined();
    expect(own.item_types.map((t) => t.id)).toContain('WEAPON');
  });

  it("gives a file that names no effects the default game's, on the item types it has", () => {
    const shipped = JSON.parse(readFileSync(FANTASY_GAME, 'utf8'));
    // The writer's fallback catalogue is the shipped game's, word for word.
    expect(FANTASY_EFFECTS).toEqual(shipped.effects);
    const small = parseGameFile('small.json', JSON.stringify(SMALL));
    expect(small.effects.map((e) => e.id)).toEqual(shipped.effects.map((e: { id: string }) => e.id));
    const types = [
      { id: 'BLADE', slot: 'HAND', strikes: true },
      { id: 'GLOVES', slot: 'HANDS' },
      { id: 'ORE', stackable: true },
    ];
    const own = parseGameFile('own-types.json', JSON.stringify({ ...SMALL, item_types: types }));
    // Only the effects that list GLOVES remain, and they list only GLOVES.
    expect(own.effects.map((e) => [e.id, e.types])).toEqual([
      ['life_steal', ['GLOVES']],
      ['burn', ['GLOVES']],
      ['frost_slow', ['GLOVES']],
      ['heal_on_kill', ['GLOVES']],
    ]);
    const none = parseGameFile('no-effects.json', JSON.stringify({ ...SMALL, effects: [] }));
    expect(none.effects).toEqual([]);
  });

  it('names every schema problem by its JSON path', () => {
    expect(problems({ ...SMALL, materials: [{ id: 'Iron Ore', name: 'Iron Ore', rarity: 3 }] })).toEqual([
      'materials[0].id: lower-case letters, digits and _ only',
      'materials[0].rarity: Invalid input: expected string, received number',
    ]);
    expect(problems({ enemies: [] })).toEqual(
      expect.arrayContaining(['name: Invalid input: expected string, received undefined']),
    );
    expect(problems({ ...SMALL, loot_table: [] })).toEqual([': unknown field loot_table']);
  });

  it('names the mistakes that used to pass silently', () => {
    const duplicate = { ...SMALL, enemies: [...SMALL.enemies, { id: 'bandit', name: 'Other Bandit' }] };
    expect(problems(duplicate)).toEqual(['enemies[3].id: "bandit" is already the id of enemies[1]']);
    expect(problems({ ...SMALL, starting_materials: [{ id: 'iron_oar', quantity: 2 }] })).toEqual([
      'starting_materials[0].id: no material "iron_oar" (did you mean "iron_ore"?); the game\'s materials: iron_ore',
    ]);
    const typo = { ...SMALL, enemies: [{ id: 'imp', name: 'Imp', element: 'flame' }] };
    expect(problems(typo)[0]).toMatch(/^enemies\[0\]\.element: no element "flame" \(did you mean "fire"\?\)/);
    const short = {
      ...SMALL,
      loot_authority: {
        drop_limits: [
          { max_items: 2, drops_per_minute: 10, drops_per_hour: 100 },
          { max_items: 2, drops_per_minute: 10, drops_per_hour: 100 },
        ],
      },
    };
    expect(problems(short)).toEqual([
      'loot_authority.drop_limits: has 2 entries for 3 tiers: give one per tier (entry i belongs to tier i+1) or one for every tier',
    ]);
    const effect = {
      id: 'bleed',
      name: 'Bleed',
      text: 'Hits bleed for {damag} damage',
      types: ['WEAPN'],
      params: { damage: { min: 5, max: 2 } },
    };
    expect(problems({ ...SMALL, effects: [effect] })).toEqual([
      expect.stringMatching(/^effects\[0\]\.types\[0\]: no item type "WEAPN" \(did you mean "WEAPON"\?\)/),
      'effects[0].params.damage: min 5 is above max 2',
      'effects[0].text: no param "damag" (did you mean "damage"?); the game\'s params: damage',
    ]);
    const flat = {
      ...SMALL,
      stat_budget: {
        rarity_multiplier: { COMMON: 1, UNCOMMON: 1.3, RARE: 1.3, EPIC: 2, LEGENDARY: 3, MYTHIC: 4 },
      },
    };
    expect(problems(flat)).toEqual([
      "stat_budget.rarity_multiplier.RARE: 1.3 is below UNCOMMON's 1.3 × tolerance 1.1: RARE items could be no stronger than UNCOMMON ones",
    ]);
    const station = { ...SMALL, stations: [{ id: 'bench', name: 'Bench', types: ['WEAPN'] }] };
    expect(problems(station)[0]).toMatch(
      /^stations\[0\]\.types\[0\]: no item type "WEAPN" \(did you mean "WEAPON"\?\)/,
    );
  });

  it('checks a file from the command line, and says what it read', async () => {
    const ok = lootsmith(['check', SPACE_GAME]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('Salvage Run');
    expect(ok.stdout).toContain('4 equipment slots: HAND, SUIT, IMPLANT, MODULE');
    const bad = join(scratch, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...SMALL, enemies: [{ id: 'imp', name: 'Imp', element: 'flame' }] }));
    const refused = await command(['check', bad]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('enemies[0].element: no element "flame" (did you mean "fire"?)');
  });

  it('says at start-up which game file it loaded, and refuses to start on a bad one', async () => {
    const server = await startServerProcess({ LOOTSMITH_GAME_FILE: SPACE_GAME, LOOTSMITH_DATA_DIR: scratch });
    await server.stop();
    expect(server.output()).toContain(`game Salvage Run from ${SPACE_GAME}`);
    const bad = join(scratch, 'duplicate.json');
    writeFileSync(bad, JSON.stringify({ ...SMALL, stations: [...SMALL.stations, ...SMALL.stations] }));
    // The refusal in this process: start-up stops on the game file before it opens anything.
    await expect(
      (async () =>
        startServer(loadConfig({ LOOTSMITH_GAME_FILE: bad, LOOTSMITH_DATA_DIR: scratch }), {
          listen: false,
        }))(),
    ).rejects.toThrow(/stations\[1\]\.id: "tinker_bench" is already the id of stations\[0\]/);
  });

  it('writes a starter game from flags that the check accepts', async () => {
    const made = lootsmith([
      'init',
      'starter.json',
      '--name',
      'Cave Crawl',
      '--enemies',
      'cave troll, bandit, wyvern',
      '--stations',
      'tinker bench',
      '--materials',
      'iron ore',
    ]);
    expect(made.status, made.stderr).toBe(0);
    const file = join(scratch, 'starter.json');
    const game = JSON.parse(readFileSync(file, 'utf8'));
    expect(game.enemies).toEqual([
      { id: 'cave_troll', name: 'Cave Troll', tier: 1 },
      { id: 'bandit', name: 'Bandit', tier: 2 },
      { id: 'wyvern', name: 'Wyvern', tier: 3 },
    ]);
    expect(game.stations[0]).toEqual({ id: 'tinker_bench', name: 'Tinker Bench' });
    expect(game.$schema).toMatch(/game-file\.schema\.json$/);
    expect((await command(['check', file])).status).toBe(0);
    const again = await command(['init', file]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`${file} exists; choose another file or pass --force`);
  });
});

describe('docs/GAME-FILE.md', () => {
  it('has a small game a developer can copy: it checks, drops, combines at its station and paints', async () => {
    const example = /```json\n([\s\S]*?)```/.exec(DOCS)?.[1] ?? '';
    const file = join(scratch, 'from-the-docs.json');
    writeFileSync(file, example);
    const game = JSON.parse(example);
    expect(game.enemies).toHaveLength(3);
    expect(game.stations).toHaveLength(1);
    expect(game.materials).toHaveLength(1);
    expect((await command(['check', file])).status).toBe(0);

    const server = await startServer(
      loadConfig({
        LOOTSMITH_GAME_FILE: file,
        LOOTSMITH_DATA_DIR: join(scratch, 'docs-data'),
        LOOTSMITH_SERVER_KEY: 'docs-server-key-0123456789',
        LOOTSMITH_LOG_LEVEL: 'silent',
      }),
      { listen: false },
    );
    try {
      const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
        server.app.inject({
          method,
          url,
          headers: { authorization: 'Bearer docs-server-key-0123456789' },
          ...(payload ? { payload } : {}),
        });
      const drop = await inject('POST', '/v1/generate/items', {
        client_id: 'reader',
        generation_context: { enemy: 'wyvern', player_level: 3 },
        items: [{ type: 'WEAPON' }],
      });
      expect(drop.statusCode, drop.body).toBe(200);
      const [item] = GenerateItemsResponse.parse(drop.json()).items;
      expect(item?.element).toBe('fire');
      const icon = await inject('GET', item?.icon?.url ?? '');
      expect(icon.headers['content-type']).toBe('image/png');
      const combine = await inject('POST', '/api/v1/crafting/combine', {
        player_id: 'reader',
        ingredients: [{ item_id: 'scrap_iron', quantity: 2 }],
        crafting_station: 'tinker_bench',
      });
      expect(combine.statusCode, combine.body).toBe(200);
      expect(CombineResponse.parse(combine.json()).success).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('lists every silhouette the offline painter draws', () => {
    const listed = /Values of `item_types\[\]\.icon`: ([^.]*)\./.exec(DOCS)?.[1]?.split(/,\s*/) ?? [];
    expect(listed).toEqual([...ITEM_KINDS]);
  });
});

describe("the game file's map", () => {
  /** The problems the small game with this `loot_pools` gets. */
  const mapProblems = (loot_pools: unknown) => problems({ ...SMALL, loot_pools });

  it('takes rooms of known enemies next to known rooms, and tier levels that rise', () => {
    const map = {
      rooms: [
        { name: 'Cave Mouth', enemies: ['cave_rat'], next_to: ['Deep Cave'] },
        { name: 'Deep Cave', enemies: ['bandit', 'wyvern'] },
      ],
      tier_levels: [1, 4, 4],
    };
    expect(mapProblems(map)).toEqual([]);
  });

  it('names a misspelt enemy or room, a room named twice and tier levels that fall or miss a tier', () => {
    expect(
      mapProblems({
        rooms: [{ name: 'Cave Mouth', enemies: ['cave_rta'], next_to: ['Deep Cav'] }, { name: 'cave mouth' }],
        tier_levels: [1, 5, 3],
      }),
    ).toEqual([
      expect.stringMatching(
        /^loot_pools\.rooms\[0\]\.enemies\[0\]: no enemy "cave_rta" \(did you mean "cave_rat"\?\)/,
      ),
      expect.stringMatching(/^loot_pools\.rooms\[0\]\.next_to\[0\]: no room "Deep Cav"/),
      'loot_pools.rooms[1].name: "cave mouth" is already the name of loot_pools.rooms[0]',
      "loot_pools.tier_levels[2]: 3 is below tier 2's 5: levels rise with the tier",
    ]);
    expect(mapProblems({ tier_levels: [1, 3] })).toEqual([
      'loot_pools.tier_levels: has 2 entries for 3 tiers: give one per tier (entry i belongs to tier i+1)',
    ]);
  });
});
