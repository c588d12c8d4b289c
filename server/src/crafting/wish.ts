import { readWishFor, type Wish } from '@lootsmith/engine';
import type { CreateItemRequest, GameDefinition, Item } from '@lootsmith/protocol';
import { carries, focusStats } from '../game/rules.ts';
import { gameLines } from '../generation/prompts.ts';

type Station = GameDefinition['stations'][number];

/** What a create-item's words ask for, above the form's defaults, and the notes that say what was followed. */
type ItemParameters = CreateItemRequest['item_parameters'];

const typeName = (game: GameDefinition, id: string) =>
  (game.item_types.find((t) => t.id === id)?.name ?? id.toLowerCase()).replaceAll('_', ' ');
const statName = (game: GameDefinition, id: string) => game.stats.find((s) => s.id === id)?.name ?? id;

/**
 * A create-item's parameters with the player's words put above the form's defaults, and a note for
 * each default they overrode: the type their words ask for when the station makes it (a thing they
 * name, else what it is for: "i want to protect myself" is no weapon), the colour they name over the
 * colour setting, the stat their words lean to over a focus that disagrees ("a healing potion" with
 * Attack left on heals).
 */
export function followWish(
  game: GameDefinition,
  st: Station,
  given: ItemParameters,
): { params: ItemParameters; wish: Wish; notes: string[] } {
  const wish = readWishFor(given.description, gameLines(game), st.types, given.type);
  const notes: string[] = [];
  let type = given.type;
  if (wish.type && wish.type !== given.type) {
    type = wish.type;
    notes.push(
      `Made ${article(typeName(game, type))}, not ${article(typeName(game, given.type))}: that is what your words ask for.`,
    );
  } else if (wish.noun && !wish.type)
    notes.push(
      `The ${st.name} cannot make ${article(wish.noun)} (it makes ${st.types.map((t) => typeName(game, t)).join(', ')}), so this is ${article(typeName(game, type))}.`,
    );
  let focus = given.focus_attributes;
  if (
    wish.stat &&
    carries(game, type, wish.stat) &&
    !focusStats(game, focus.join(', ')).some((f) => wish.stats?.includes(f))
  ) {
    if (focus.length)
      notes.push(
        `Leans to ${statName(game, wish.stat)}, as your words ask, not to ${focus.join(', ')} as the focus says.`,
      );
    focus = [wish.stat, ...focus].slice(0, 4);
  }
  let look = given.visual_preferences;
  const key = 'colour' in look ? 'colour' : 'color';
  const setting = chosenColour(look);
  if (wish.colour && setting && setting !== wish.colour) {
    look = { ...look, [key]: wish.colour };
    notes.push(`Coloured ${wish.colour} as your words say, not ${setting} as the colour setting says.`);
  }
  return { params: { ...given, type, focus_attributes: focus, visual_preferences: look }, wish, notes };
}

/** "a shield", "an amulet"; "boots" and "body armour" take none. */
const article = (noun: string) =>
  /[^s]s$|armou?r$|gear$/i.test(noun) ? noun : `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** An effect the words surely asked for that the item does not carry, with why. */
export function effectNotes(game: GameDefinition, wish: Wish, item: Item): string[] {
  const wanted = [...wish.effects, ...(wish.sure ? [wish.sure] : [])];
  if (!wish.sure || wanted.some((id) => item.effects.some((e) => e.id === id))) return [];
  const asked = game.effects.find((e) => e.id === wish.sure);
  if (!asked) return [];
  const name = asked.name ?? asked.id;
  const kind = article(typeName(game, item.type));
  if (!asked.types.includes(item.type))
    return [
      `No ${name}: ${kind} cannot carry it (${asked.types.map((t) => typeName(game, t)).join(', ')} can).`,
    ];
  const others = item.effects.map((e) => game.effects.find((x) => x.id === e.id)?.name ?? e.id);
  return [
    others.length
      ? `No ${name}: the item came with ${others.join(', ')} instead.`
      : `No ${name}: ${kind} of this rarity carries no effect.`,
  ];
}
/** The colour a player chose in their visual preferences (`color` or `colour`), if a word. */
export function chosenColour(
  prefs: CreateItemRequest['item_parameters']['visual_preferences'],
): string | undefined {
  const value = prefs.color ?? prefs.colour;
  return typeof value === 'string' && /^[a-z][a-z -]{1,23}$/i.test(value.trim())
    ? value.trim().toLowerCase()
    : undefined;
}

/**
 * What of a create-item request the item could not follow, each with its reason: a focus the game
 * has no stat for or the type cannot carry, a game material the description names but the player
 * did not give.
 */
export function requestNotes(
  game: GameDefinition,
  body: CreateItemRequest,
  item: Item,
  ingredients: Array<{ item: Item }>,
): string[] {
  const notes: string[] = [];
  const params = body.item_parameters;
  for (const focus of params.focus_attributes) {
    const [stat] = focusStats(game, focus);
    if (!stat)
      notes.push(
        `"${focus}" is not a stat of ${game.name}; its stats: ${game.stats.map((s) => s.name).join(', ')}.`,
      );
    else if (!carries(game, item.type, stat))
      notes.push(`A ${item.type.toLowerCase()} cannot carry ${focus}, so it leans elsewhere.`);
  }
  const given = new Set(ingredients.map((i) => i.item.name.toLowerCase()));
  const words = new Set(params.description.toLowerCase().match(/[a-z]+/g) ?? []);
  for (const m of game.materials) {
    const head = m.name.toLowerCase().split(/\s+/)[0] as string;
    if (words.has(head) && !given.has(m.name.toLowerCase()) && !item.material.toLowerCase().includes(head))
      notes.push(`Made of ${item.material}, not ${head}: no ${m.name} was among the materials you gave.`);
  }
  return notes;
}
