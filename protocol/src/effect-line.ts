// The effect catalogue as the prompt's Effects line carries it (apart, so that items.ts and
// prompt-lines.ts need not import each other).

/** One number of an effect: the range an item's value lies in (see `effectParamCeiling`). */
export interface EffectParamLine {
  unit?: string;
  min: number;
  max: number;
  per_rarity?: number;
  per_level?: number;
}

/** An effect of the game's catalogue: items carry only these, on the types it lists. */
export interface EffectLine {
  id: string;
  name?: string;
  text?: string;
  types?: string[];
  params?: Record<string, EffectParamLine>;
}
