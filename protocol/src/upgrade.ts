/**
 * Words of a combine's intent that ask to change the item being improved ("freeze instead of burn",
 * "remove the spikes", "turn it into a shield"). Without them, combining an item with materials keeps
 * its type, subtype, stats and effects: the engine's judge writes it so, and the server checks it.
 */
const CHANGE_WORDS =
  /\b(?:instead|without|remove|removing|strip|replace|replacing|swap|lose|losing|rid of|no more|no longer|reforge|change|changing|(?:turn|make|reshape|remake) (?:it|this|them|my \w+|the \w+) into)\b/i;

/** Whether the player's words ask an upgrade to change what the item is or carries. */
export const intentChangesItem = (intent: string | undefined): boolean =>
  intent !== undefined && CHANGE_WORDS.test(intent);
