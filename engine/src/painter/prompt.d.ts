import { type ItemKind } from './kinds.ts';
import type { Style } from './scene.ts';
export { ITEM_KINDS, type ItemKind } from './kinds.ts';
/** The elements the painter has palettes and effects for; any other element is painted plain. */
export type Element = 'none' | 'fire' | 'frost' | 'poison' | 'shadow' | 'holy' | 'lightning';
export type AssetType = 'item' | 'portrait' | 'skill';
export interface PromptReading {
    asset: AssetType;
    /** The subject (an item's name), lower case: items of one kind vary with it. */
    name: string;
    style: Style['name'];
    kind: ItemKind | undefined;
    /** Every word of the prompt, lower case, in order. */
    words: string[];
    materials: string[];
    element: Element;
    colours: string[];
    rarity: number;
    negative: NegativeReading;
}
export interface NegativeReading {
    colours: string[];
    glow: boolean;
    outline: boolean;
    background: boolean;
    gems: boolean;
    effects: boolean;
    shading: boolean;
    frame: boolean;
}
export declare function readNegative(text: string | undefined): NegativeReading & {
    words: Set<string>;
};
/** Reads what to draw from a prompt: "subject, tag, tag". The subject decides first; tags refine. */
export declare function readPrompt(prompt: string, negativePrompt?: string): PromptReading;
