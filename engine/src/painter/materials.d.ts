import { type Rgb } from './colour.ts';
import type { Element } from './prompt.ts';
import type { Material } from './scene.ts';
/** Materials a prompt may name, by word. */
export declare const MATERIALS: Record<string, Material>;
export declare const MATERIAL_SYNONYMS: Record<string, string>;
/** Each element's first palette: what skill icons and portraits use. */
export declare const ELEMENT_RAMPS: Record<Exclude<Element, "none">, Rgb[]>;
export declare function glowMaterial(ramp: readonly Rgb[]): Material;
export declare const RARITY_GLOW: Rgb[];
