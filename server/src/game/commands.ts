import { existsSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type GameDefinition, NO_ELEMENT } from '@lootsmith/protocol';
import { summarise } from './check.ts';
import { DEFAULT_GAME_FILE, GameFileError, loadGameDefinition, parseGameFile } from './definition.ts';
import { loadArtReferences } from './references.ts';

/** The JSON Schema of game files, shipped beside the example games. */
const SCHEMA_FILE = fileURLToPath(new URL('../../game/game-file.schema.json', import.meta.url));

export const GAME_COMMANDS_HELP = `Commands:
  lootsmith check [file]      check a game file (default: LOOTSMITH_GAME_FILE, else the shipped
                              fantasy game) and say what it holds; exit 1 naming each problem
  lootsmith init [file]       write a starter game file (default ./game.json) from a few questions,
                              or from --name, --enemies, --stations and --materials (comma-separated)
  lootsmith types [file]      write lootsmith-game.d.ts (--out to choose) with the game's ids, for
                              the plugin's types: Item<MyGame>, and every item typed as the game's
`;

const out = (text: string) => process.stdout.write(`${text}\n`);
const err = (text: string) => process.stderr.write(`${text}\n`);

/** The game file a command reads: the one named, else LOOTSMITH_GAME_FILE, else the shipped game. */
const gameFileOf = (named: string | undefined) =>
  resolve(named ?? process.env.LOOTSMITH_GAME_FILE ?? DEFAULT_GAME_FILE);

/** A problem list when the file cannot be run (its reference icons read as at start-up), else its summary. */
async function check(file: string): Promise<number> {
  try {
    const game = loadGameDefinition(file);
    await loadArtReferences(file, game);
    out(`${file}: ok\n${summarise(game)}`);
    return 0;
  } catch (e) {
    if (!(e instanceof GameFileError)) throw e;
    err(e.message);
    return 1;
  }
}

const idOf = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
const nameOf = (text: string) =>
  text
    .trim()
    .replace(/[_\s]+/g, ' ')
    .replace(/\b[a-z]/g, (c) => c.toUpperCase());
const listOf = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

interface StarterAnswers {
  name: string;
  enemies: string[];
  stations: string[];
  materials: string[];
}

/**
 * A starter game from a name, enemies (weakest first, spread over up to five tiers), stations and
 * materials; everything else is the defaults, the vocabulary the shipped fantasy game's. `schema` is
 * the path of the JSON Schema from the file, for editors.
 */
function starterGame(a: StarterAnswers, schema: string): Record<string, unknown> {
  const materials = a.materials.map((m) => ({ id: idOf(m), name: nameOf(m) }));
  const tiers = Math.min(a.enemies.length, 5);
  return {
    $schema: schema,
    name: a.name,
    enemies: a.enemies.map((e, i) => ({
      id: idOf(e),
      name: nameOf(e),
      tier: 1 + Math.floor((i * tiers) / a.enemies.length),
    })),
    materials,
    stations: a.stations.map((s) => ({ id: idOf(s), name: nameOf(s) })),
    starting_materials: materials.map((m) => ({ id: m.id, quantity: 3 })),
  };
}

async function init(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      enemies: { type: 'string' },
      stations: { type: 'string' },
      materials: { type: 'string' },
      force: { type: 'boolean' },
    },
  });
  const file = resolve(positionals[0] ?? 'game.json');
  if (existsSync(file) && !values.force) {
    err(`${file} exists; choose another file or pass --force`);
    return 1;
  }
  const asked = process.stdin.isTTY
    ? createInterface({ input: process.stdin, output: process.stdout })
    : undefined;
  const ask = async (given: string | undefined, question: string, fallback: string) =>
    given ?? ((await asked?.question(`${question} [${fallback}] `))?.trim() || fallback);
  const answers: StarterAnswers = {
    name: await ask(values.name, 'Name of the game?', 'My Game'),
    enemies: listOf(await ask(values.enemies, 'Enemies, weakest first?', 'cave rat, bandit, cave troll')),
    stations: listOf(await ask(values.stations, 'Crafting stations?', 'workbench')),
    materials: listOf(
      await ask(values.materials, 'Crafting materials?', 'iron ore, oak wood, leather scraps'),
    ),
  };
  asked?.close();
  const schema = relative(dirname(file), SCHEMA_FILE).replaceAll('\\', '/');
  const text = `${JSON.stringify(starterGame(answers, schema.startsWith('.') ? schema : `./${schema}`), null, 2)}\n`;
  let game: GameDefinition;
  try {
    game = parseGameFile(file, text);
  } catch (e) {
    if (!(e instanceof GameFileError)) throw e;
    err(e.message);
    return 1;
  }
  writeFileSync(file, text);
  out(
    `wrote ${file}\n${summarise(game)}\nStart the server on it: LOOTSMITH_GAME_FILE=${relative(process.cwd(), file) || file} npx lootsmith`,
  );
  return 0;
}

const union = (ids: readonly string[]) =>
  ids.length ? [...new Set(ids)].map((id) => JSON.stringify(id)).join(' | ') : 'never';
const typeName = (name: string) =>
  (name.match(/[A-Za-z0-9]+/g) ?? [])
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')
    .replace(/^(\d)/, 'Game$1') || 'Game';

/**
 * A declaration of the game's ids for the plugin's types: an interface of them (`Item<MyGame>`), and
 * its registration, so every item the plugin hands out is typed as the game's.
 */
function gameTypesDeclaration(game: GameDefinition, source: string): string {
  const name = typeName(game.name);
  const fieldType = (f: GameDefinition['item_fields'][number]) =>
    f.type === 'string'
      ? f.values
        ? union(f.values)
        : 'string'
      : f.type === 'boolean'
        ? 'boolean'
        : 'number';
  const fields = game.item_fields.map(
    (f) => `    /** ${f.description} (${f.types.join(', ')}) */\n    ${f.id}?: ${fieldType(f)};`,
  );
  return `// Written by \`lootsmith types\` from ${source}: the ids of "${game.name}".
// Write it again when the game file changes.
import type { GameTypes } from '@lootsmith/plugin';

export interface ${name} extends GameTypes {
  type: ${union(game.item_types.map((t) => t.id))};
  slot: ${union(game.item_types.flatMap((t) => (t.slot ? [t.slot] : [])))};
  stat: ${union(game.stats.map((s) => s.id))};
  element: ${union([NO_ELEMENT, ...game.elements.map((e) => e.id)])};
  rarity: ${union(game.rarities.map((r) => r.id))};
  fields: {
${fields.join('\n')}
  };
  enemy: ${union(game.enemies.map((e) => e.id))};
  station: ${union(game.stations.map((s) => s.id))};
  material: ${union(game.materials.map((m) => m.id))};
}

// Every plugin type (Item, InventoryResponse, …) is now ${name}'s.
declare module '@lootsmith/plugin' {
  interface Register {
    game: ${name};
  }
}
`;
}

function types(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: 'string' } },
  });
  const file = gameFileOf(positionals[0]);
  let game: GameDefinition;
  try {
    game = loadGameDefinition(file);
  } catch (e) {
    if (!(e instanceof GameFileError)) throw e;
    err(e.message);
    return 1;
  }
  const target = resolve(values.out ?? 'lootsmith-game.d.ts');
  writeFileSync(
    target,
    gameTypesDeclaration(game, relative(dirname(target), file).replaceAll('\\', '/') || file),
  );
  out(`wrote ${target}: the types of ${game.name} (Item<${typeName(game.name)}>)`);
  return 0;
}

/** Runs `check`, `init` or `types` when argv names one, giving the exit code; undefined otherwise. */
export async function runGameCommand(argv: string[]): Promise<number | undefined> {
  const [command, ...rest] = argv;
  try {
    if (command === 'check') return await check(gameFileOf(rest[0]));
    if (command === 'init') return await init(rest);
    if (command === 'types') return types(rest);
  } catch (e) {
    // A flag parseArgs does not know, or one without its value.
    if (!String((e as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) throw e;
    err(`lootsmith ${command}: ${(e as Error).message}`);
    return 2;
  }
  return undefined;
}
