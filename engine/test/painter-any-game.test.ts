import { type IconPlan, iconPrompt } from '@lootsmith/protocol';
import { describe, expect, it } from 'vitest';
import { paintImage } from '../src/painter/index.ts';
import type { ItemKind } from '../src/painter/kinds.ts';
import { readPrompt } from '../src/painter/prompt.ts';
import { decodePng } from './support.ts';

/** An item of a game whose item types name no icon, as the server makes its icon prompt. */
function planned(name: string, noun: string, type: string, materials = ['polymer']): string {
  const plan: IconPlan = {
    name,
    look: { noun, materials, colors: ['teal'], features: [] },
    element: 'none',
    rarity: 'rare',
    type,
    style: '16-bit pixel art',
  };
  return iconPrompt(plan);
}

const kindOf = (prompt: string) => readPrompt(prompt).kind;

describe('the painter guesses the shape of any game’s items', () => {
  it('gives a cyberpunk game’s smartgun, cyberdeck, implant, stim and jacket their own shapes', () => {
    const cases: Array<[string, ItemKind]> = [
      [planned('Overclocked Smartgun', 'smartgun', 'weapon'), 'gun'],
      [planned('Ghost Cyberdeck', 'cyberdeck', 'deck'), 'terminal'],
      [planned('Chrome Neural Jack', 'neural jack', 'implant', ['chrome']), 'implant'],
      // The subtype names nothing the painter knows; the type says what it is.
      [planned('Kiroshi Reflex Booster', 'reflex booster', 'implant', ['chrome']), 'implant'],
      [planned('Black Ice Stim', 'stim', 'consumable', ['glass']), 'syringe'],
      [planned('Armoured Street Jacket', 'armored jacket', 'armor', ['synthleather']), 'jacket'],
    ];
    for (const [prompt, kind] of cases) expect(kindOf(prompt), prompt).toBe(kind);
  });

  it('gives modern, post-apocalyptic, farming and cooking items their shapes', () => {
    const cases: Array<[string, ItemKind]> = [
      [planned('Rusted Carbine', 'carbine', 'weapon', ['steel']), 'rifle'],
      [planned('Sawn-off', 'shotgun', 'weapon', ['steel']), 'rifle'],
      [planned('Peacemaker', 'revolver', 'sidearm', ['steel']), 'gun'],
      [planned('Scrap Grenade', 'grenade', 'throwable', ['steel']), 'grenade'],
      [planned('Box of 9mm', 'rounds', 'ammo', ['brass']), 'ammo'],
      [planned('Fuel Canister', 'canister', 'supply', ['steel']), 'canister'],
      [planned('Car Battery', 'power cell', 'part', ['lead']), 'battery'],
      [planned('Old Spanner', 'spanner', 'tool', ['steel']), 'wrench'],
      [planned('Flathead', 'screwdriver', 'tool', ['steel']), 'screwdriver'],
      [planned('Night Goggles', 'goggles', 'headgear', ['plastic']), 'visor'],
      [planned('Flak Vest', 'flak vest', 'armour', ['kevlar']), 'vest'],
      [planned('Trauma Kit', 'first aid kit', 'medical', ['plastic']), 'medkit'],
      [planned('Cortex Chip', 'circuit board', 'component', ['silicon']), 'chip'],
      [planned('Field Terminal', 'laptop', 'gadget', ['plastic']), 'terminal'],
      [planned('Pumpkin Seeds', 'seed packet', 'seed', ['paper']), 'seeds'],
      [planned('Golden Sheaf', 'wheat', 'crop', ['straw']), 'wheat'],
      [planned('Prize Carrot', 'carrot', 'crop', ['root']), 'carrot'],
      [planned('Hearty Stew', 'stew', 'dish', ['clay']), 'dish'],
      [planned('Canned Beans', 'tin can', 'food', ['tin']), 'can'],
    ];
    for (const [prompt, kind] of cases) expect(kindOf(prompt), prompt).toBe(kind);
  });

  it('paints an unknown thing as the clean generic emblem, never a sword, whatever its type', () => {
    const paint = (prompt: string) =>
      coverage(paintImage({ prompt, width: 64, height: 64, steps: 12, seed: 7 }));
    for (const type of ['gadget', 'weapon', 'module']) {
      const plan = flux(type);
      expect(kindOf(iconPrompt(plan)), type).toBeUndefined();
      const icon = paint(iconPrompt(plan));
      // The same shape as the emblem the game could have named, under one seed; not a sword's.
      expect(icon, type).toEqual(paint(iconPrompt({ ...plan, silhouette: 'emblem' })));
      expect(icon, type).not.toEqual(paint(iconPrompt({ ...plan, silhouette: 'sword' })));
    }
  });
});

function flux(type: string): IconPlan {
  return {
    name: 'Flux Harmonizer',
    look: { noun: 'flux harmonizer', materials: ['brass'], colors: ['teal'], features: [] },
    element: 'none',
    rarity: 'rare',
    type,
    style: '16-bit pixel art',
  };
}

/** Which pixels are covered, as a string of 0s and 1s. */
function coverage(png: Buffer): string {
  const { rgba } = decodePng(png);
  let out = '';
  for (let i = 3; i < rgba.length; i += 4) out += (rgba[i] as number) > 127 ? '1' : '0';
  return out;
}
