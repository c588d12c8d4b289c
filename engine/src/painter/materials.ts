import { hex, type Rgb } from './colour.ts';
import { ELEMENT_PALETTES, type Element, type ElementPalette } from './palettes.ts';
import type { Finish, Material } from './scene.ts';

const m = (colour: string, finish: Finish): Material => ({ base: hex(colour), finish });

/** Materials a prompt may name, by word. */
export const MATERIALS: Record<string, Material> = {
  iron: m('#7d838f', 'metal'),
  steel: m('#a3adbb', 'metal'),
  gold: m('#e2ae2e', 'metal'),
  silver: m('#c9cfdc', 'metal'),
  bronze: m('#b27a3c', 'metal'),
  copper: m('#c46a3c', 'metal'),
  mithril: m('#a9d7e8', 'metal'),
  adamantite: m('#4f9a7c', 'metal'),
  obsidian: m('#3a3046', 'gem'),
  crystal: m('#8fd6ff', 'gem'),
  ice: m('#bfeaff', 'gem'),
  glass: m('#bfe8f0', 'glass'),
  bone: m('#ddd2b0', 'matte'),
  ivory: m('#efe6cc', 'matte'),
  wood: m('#8a5a30', 'matte'),
  oak: m('#946236', 'matte'),
  ebony: m('#3e2c2a', 'matte'),
  leather: m('#7d4b2a', 'cloth'),
  cloth: m('#6a5a8a', 'cloth'),
  silk: m('#b05a8a', 'cloth'),
  linen: m('#d8ccaa', 'cloth'),
  stone: m('#8a8580', 'matte'),
  jade: m('#4ab07a', 'gem'),
  dragonscale: m('#b0302a', 'metal'),
  ruby: m('#d0203a', 'gem'),
  sapphire: m('#2a5ae0', 'gem'),
  emerald: m('#20b060', 'gem'),
  amethyst: m('#9a4ae0', 'gem'),
  topaz: m('#f0b020', 'gem'),
  diamond: m('#e8f6ff', 'gem'),
  parchment: m('#e6d3a0', 'matte'),
};

export const MATERIAL_SYNONYMS: Record<string, string> = {
  golden: 'gold',
  gilded: 'gold',
  iron: 'iron',
  steel: 'steel',
  silvered: 'silver',
  mythril: 'mithril',
  adamant: 'adamantite',
  wooden: 'wood',
  crystalline: 'crystal',
  icy: 'ice',
  dragon: 'dragonscale',
  bony: 'bone',
  silken: 'silk',
  rock: 'stone',
  stony: 'stone',
};

/** Each element's first palette: what skill icons and portraits use. */
export const ELEMENT_RAMPS = Object.fromEntries(
  Object.entries(ELEMENT_PALETTES).map(([element, palettes]) => [
    element,
    (palettes[0] as ElementPalette).ramp,
  ]),
) as Record<Exclude<Element, 'none'>, Rgb[]>;

export function glowMaterial(ramp: readonly Rgb[]): Material {
  return { base: ramp[2] as Rgb, finish: 'glow', ramp };
}

export const RARITY_GLOW: Rgb[] = ['#9aa0a8', '#5ad05a', '#4a9aff', '#b05aff', '#ffa030', '#ff4a5a'].map(hex);
