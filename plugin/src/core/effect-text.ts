import {
  type EffectDefinition,
  type ItemEffect,
  effectText as protocolEffectText,
} from '@lootsmith/protocol';

/**
 * How an item card words an effect: its catalogue name, and the catalogue's text with the item's
 * numbers in it ("Heals you for 5% of the damage you deal"). Undefined for an effect the game's
 * catalogue lacks: a card shows only what the game does.
 */
// Declared here, not re-exported: the plugin's declaration file carries the protocol's types only.
export function effectText(
  effect: ItemEffect,
  catalogue: ReadonlyArray<Pick<EffectDefinition, 'id' | 'name' | 'text'>>,
): { name: string; text: string } | undefined {
  return protocolEffectText(effect, catalogue);
}
