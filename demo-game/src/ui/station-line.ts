import type { PlayerState } from '../player-state.ts';
import type { StationId } from '../world/dungeon-map.ts';
import { h } from './dom.ts';
import { titleCase } from './rarity.ts';
import { touchFirst } from './touch.ts';

/** The other thing the player can do at the same station, offered as a link. */
export interface Switch {
  label: string;
  go: () => void;
}

/** The demo's words for what its game's item types are, in the plural (else the type's id). */
const TYPE_WORDS: Record<string, string> = {
  WEAPON: 'weapons',
  SHIELD: 'shields',
  HELMET: 'helmets',
  CHEST: 'body armour',
  LEGS: 'leg armour',
  BOOTS: 'boots',
  GLOVES: 'gloves',
  ACCESSORY: 'rings and amulets',
  EQUIPMENT: 'trinkets',
  CONTAINER: 'bags',
  CONSUMABLE: 'potions',
  MATERIAL: 'materials',
};

/** Worn on the body: said "armour" when a station makes every one of them. */
const ARMOUR = ['HELMET', 'CHEST', 'LEGS', 'BOOTS', 'GLOVES'];

/** The station's name in the game's rules, and what it makes, as a player reads it. */
export function stationOf(state: PlayerState, id: StationId | undefined) {
  const station = id && state.game?.stations.find((s) => s.id === id);
  if (!station) return undefined;
  const armour = ARMOUR.every((t) => station.types.includes(t));
  const types = [
    ...station.types
      .filter((t) => !(armour && ARMOUR.includes(t)))
      .map((t) => TYPE_WORDS[t] ?? titleCase(t).toLowerCase()),
    ...(armour ? ['armour'] : []),
  ];
  const makes = types.length > 1 ? `${types.slice(0, -1).join(', ')} and ${types.at(-1)}` : (types[0] ?? '');
  const locked =
    station.min_level > state.craftingLevel ? ` It needs crafting level ${station.min_level}.` : '';
  return { ...station, makes, locked };
}

/**
 * Where the player crafts: "At the Forge — it makes …" while the hero stands at one, else where
 * to go. Crafting happens only at a station, so a panel opened elsewhere says this and nothing more.
 */
export function stationLine(state: PlayerState, id: StationId | undefined, other?: Switch): HTMLElement {
  const station = stationOf(state, id);
  if (!station) {
    const names = (state.game?.stations ?? []).map((s) => `the ${s.name}`);
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
    const use = touchFirst() ? 'tap it' : 'press E';
    return h(
      'p',
      { class: 'station-line away', 'data-role': 'station', 'data-station': '' },
      `Crafting needs a station. Walk up to ${list} in the Crafters' Hall and ${use}.`,
    );
  }
  return h(
    'p',
    { class: 'station-line', 'data-role': 'station', 'data-station': station.id },
    'At the ',
    h('b', {}, station.name),
    ` — it makes ${station.makes}.${station.locked} `,
    other && h('button', { type: 'button', class: 'link', name: 'switch', onclick: other.go }, other.label),
  );
}
