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
  /** The elements it belongs to, when the game says (see `effectElements`). */
  elements?: string[];
  params?: Record<string, EffectParamLine>;
}

/**
 * The elements an effect belongs to: the game's word for it, else the elements whose id, name or
 * words its own id or name says ("frost_slow": frost).
 */
export function effectElements(
  effect: Pick<EffectLine, 'id' | 'name' | 'elements'>,
  elements: ReadonlyArray<{ id: string; name?: string | undefined; words?: readonly string[] }>,
): string[] {
  if (effect.elements) return effect.elements;
  const words = `${effect.id} ${effect.name ?? ''}`.toLowerCase().split(/[^a-z]+/);
  return elements
    .filter((e) => [e.id, e.name ?? e.id, ...(e.words ?? [])].some((w) => words.includes(w.toLowerCase())))
    .map((e) => e.id);
}
