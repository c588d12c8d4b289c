import { type Rgb } from './colour.ts';
import type { Element } from './prompt.ts';
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
/** Several palettes per element, so that not every shadow item wears the same purple. */
export declare const ELEMENT_PALETTES: Record<Exclude<Element, 'none'>, ElementPalette[]>;
