import {
  colourOfMaterial,
  colourOfWord,
  effectElements,
  FORMER_OWNERS,
  type GameDefinition,
  type GeneratedItem,
  type ItemOrigin,
  lookNamedIn,
  materialFamily,
  NO_ELEMENT,
} from '@lootsmith/protocol';

/**
 * One item, one story: what an item's words say agrees with its plan (`look`), its element, its
 * effects and how it came to be. Each problem is a sentence a model can act on.
 */

/** Words that promise healing; an item keeps that promise with a healing stat or effect. */
const HEALS = /\bheal(s|ing|ed)?\b|\bmends? (wounds|you)\b/i;
const HEALING_STAT = /health|\bhp\b|life|vital|hull|heal/i;
const HEALING_EFFECT = /\bheal|\brestor|\brepair/i;

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The game's proper names as written (enemies, places, stations, materials, effects), which say
 * nothing of an item's look: "taken from the Iron Golem", "forged from Iron Ore".
 */
function properNames(game: GameDefinition): RegExp | undefined {
  const names = [
    ...game.enemies.map((e) => e.name),
    ...game.loot_pools.locations,
    ...game.loot_pools.rooms.map((r) => r.name),
    ...game.stations.map((s) => s.name),
    ...game.materials.map((m) => m.name),
    ...game.effects.map((e) => e.name),
  ].filter((n) => n.length > 1);
  return names.length
    ? new RegExp(
        `\\b(${names
          .sort((a, b) => b.length - a.length)
          .map(literal)
          .join('|')})\\b`,
        'g',
      )
    : undefined;
}
const namesByGame = new WeakMap<GameDefinition, RegExp | undefined>();

/** Whether two elements cancel out, either way round. */
export function opposed(game: GameDefinition, a: string, b: string): boolean {
  const of = (id: string) => game.elements.find((e) => e.id === id)?.opposes ?? [];
  return of(a).includes(b) || of(b).includes(a);
}

export function agreementProblems(game: GameDefinition, item: GeneratedItem, origin?: ItemOrigin): string[] {
  const problems: string[] = [];
  const { look } = item;
  // An item stored before plans carries none: there is nothing to hold its words to.
  if (!look) return problems;
  const families = new Set(look.materials.map(materialFamily));
  if (!families.has(materialFamily(item.material)))
    problems.push(
      `material "${item.material}" must be the first of look.materials (${look.materials.join(', ')})`,
    );
  const colours = new Set<string>(look.colors);
  for (const m of look.materials) {
    const own = colourOfMaterial(m);
    if (own) colours.add(own);
  }
  const asked = item.color ? colourOfWord(item.color) : undefined;
  if (asked && !look.colors.includes(asked))
    problems.push(`the player asked for ${item.color}: look.colors must hold ${asked}`);
  if (!namesByGame.has(game)) namesByGame.set(game, properNames(game));
  const names = namesByGame.get(game);
  const noun = new RegExp(`\\b(${[look.noun, item.subtype].map(literal).join('|')})\\b`, 'gi');
  const own = game.writer?.materials ?? [];
  for (const field of ['name', 'description', 'lore'] as const) {
    const text = (names ? item[field].replace(names, ' ') : item[field]).replace(noun, ' ');
    const named = lookNamedIn(text, own);
    const strayMaterials = [...named.materials].filter((m) => !families.has(m));
    if (strayMaterials.length)
      problems.push(
        `${field} names ${strayMaterials.join(', ')}, but the item is made of ${look.materials.join(', ')}: name only its materials`,
      );
    const strayColours = [...named.colours].filter((c) => !colours.has(c));
    if (strayColours.length)
      problems.push(
        `${field} names the colour ${strayColours.join(', ')}, which is not in look.colors (${look.colors.join(', ') || 'none'}): name only its colours`,
      );
    const strayFeatures = [...named.features].filter((f) => !look.features.includes(f));
    if (strayFeatures.length)
      problems.push(
        `${field} names ${strayFeatures.join(', ')}, which look.features lacks: add it there, or leave it out of the ${field}`,
      );
  }
  // Effects that cancel out: each other, or the item's own element.
  const elementsOf = item.effects.map((e) => ({
    id: e.id,
    elements: effectElements(game.effects.find((x) => x.id === e.id) ?? { id: e.id }, game.elements),
  }));
  for (const [i, a] of elementsOf.entries()) {
    if (item.element !== NO_ELEMENT && a.elements.some((x) => opposed(game, x, item.element)))
      problems.push(`effects.${i}: ${a.id} cannot be on a ${item.element} item (its element opposes it)`);
    for (const b of elementsOf.slice(i + 1))
      if (a.elements.some((x) => b.elements.some((y) => opposed(game, x, y))))
        problems.push(`effects ${a.id} and ${b.id} cancel out: keep one`);
  }
  // The text names no ability the item lacks.
  const text = `${item.description} ${item.lore}`;
  for (const effect of game.effects) {
    if (item.effects.some((e) => e.id === effect.id)) continue;
    // Named as the game names it, inside a sentence (a sentence's first word is capitalised anyway).
    if (new RegExp(`[^.!?]\\s${literal(effect.name)}\\b`).test(` ${text}`))
      problems.push(`the text names ${effect.name}, which the item does not have`);
  }
  const heals =
    item.stats.some(
      (s) =>
        s.value > 0 && HEALING_STAT.test(`${s.name} ${game.stats.find((x) => x.id === s.name)?.name ?? ''}`),
    ) ||
    item.effects.some((e) => {
      const known = game.effects.find((x) => x.id === e.id);
      return known !== undefined && HEALING_EFFECT.test(`${known.name} ${known.text}`);
    });
  if (!heals && HEALS.test(`${item.name} ${text}`))
    problems.push('the text promises healing, but the item has no healing stat or effect');
  if (origin === 'made' && FORMER_OWNERS.test(text))
    problems.push('the item was made just now: its lore tells of its making, not of former owners');
  return problems;
}
