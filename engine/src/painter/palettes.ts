import { hex, type Rgb } from './colour.ts';

/** The elements the painter has palettes and effects for; any other element is painted plain. */
export type Element = 'none' | 'fire' | 'frost' | 'poison' | 'shadow' | 'holy' | 'lightning';

/** One colouring of an element: its glow ramp (edge → hot centre), the material it suggests, and a tint. */
export interface ElementPalette {
  name: string;
  ramp: Rgb[];
  /** Default body material when the prompt names none. */
  primary: string;
  /** Cloth, liquid and metal tint. */
  tint: Rgb;
  gem: Rgb;
}

const palette = (name: string, ramp: string[], primary: string, tint: string, gem: string) => ({
  name,
  ramp: ramp.map(hex),
  primary,
  tint: hex(tint),
  gem: hex(gem),
});

/** Several palettes per element, so that not every shadow item wears the same purple. */
export const ELEMENT_PALETTES: Record<Exclude<Element, 'none'>, ElementPalette[]> = {
  fire: [
    palette('ember', ['#a8201a', '#e0541a', '#ff9a1e', '#ffd54a', '#fff6c0'], 'steel', '#c0502a', '#e8401e'),
    palette('crimson', ['#6a0a14', '#a81a20', '#e0402a', '#ff8a4a', '#ffd0a0'], 'iron', '#a02028', '#d0202a'),
    palette('amber', ['#a85a10', '#e08a1a', '#ffc030', '#ffe680', '#fffbe0'], 'bronze', '#d08a20', '#f0a020'),
    palette(
      'magma',
      ['#3a1010', '#8a1a10', '#d84a10', '#ff9a20', '#ffe080'],
      'obsidian',
      '#7a2a1a',
      '#ff6a1a',
    ),
  ],
  frost: [
    palette('glacier', ['#2a6ac0', '#4aa0e8', '#8fd8ff', '#c8f0ff', '#ffffff'], 'ice', '#8ad0f0', '#6ad0ff'),
    palette('pale', ['#2a8a9a', '#4ac8d0', '#9af0f0', '#d8ffff', '#ffffff'], 'silver', '#7ad8d8', '#5ae0e0'),
    palette(
      'twilight',
      ['#4a4ab0', '#7a7ae0', '#b0b8ff', '#e0e4ff', '#ffffff'],
      'mithril',
      '#9aa0e8',
      '#8a90ff',
    ),
    palette('rime', ['#5a6a80', '#8a9ab0', '#c0d0e0', '#e8f0f8', '#ffffff'], 'steel', '#b0c0d4', '#d0f0ff'),
  ],
  poison: [
    palette('venom', ['#1e5a2a', '#2e9a34', '#6ad83a', '#b8f05a', '#ecffb0'], 'iron', '#5a9a3a', '#5ad02a'),
    palette('bile', ['#5a5a10', '#9a9a1a', '#d0d030', '#f0f080', '#fffff0'], 'bronze', '#a0a030', '#d0e020'),
    palette('sludge', ['#0a4a40', '#1a8a70', '#3ad0a0', '#9af0c8', '#e8fff0'], 'iron', '#2a8a70', '#3ad0a0'),
    palette(
      'nightshade',
      ['#2a1040', '#5a2080', '#8a4ac0', '#a8e060', '#f0ffd0'],
      'ebony',
      '#5a3a7a',
      '#9ae040',
    ),
  ],
  shadow: [
    palette(
      'violet',
      ['#1e0c32', '#421a6a', '#7a34b8', '#b070f0', '#e0c0ff'],
      'obsidian',
      '#4a2a6a',
      '#9a3ae8',
    ),
    palette('indigo', ['#0e0e30', '#22226a', '#3a3ab0', '#7070e0', '#c0c0ff'], 'iron', '#2a2a6a', '#4a5ae8'),
    palette('ash', ['#1a1a1e', '#3a3a42', '#6a6a74', '#a0a0aa', '#e0e0e8'], 'ebony', '#3a3a44', '#b0b0c0'),
    palette(
      'teal',
      ['#061a1e', '#0e3a40', '#1a6a70', '#40a8a8', '#a8f0e8'],
      'obsidian',
      '#14383c',
      '#30c0b0',
    ),
    palette('crimson', ['#1a0508', '#4a0a14', '#8a1424', '#c83a48', '#ffb0b8'], 'iron', '#3a1018', '#d02038'),
  ],
  holy: [
    palette('gold', ['#b87a10', '#e0aa2a', '#ffd85a', '#fff0a8', '#ffffff'], 'silver', '#f0d890', '#ffe070'),
    palette('pearl', ['#8a90a0', '#c0c8d8', '#e8eef8', '#ffffff', '#ffffff'], 'silver', '#e0e4f0', '#f0f4ff'),
    palette('dawn', ['#a04a40', '#e08a6a', '#ffc0a0', '#ffe8d0', '#ffffff'], 'gold', '#f0b8a0', '#ff9a80'),
    palette('sky', ['#4a8ac0', '#8ac0f0', '#d0ecff', '#fff8d0', '#ffffff'], 'steel', '#c0dcf0', '#80c8ff'),
  ],
  lightning: [
    palette('storm', ['#2a5ad0', '#3aa0f0', '#8ae0ff', '#fff27a', '#ffffff'], 'steel', '#7ab0e8', '#5ac8ff'),
    palette('violet', ['#3a1a8a', '#6a3ae0', '#a88aff', '#e0d8ff', '#ffffff'], 'iron', '#8a70e0', '#b090ff'),
    palette('cyan', ['#0a6a9a', '#1aa8e0', '#6ae8ff', '#d0ffff', '#ffffff'], 'silver', '#4ac0e0', '#30e0ff'),
    palette('amber', ['#8a6a0a', '#d0a01a', '#ffe040', '#fff8a0', '#ffffff'], 'copper', '#d0b040', '#ffe040'),
  ],
};
