import type { Element } from '@lootsmith/protocol';
import { hex, type Rgb } from './colour.ts';
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

/** Element colours: edge, mid, core, hot centre. */
export const ELEMENT_RAMPS: Record<Exclude<Element, 'none'>, Rgb[]> = {
  fire: ['#a8201a', '#e0541a', '#ff9a1e', '#ffd54a', '#fff6c0'].map(hex),
  frost: ['#2a6ac0', '#4aa0e8', '#8fd8ff', '#c8f0ff', '#ffffff'].map(hex),
  poison: ['#1e5a2a', '#2e9a34', '#6ad83a', '#b8f05a', '#ecffb0'].map(hex),
  shadow: ['#1e0c32', '#421a6a', '#7a34b8', '#b070f0', '#e0c0ff'].map(hex),
  holy: ['#b87a10', '#e0aa2a', '#ffd85a', '#fff0a8', '#ffffff'].map(hex),
  lightning: ['#2a5ad0', '#3aa0f0', '#8ae0ff', '#fff27a', '#ffffff'].map(hex),
};

/** The gem and the default primary material an element suggests when the prompt names none. */
export const ELEMENT_LOOKS: Record<Exclude<Element, 'none'>, { gem: string; primary: string; tint: Rgb }> = {
  fire: { gem: '#e8401e', primary: 'steel', tint: hex('#c0502a') },
  frost: { gem: '#6ad0ff', primary: 'ice', tint: hex('#8ad0f0') },
  poison: { gem: '#5ad02a', primary: 'iron', tint: hex('#5a9a3a') },
  shadow: { gem: '#9a3ae8', primary: 'obsidian', tint: hex('#4a2a6a') },
  holy: { gem: '#ffe070', primary: 'silver', tint: hex('#f0d890') },
  lightning: { gem: '#5ac8ff', primary: 'steel', tint: hex('#7ab0e8') },
};

export function glowMaterial(element: Exclude<Element, 'none'>): Material {
  const ramp = ELEMENT_RAMPS[element];
  return { base: ramp[2] as Rgb, finish: 'glow', ramp };
}

export const RARITY_GLOW: Rgb[] = ['#9aa0a8', '#5ad05a', '#4a9aff', '#b05aff', '#ffa030', '#ff4a5a'].map(hex);
