import type { Rng } from '../random.ts';
import { ELEMENT_EFFECTS, type Element } from './lexicon.ts';
import type { AffixCategory, Vocabulary } from './vocabulary.ts';

export interface Affix {
  name: string;
  effect: string;
}

/** Name roots per element; an element the writer has none for lends its own name. */
const ROOT: Record<Element, readonly string[]> = {
  none: ['Iron', 'Stalwart', 'Steady', 'Warden'],
  fire: ['Ember', 'Cinder', 'Flame', 'Pyre'],
  frost: ['Rime', 'Frost', 'Glacier', 'Winter'],
  poison: ['Venom', 'Blight', 'Viper', 'Mire'],
  shadow: ['Umbral', 'Dusk', 'Void', 'Grave'],
  holy: ['Radiant', 'Dawn', 'Saint', 'Halo'],
  lightning: ['Storm', 'Thunder', 'Spark', 'Tempest'],
};

/** Templates: {R} a root of the element, {d} its damage word, {n} a number, {s} a small number. */
const TEMPLATES: Record<Exclude<AffixCategory, 'strike'>, ReadonlyArray<readonly [string, string]>> = {
  guard: [
    ['{R} Ward', 'Reduces {d} damage taken by {n}%.'],
    ['Thorns of {R}', 'Attackers take {n} {d} damage.'],
    ['{R} Bulwark', 'Blocking restores {n} health.'],
    ['Second Wind', 'When badly hurt, regenerate {n} health per second for {s}s.'],
    ['{R} Mantle', 'Gain a {n}-point {d} shield after resting for 5s.'],
    ['Unyielding', 'Reduces stagger from heavy blows by {n}%.'],
    ['Fleetfoot', 'Increases movement speed by {n}% out of combat.'],
  ],
  trinket: [
    ['{R} Focus', 'Your {d} spells deal {n}% more damage.'],
    ['Wellspring', 'Regenerate {n} mana every 5s.'],
    ["Fortune's Favour", 'Enemies drop {n}% more gold.'],
    ['{R} Sigil', 'Increases {d} resistance by {n}%.'],
    ['Keen Mind', 'Cooldowns recover {n}% faster.'],
    ['{R} Echo', 'One spell in {s} is cast twice.'],
  ],
  use: [
    ['{R} Draught', 'On use: {d} resistance +{n}% for a minute.'],
    ['Mending', 'On use: heals {n} more over ten seconds.'],
    ['Quickening', 'On use: movement speed +{n}% for a short while.'],
    ['{R} Fortitude', 'On use: absorbs the next {n} {d} damage.'],
    ['Clarity', 'On use: cures poison and restores {n} mana.'],
    ['{R} Infusion', 'On use: attacks deal {n} bonus {d} damage for half a minute.'],
  ],
  craft: [
    ['{R} Temper', 'Items crafted with it gain +{n} {d} resistance.'],
    ['Fine Grain', 'Items crafted with it gain +{s} to their main stat per level.'],
    ['{R} Resonance', 'Crafting with it adds a {d} affix {n}% of the time.'],
    ['Stable', 'Never spoils or cracks in a failed craft.'],
  ],
};

/** Strikes of an element the writer has no words for: its damage by name. */
const ANY_STRIKE: ReadonlyArray<readonly [string, string]> = [
  ['{R} Edge', 'Hits deal {n} extra {d} damage.'],
  ['{R} Surge', 'Critical hits deal {n}% more {d} damage.'],
  ['{R} Overload', 'Every fourth hit releases {n} {d} damage around the target.'],
];

function fill(template: string, damage: string, n: number, s: number, root: string): string {
  return template
    .replaceAll('{R}', root)
    .replaceAll('{d}', damage)
    .replaceAll('{n}', String(n))
    .replaceAll('{s}', String(s));
}

/** Affixes that fit what the item is: on-hit effects only on types that strike, on-use effects only on consumables. */
export function affixesFor(
  vocab: Vocabulary,
  type: string,
  element: string,
  rarity: number,
  level: number,
  count: number,
  rng: Rng,
): Affix[] {
  const category: AffixCategory = vocab.type(type)?.affixes ?? 'guard';
  const own = (ELEMENT_EFFECTS as Record<string, (typeof ELEMENT_EFFECTS)['none']>)[element];
  const strikes = [
    ...(own ?? ANY_STRIKE.map(([name, effect]) => ({ name, effect }))),
    ...(element === 'none' ? [] : ELEMENT_EFFECTS.none),
  ];
  const pool: ReadonlyArray<readonly [string, string]> =
    category === 'strike' ? strikes.map((a) => [a.name, a.effect] as const) : TEMPLATES[category];
  const name = vocab.element(element)?.name ?? element;
  // The damage word of an element ("none" is plain physical work).
  const damage = element === 'none' ? 'physical' : name.toLowerCase();
  const roots = (ROOT as Record<string, readonly string[]>)[element] ?? [name];
  const start = rng.int(0, pool.length - 1);
  const affixes: Affix[] = [];
  for (let i = 0; i < Math.min(count, pool.length); i++) {
    const [label, effect] = pool[(start + i) % pool.length] as readonly [string, string];
    const n = Math.max(2, Math.round(3 + level * 0.4 + rarity * 3 + rng.int(0, 4)));
    const s = 1 + Math.floor(rarity / 2);
    const root = rng.pick(roots);
    affixes.push({ name: fill(label, damage, n, s, root), effect: fill(effect, damage, n, s + 2, root) });
  }
  return affixes;
}
