import type { Element } from '@lootsmith/protocol';
import type { Rng } from '../random.ts';
import { type Cues, elementOf } from './cues.ts';
import { type ItemPlan, type PlanOptions, planItem } from './item-plan.ts';
import { OPPOSED, SUBTYPE_TYPES, type Theme } from './lexicon.ts';

export interface Verdict {
  sensible: boolean;
  message: string;
  suggestions: string[];
  item: ItemPlan | null;
}

const STATION_TYPES: Record<string, [string, string]> = {
  forge: ['WEAPON', 'sword'],
  anvil: ['WEAPON', 'axe'],
  alchemy: ['CONSUMABLE', 'potion'],
  cauldron: ['CONSUMABLE', 'potion'],
  workbench: ['SHIELD', 'buckler'],
  loom: ['CHEST', 'robe'],
  jeweler: ['ACCESSORY', 'ring'],
  enchanting: ['ACCESSORY', 'amulet'],
};
const ELEMENT_ADJECTIVE: Record<Theme, string> = {
  fire: 'Flameforged',
  frost: 'Frostbound',
  poison: 'Venomous',
  shadow: 'Shadowed',
  holy: 'Blessed',
  lightning: 'Stormcharged',
};
const NEUTRAL_BINDERS: Record<Theme, string> = {
  fire: 'Ember Essence',
  frost: 'Frost Shard',
  poison: 'Venom Gland',
  shadow: 'Shadow Silk',
  holy: 'Holy Water',
  lightning: 'Storm Crystal',
};

function titleCase(text: string): string {
  return text.replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

/** Judges a crafting combination: opposed elements or nothing craftable → not sensible, with advice. */
export function judgeCombination(cues: Cues, rng: Rng, options: PlanOptions): Verdict {
  const combine = cues.combine;
  if (!combine)
    return {
      sensible: false,
      message: 'Nothing to combine.',
      suggestions: ['Add at least one material.'],
      item: null,
    };
  const { ingredients } = combine;
  const elements = [...new Set(ingredients.map((i) => i.element).filter((e): e is Theme => e !== 'none'))];
  const clash = OPPOSED.find(([a, b]) => elements.includes(a) && elements.includes(b));
  if (clash) {
    const [a, b] = clash;
    const first = ingredients.find((i) => i.element === a)?.name ?? a;
    const second = ingredients.find((i) => i.element === b)?.name ?? b;
    const base = ingredients.find((i) => i.element === 'none')?.name ?? 'Iron Ore';
    return {
      sensible: false,
      message: `The ${first} and the ${second} fight each other: ${a} and ${b} cancel out, and the mixture fizzles into useless slag.`,
      suggestions: [
        `Leave out the ${second} and combine the ${first} with ${base} for a ${a} item.`,
        `Leave out the ${first} and combine the ${second} with ${base} for a ${b} item.`,
        `Add a second ${a} ingredient such as ${NEUTRAL_BINDERS[a]} instead of mixing opposed elements.`,
      ],
      item: null,
    };
  }
  const craftable = ingredients.filter((i) => i.type !== 'CONSUMABLE');
  if (!ingredients.length || !craftable.length) {
    const names = ingredients.map((i) => i.name).join(' and ') || 'these ingredients';
    return {
      sensible: false,
      message: `There is nothing to work with: ${names} can be used up, but not shaped into anything.`,
      suggestions: [
        'Add a base material such as Iron Ore or Oak Wood.',
        'Add an essence (Ember Essence, Frost Shard) to give the result an element.',
        'Try a forge or an alchemy table with raw materials instead of finished consumables.',
      ],
      item: null,
    };
  }
  const intent = (combine.intent ?? '').toLowerCase();
  const intentWord = intent.match(/[a-z]+/g)?.find((w) => SUBTYPE_TYPES[w]);
  const station = (combine.station ?? '').toLowerCase();
  let [stationType, stationSubtype] = Object.entries(STATION_TYPES).find(([k]) =>
    station.includes(k),
  )?.[1] ?? ['WEAPON', 'sword'];
  // Leather at a workbench makes a pouch rather than a buckler.
  if (
    station.includes('workbench') &&
    ingredients.some((i) => /leather|hide|cloth|silk/.test(i.material ?? i.name.toLowerCase()))
  ) {
    [stationType, stationSubtype] = ['CONTAINER', 'pouch'];
  }
  const element: Element = elements[0] ?? elementOf(intent);
  const material = craftable.find((i) => i.element === 'none')?.material ?? craftable[0]?.material ?? 'iron';
  const cue = {
    ...combine.result,
    type: intentWord ? SUBTYPE_TYPES[intentWord] : stationType,
    subtype: intentWord ?? stationSubtype,
  };
  const baseName = `${titleCase(material)} ${titleCase(cue.subtype ?? 'trinket')}`;
  const name = element === 'none' ? `Tempered ${baseName}` : `${ELEMENT_ADJECTIVE[element]} ${baseName}`;
  const item = planItem(cue, { ...cues, element }, rng, { ...options, material, nameHint: name });
  const parts = ingredients.map((i) => i.name).join(', ');
  return {
    sensible: true,
    message: `At the ${combine.station ?? 'workbench'}, ${parts} fuse into ${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}.`,
    suggestions: [],
    item,
  };
}
