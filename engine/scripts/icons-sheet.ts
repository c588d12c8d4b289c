import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  COLOUR_NAMES,
  type Colour,
  GeneratedItemBatch,
  type IconPlan,
  ITEM_FEATURES,
  type ItemFeature,
  iconPrompt,
  jsonSchemaOf,
} from '@lootsmith/protocol';
import { paintImage } from '../src/painter/index.ts';
import type { ItemKind } from '../src/painter/kinds.ts';
import { encodeRgbaPng } from '../src/painter/png.ts';
import { decodePng } from '../src/painter/png-decode.ts';
import { writeCompletion } from '../src/writer/index.ts';
import { gameSheet, paintedKind } from './game-sheet.ts';
import { drawText, textWidth } from './pixel-font.ts';

/** One prompt per item kind, phrased as the Lootsmith server phrases icon prompts. */
const KIND_PROMPTS: Record<ItemKind, string> = {
  sword: 'Oathkeeper, iron sword, common',
  dagger: 'Viper Dirk, poison steel dagger, rare',
  claws: 'Venomous Claws, poison bone claws, epic',
  axe: 'Frostbite, frost steel axe, legendary',
  mace: 'Golden Mace, gold mace, epic',
  flail: 'Skullcrusher Flail, iron flail, rare',
  hammer: 'Thunder Maul, lightning steel hammer, rare',
  spear: 'Dawn Spear, holy silver spear, uncommon',
  trident: "Tidecaller's Trident, frost steel trident, epic",
  halberd: 'Warden Halberd, steel halberd, rare',
  scythe: "Reaper's Scythe, shadow obsidian scythe, epic",
  whip: 'Ember Lash, fire leather whip, rare',
  bow: 'Elven Longbow, wood bow, rare',
  crossbow: 'Siege Crossbow, oak crossbow, uncommon',
  arrow: 'Storm Arrows, lightning arrows, common',
  quiver: "Hunter's Quiver, leather quiver, uncommon",
  staff: 'Staff of the Void, shadow staff, rare',
  wand: 'Cinder Wand, fire wand, uncommon',
  shield: 'Knight Shield, blue steel shield, rare',
  kite_shield: 'Templar Kite Shield, holy kite shield, epic',
  tower_shield: 'Bulwark, iron tower shield, rare',
  buckler: 'Duelist Buckler, wooden buckler, common',
  helmet: 'Horned Helm, iron helmet, uncommon',
  hood: 'Hood of the Void, shadow silk hood, epic',
  crown: 'Crown of Kings, gold crown, legendary',
  circlet: 'Moon Circlet, silver circlet, rare',
  thorn_crown: 'Crown of Thorns, thorned crown, epic',
  hat: "Wizard's Hat, purple hat, rare",
  armor: 'Steel Breastplate, steel chestplate, rare',
  chainmail: 'Iron Hauberk, iron chainmail, uncommon',
  robe: 'Arcane Robe, purple cloth robe, rare',
  cloak: 'Nightfall Cloak, shadow cloth cloak, epic',
  tunic: "Ranger's Jerkin, leather tunic, common",
  leggings: 'Traveller Trousers, linen leggings, common',
  greaves: 'Umbral Legguards, shadow greaves, epic',
  tassets: 'Tassets of Dread, shadow tassets, epic',
  boots: 'Leather Boots, leather boots, common',
  sabatons: 'Iron Sabatons, iron sabatons, uncommon',
  gloves: 'Silk Gloves, silk gloves, uncommon',
  gauntlets: 'Steel Gauntlets, steel gauntlets, rare',
  bracers: 'Archer Bracers, leather bracers, uncommon',
  ring: 'Ruby Ring, gold ring, rare',
  amulet: 'Holy Amulet, holy gold amulet, rare',
  belt: 'Leather Belt, leather belt, common',
  totem: 'Spirit Totem, wood totem, rare',
  orb: 'Orb of Storms, lightning orb, epic',
  potion: 'Health Potion, red potion, common',
  essence: 'Ember Essence, fire essence, rare',
  dust: 'Arcane Dust, blue dust, uncommon',
  scroll: 'Ancient Scroll, scroll, uncommon',
  map: 'Treasure Map, map, rare',
  bandage: 'Linen Bandage, bandage, common',
  bomb: 'Black Powder Bomb, bomb, uncommon',
  food: 'Bread Loaf, bread, common',
  book: 'Field Journal, book, common',
  tome: 'Shadow Grimoire, shadow tome, epic',
  ore: 'Iron Ore, iron ore, common',
  ingot: 'Gold Ingot, gold ingot, uncommon',
  gem: 'Emerald, emerald gem, rare',
  crystal: 'Frost Shard, frost crystal, rare',
  herb: 'Healing Herb, green herb, common',
  mushroom: 'Cave Mushroom, mushroom, common',
  hide: 'Wolf Pelt, hide, common',
  cloth: 'Bolt of Silk, red cloth, uncommon',
  log: 'Oak Log, oak log, common',
  coin: 'Gold Coins, gold coin, common',
  bone: 'Giant Bone, bone, common',
  feather: 'Phoenix Feather, fire feather, epic',
  key: 'Golden Key, gold key, rare',
  lockpick: "Thieves' Lockpicks, steel lockpick, uncommon",
  lantern: 'Miner Lantern, iron lantern, common',
  torch: 'Torch, torch, common',
  fishing_rod: 'Fishing Rod, wooden fishing rod, common',
  pickaxe: 'Miner Pickaxe, iron pickaxe, common',
  horn: 'War Horn, horn, rare',
  bag: 'Leather Pouch, leather pouch, common',
  chest: 'Treasure Chest, chest, rare',
  gun: 'Viper Smartgun, polymer smartgun, rare',
  rifle: 'Longshot, steel sniper rifle, epic',
  grenade: 'Frag Grenade, steel grenade, common',
  ammo: 'Hollow Points, brass bullets, common',
  syringe: 'Combat Stim, stim injector, uncommon',
  medkit: 'Field Medkit, red medkit, common',
  chip: 'Cortex Chip, silicon chip, rare',
  implant: 'Reflex Implant, chrome implant, epic',
  terminal: 'Ghost Cyberdeck, black cyberdeck, epic',
  battery: 'Power Cell, blue battery, common',
  canister: 'Fuel Canister, orange canister, common',
  visor: 'Tactical Visor, cyan visor, rare',
  jacket: 'Street Jacket, black leather jacket, uncommon',
  vest: 'Kevlar Vest, kevlar vest, rare',
  wrench: 'Rusty Spanner, iron wrench, common',
  screwdriver: 'Screwdriver, red screwdriver, common',
  seeds: 'Pumpkin Seeds, seed packet, common',
  wheat: 'Golden Wheat, wheat sheaf, common',
  carrot: 'Garden Carrot, carrot, common',
  dish: 'Hearty Stew, stew bowl, common',
  can: 'Canned Beans, tin can, common',
  emblem: 'Neural Jack, titanium neural jack, rare, emblem icon',
};

/** Rows that show variety: one kind under many names, one element over many palettes, styles, portraits, skills. */
const VARIETY: Array<[string, string]> = [
  ...[
    'Umbral Legguards',
    'Greaves of Dread',
    'Iron Greaves',
    'Warden Greaves',
    'Old Guard Greaves',
    'Runed Greaves',
    'Greaves of Valor',
    'Kingsworn Greaves',
    'Stone Greaves',
    'Dawn Greaves',
  ].map((name): [string, string] => [name, `${name}, steel greaves, rare`]),
  ...[
    ['Hood of the Void', 'hood'],
    ['Hood of the Abyss', 'hood'],
    ['Umbral Sword', 'sword'],
    'Eclipse Sabatons,sabatons'.split(','),
    ['Dusk Ring', 'ring'],
    ['Wraith Essence', 'essence'],
    ['Grave Dust', 'dust'],
    ['Nightfall Orb', 'orb'],
    ['Gloom Dagger', 'dagger'],
    ['Dread Helm', 'helmet'],
  ].map(([name, noun]): [string, string] => [name as string, `${name}, shadow ${noun}, epic`]),
  ...['Ember Blade', 'Cinder Blade', 'Pyre Blade', 'Ashen Blade', 'Blaze Blade'].map(
    (name): [string, string] => [name, `${name}, fire sword, rare`],
  ),
  ['realistic', 'iron sword, game item, realistic'],
  ['cartoon', 'iron sword, game item, cartoon'],
  ['50 steps', 'steel sword, game item, fantasy, 50 steps'],
  ['cartoon', 'blue mana potion, game item, cartoon'],
  ['realistic', 'round wooden shield, game item, realistic'],
  ['portrait', 'dwarf warrior, character portrait, fantasy'],
  ['portrait', 'elf wizard, character portrait, fantasy'],
  ['portrait', 'orc rogue, character portrait, cartoon'],
  ['portrait', 'frost giant king, character portrait, fantasy'],
  ['portrait', 'skeleton lich, character portrait, realistic'],
  ['skill', 'fireball, skill icon, fantasy'],
  ['skill', 'healing light, skill icon, fantasy'],
  ['skill', 'chain lightning, skill icon, cartoon'],
  ['skill', 'frost nova, skill icon, fantasy'],
  ['skill', 'shadow curse, skill icon, realistic'],
];

const STYLE = 'game item, fantasy';

/** An icon prompt made from an item plan, as the server makes every item's. */
const planned = (
  name: string,
  noun: string,
  materials: string[],
  colors: Colour[],
  features: ItemFeature[] = [],
  element = 'none',
): [string, string] => [
  name,
  iconPrompt({
    name,
    look: { noun, materials, colors, features },
    element,
    rarity: 'rare',
    style: 'pixel art',
  }),
];

/** Item plans: the examples, every colour family on a kind of its own, greaves of each feature. */
const PLANNED: Array<[string, string]> = [
  planned('Crimson Dagger', 'dagger', ['iron'], ['red']),
  planned('Ruby Ring', 'ring', ['gold'], ['red', 'gold'], ['gem']),
  planned('Horned Helm', 'helmet', ['iron'], ['grey'], ['horns']),
  planned('Gilded Hatchet', 'hatchet', ['gold'], ['gold']),
  planned('Green Bone Axe', 'axe', ['bone'], ['green'], [], 'fire'),
  planned('Healing Potion', 'potion', ['glass'], ['red']),
  planned('Winged Boots', 'boots', ['leather'], ['white', 'gold'], ['wings']),
  planned('Skull Shield', 'shield', ['oak', 'iron'], ['black', 'red'], ['skull', 'spikes']),
  planned('Runed Staff', 'staff', ['ash wood'], ['blue'], ['runes', 'glow']),
  planned('Neural Jack', 'neural jack', ['titanium'], ['teal'], ['circuits']),
  ...COLOUR_NAMES.map((colour, i) => {
    const [noun, material] = [
      ['sword', 'steel'],
      ['greaves', 'steel'],
      ['robe', 'silk'],
      ['bow', 'yew'],
      ['potion', 'glass'],
      ['helmet', 'iron'],
      ['shield', 'oak'],
    ][i % 7] as [string, string];
    return planned(`${colour} ${noun}`, noun, [material], [colour]);
  }),
  ...ITEM_FEATURES.map((feature) => planned(`${feature}`, 'greaves', ['steel'], ['grey'], [feature])),
];

/** Loot as the writer writes it for the demo's enemies, painted from the prompt the server makes of it. */
function writtenLoot(count: number): Array<[string, string]> {
  const schema = jsonSchemaOf(GeneratedItemBatch);
  const enemies = [
    'Green Slime (tier 1, poison)',
    'Skeleton Warrior (tier 2)',
    'Fire Imp (tier 3, fire)',
    'Shadow Cultist (tier 3, shadow)',
    'Frost Giant (tier 5, frost)',
  ];
  const types = [
    'WEAPON',
    'EQUIPMENT',
    'HELMET',
    'CHEST',
    'LEGS',
    'BOOTS',
    'GLOVES',
    'SHIELD',
    'ACCESSORY',
    'CONSUMABLE',
  ];
  return Array.from({ length: count }, (_, i) => {
    const user = `Generate 1 item.\nContext: location: Frozen Crypt; enemy: ${enemies[i % enemies.length]}; theme: dark fantasy dungeon; player level: 8\nItem 1: type ${types[i % types.length]}; rarity ${['COMMON', 'RARE', 'EPIC'][i % 3]}; level 8`;
    const { content } = writeCompletion({
      messages: [{ role: 'user', content: user }],
      response_format: { type: 'json_schema', json_schema: { schema } },
      seed: 100 + i,
    });
    const item = GeneratedItemBatch.parse(JSON.parse(content))
      .items[0] as GeneratedItemBatch['items'][number];
    const plan: IconPlan = {
      name: item.name,
      look: item.look ?? { noun: item.subtype, materials: [item.material], colors: [], features: [] },
      element: item.element,
      rarity: item.rarity.toLowerCase(),
    };
    return [item.name, iconPrompt(plan)];
  });
}

/** A tile of a contact sheet: its label and the icon painted for it; an empty cell where undefined. */
type SheetCell = { label: string; prompt: string } | undefined;

/** Paints each cell's prompt and lays the icons out `columns` to a row over a checkerboard, each labelled. */
function contactSheet(cells: SheetCell[], columns: number, tile: number): { png: Buffer; rows: number } {
  const LABEL = 14;
  const rowHeight = tile + LABEL;
  const rows = Math.ceil(cells.length / columns);
  const width = tile * columns;
  const height = rowHeight * rows;
  const sheet = new Uint8Array(width * height * 4);
  cells.forEach((cell, n) => {
    const ox = (n % columns) * tile;
    const oy = Math.floor(n / columns) * rowHeight;
    const steps = cell?.prompt.includes('50 steps') ? 50 : 12;
    const icon = cell
      ? decodePng(
          paintImage({ prompt: cell.prompt.replace(', 50 steps', ''), width: tile, height: tile, steps }),
        )
      : undefined;
    for (let y = 0; y < rowHeight; y++) {
      for (let x = 0; x < tile; x++) {
        const o = ((oy + y) * width + ox + x) * 4;
        if (y >= tile || !icon) {
          sheet.set(y >= tile ? [24, 20, 30, 255] : [36, 32, 42, 255], o);
          continue;
        }
        const checker = ((x >> 3) + (y >> 3)) % 2 ? 58 : 46;
        const s = (y * icon.width + x) * 4;
        const a = (icon.rgba[s + 3] as number) / 255;
        for (let c = 0; c < 3; c++)
          sheet[o + c] = Math.round((icon.rgba[s + c] as number) * a + checker * (1 - a));
        sheet[o + 3] = 255;
      }
    }
    if (!cell) return;
    let text = cell.label;
    while (textWidth(text, 2) > tile - 4) text = text.slice(0, -1);
    drawText(
      sheet,
      width,
      ox + Math.floor((tile - textWidth(text, 2)) / 2),
      oy + tile + 2,
      text,
      2,
      [230, 220, 200],
    );
  });
  return { png: encodeRgbaPng(width, height, sheet), rows };
}

/** A game file's sheet: a row per item type, an item of each subtype, painted in the game's art; a legend on stdout. */
function gameContactSheet(file: string, tile: number | undefined, out: string | undefined) {
  const { name, rows } = gameSheet(file);
  const columns = Math.max(1, ...rows.map((r) => r.tiles.length));
  const cells: SheetCell[] = rows.flatMap((r) => [
    ...r.tiles,
    ...Array.from({ length: columns - r.tiles.length }, () => undefined),
  ]);
  const size = tile ?? 128;
  const sheet = contactSheet(cells, columns, size);
  const path =
    out ??
    resolve(
      dirname(fileURLToPath(import.meta.url)),
      `../../docs/icons-${name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')}.png`,
    );
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, sheet.png);
  console.log(`${name}: ${rows.length} item types, a row each, ${size}px icons`);
  rows.forEach((r, i) => {
    const shape = r.icon ? `${r.icon} (the game's)` : 'guessed';
    const tiles = r.tiles.map((t) => `${t.label} → ${paintedKind(t.prompt)}`).join('; ');
    console.log(`  row ${i + 1}: ${r.type}, ${shape}: ${tiles || '(no items)'}`);
  });
  console.log(`wrote ${path}`);
}

/**
 * `icons:sheet [--tile N] [--out FILE] [prompt…]`: every kind, item plans, written loot, then variety
 * rows, each tile labelled; `icons:sheet --game FILE`: every item type of a game file in its art.
 */
function main() {
  const { values, positionals } = parseArgs({
    options: {
      tile: { type: 'string' },
      out: { type: 'string' },
      game: { type: 'string' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log('npm run icons:sheet -- [--tile N] [--out FILE] [prompt…]   (default: docs/icons-sheet.png)');
    console.log(
      'npm run icons:sheet -- --game FILE [--tile N] [--out FILE]   (default: docs/icons-<game>.png)',
    );
    return;
  }
  if (values.game) {
    gameContactSheet(values.game, values.tile ? Number(values.tile) : undefined, values.out);
    return;
  }
  const TILE = Number(values.tile ?? 128);
  const tiles: Array<[string, string]> = positionals.length
    ? positionals.map((p) => [p.split(',')[0] as string, p])
    : [
        ...Object.entries(KIND_PROMPTS).map(([kind, prompt]): [string, string] => [
          kind.replace('_', ' '),
          `${prompt}, ${STYLE}`,
        ]),
        ...PLANNED,
        ...writtenLoot(20).map(([label, prompt]): [string, string] => [label, `${prompt}, pixel art`]),
        ...VARIETY.map(([label, prompt]): [string, string] => [
          label,
          /game item|portrait|skill/.test(prompt) ? prompt : `${prompt}, ${STYLE}`,
        ]),
      ];
  const COLUMNS = Math.min(10, tiles.length);
  const { png, rows } = contactSheet(
    tiles.map(([label, prompt]) => ({ label, prompt })),
    COLUMNS,
    TILE,
  );
  const out = values.out ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/icons-sheet.png');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, png);
  console.log(`wrote ${out}: ${tiles.length} tiles, ${COLUMNS}×${rows}, ${TILE}px icons`);
}

main();
