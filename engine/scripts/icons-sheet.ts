import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { paintImage } from '../src/painter/index.ts';
import { encodeRgbaPng } from '../src/painter/png.ts';
import { decodePng } from '../src/painter/png-decode.ts';

/** Prompts that cover every item kind, element, style and asset type. */
const PROMPTS = [
  'iron sword, game item, fantasy',
  'flaming sword of the phoenix, legendary, game item, fantasy',
  'frost dagger, game item, fantasy',
  'poison dagger, rare, game item, cartoon',
  'battle axe, game item, fantasy',
  'frostbite axe, legendary frost axe, game item, fantasy',
  'golden mace, epic, game item, fantasy',
  'thunder warhammer, lightning, game item, fantasy',
  'holy spear, game item, fantasy',
  'elven longbow, wood, game item, fantasy',
  'shadow staff of the void, game item, fantasy',
  'fire wand, game item, cartoon',
  'knight shield, blue, game item, fantasy',
  'round wooden shield, game item, realistic',
  'horned iron helmet, game item, fantasy',
  'golden crown, game item, fantasy',
  'steel chest armour, game item, fantasy',
  'purple mage robe, game item, fantasy',
  'iron greaves, game item, fantasy',
  'leather boots, game item, fantasy',
  'steel gauntlets, game item, fantasy',
  'ruby ring, game item, fantasy',
  'holy amulet, game item, fantasy',
  'red health potion, game item, fantasy',
  'blue mana potion, game item, cartoon',
  'poison vial, game item, realistic',
  'ancient scroll, game item, fantasy',
  'shadow grimoire, game item, fantasy',
  'emerald gem, game item, fantasy',
  'frost crystal shard, game item, realistic',
  'golden key, game item, fantasy',
  'leather pouch, game item, fantasy',
  'treasure chest, game item, fantasy',
  'iron ore, game item, fantasy',
  'gold ingot, game item, fantasy',
  'gold coins, game item, cartoon',
  'healing herb, green, game item, fantasy',
  'oak wood log, game item, fantasy',
  'wolf pelt, game item, fantasy',
  'shadow silk hood, epic, game item, fantasy',
  'Ember Essence, fire essence, rare, game item, fantasy',
  'leather belt, game item, fantasy',
  'bread loaf, game item, cartoon',
  'red apple, game item, fantasy',
  'Venomous Claws, poison bone claws, epic, game item, fantasy',
  'iron sword, game item, realistic',
  'iron sword, game item, cartoon',
  'steel sword, game item, fantasy, 50 steps',
  'dwarf warrior, character portrait, fantasy',
  'elf wizard, character portrait, fantasy',
  'orc rogue, character portrait, cartoon',
  'frost giant king, character portrait, fantasy',
  'skeleton lich, character portrait, realistic',
  'fireball, skill icon, fantasy',
  'healing light, skill icon, fantasy',
  'chain lightning, skill icon, cartoon',
  'frost nova, skill icon, fantasy',
  'shadow curse, skill icon, realistic',
  'poison arrow volley, skill icon, fantasy',
  'holy shield ward, skill icon, fantasy',
];

/** `icons:sheet [--tile N] [--out FILE] [prompt…]`: by default the prompts above, in 160-pixel tiles. */
function main() {
  const { values, positionals } = parseArgs({
    options: { tile: { type: 'string', default: '160' }, out: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log('npm run icons:sheet -- [--tile N] [--out FILE] [prompt…]   (default: docs/icons-sheet.png)');
    return;
  }
  const TILE = Number(values.tile);
  const prompts = positionals.length ? positionals : PROMPTS;
  const COLUMNS = Math.min(8, prompts.length);
  const rows = Math.ceil(prompts.length / COLUMNS);
  const width = TILE * COLUMNS;
  const height = TILE * rows;
  const sheet = new Uint8Array(width * height * 4);
  prompts.forEach((prompt, n) => {
    const steps = prompt.includes('50 steps') ? 50 : 5;
    const icon = decodePng(
      paintImage({ prompt: prompt.replace(', 50 steps', ''), width: TILE, height: TILE, steps }),
    );
    const ox = (n % COLUMNS) * TILE;
    const oy = Math.floor(n / COLUMNS) * TILE;
    for (let y = 0; y < TILE; y++) {
      for (let x = 0; x < TILE; x++) {
        const checker = ((x >> 3) + (y >> 3)) % 2 ? 58 : 46;
        const s = (y * icon.width + x) * 4;
        const a = (icon.rgba[s + 3] as number) / 255;
        const o = ((oy + y) * width + ox + x) * 4;
        for (let c = 0; c < 3; c++)
          sheet[o + c] = Math.round((icon.rgba[s + c] as number) * a + checker * (1 - a));
        sheet[o + 3] = 255;
      }
    }
  });
  const out = values.out ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/icons-sheet.png');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, encodeRgbaPng(width, height, sheet));
  console.log(`wrote ${out}: ${prompts.length} prompts, ${COLUMNS}×${rows} tiles of ${TILE}px`);
}

main();
