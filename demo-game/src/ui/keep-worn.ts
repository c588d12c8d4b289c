import { equippedIngredients } from '@lootsmith/plugin';
import { confirmDialog } from './confirm.ts';
import { h, showResult } from './dom.ts';

/** The words of a craft for the question and the answer: `combine`, `combined`. */
export interface CraftWords {
  verb: string;
  done: string;
}

/**
 * Runs `craft`; when the server refuses it because it would use up an item the hero wears, asks the
 * player, and runs it again only on a yes (with `consumeEquipped`). On a no: undefined, and a word
 * in `result` that nothing was made.
 */
export async function craftAsked<T>(
  craft: (consumeEquipped: boolean) => Promise<T>,
  words: CraftWords,
  result: HTMLElement,
): Promise<T | undefined> {
  try {
    return await craft(false);
  } catch (e) {
    const worn = equippedIngredients(e);
    if (!worn) throw e;
    const names = worn.map((w) => w.name).join(' and ');
    const one = worn.length === 1;
    const yes = await confirmDialog({
      question: `${names} ${one ? 'is' : 'are'} equipped — ${words.verb} ${one ? 'it' : 'them'} anyway?`,
      detail: `${one ? 'It' : 'They'} will be used up, and your hero will no longer wear ${one ? 'it' : 'them'}.`,
      yes: `${words.verb[0]?.toUpperCase()}${words.verb.slice(1)} anyway`,
      no: one ? 'Keep it' : 'Keep them',
    });
    if (yes) return await craft(true);
    showResult(
      result,
      h(
        'p',
        { class: 'hint', 'data-role': 'kept' },
        `Nothing ${words.done}: ${names} ${one ? 'stays' : 'stay'} equipped.`,
      ),
    );
    return undefined;
  }
}
