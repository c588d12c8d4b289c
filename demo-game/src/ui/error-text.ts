import type { LootsmithError } from '@lootsmith/plugin';

interface Missing {
  item_id: string;
  have: number;
  need: number;
}

function missingList(error: LootsmithError, nameOf: (id: string) => string): string | undefined {
  const missing = (error.details as { missing?: Missing[] } | undefined)?.missing;
  if (!Array.isArray(missing) || missing.length === 0) return undefined;
  return `You need ${missing.map((m) => `${m.need - m.have} more ${nameOf(m.item_id)}`).join(', ')}.`;
}

/** A player-facing title and explanation for any Lootsmith failure; `nameOf` names item ids. */
export function errorText(
  error: LootsmithError,
  nameOf: (id: string) => string = (id) => id,
): { title: string; detail: string } {
  switch (error.reason ?? error.code) {
    case 'skill_too_low':
      return {
        title: 'Not skilled enough yet',
        detail: `${error.message}. Craft at the Workbench to gain XP.`,
      };
    case 'insufficient_materials':
      return { title: 'Missing materials', detail: missingList(error, nameOf) ?? error.message };
    case 'rate_limit_exceeded': {
      const minutes = error.retryAfter ? Math.ceil(error.retryAfter / 60) : undefined;
      return {
        title: 'The forge fire needs to rest',
        detail: `Only 5 items can be created per hour.${minutes ? ` Try again in ${minutes} min.` : ''}`,
      };
    }
    case 'not_owned':
      return { title: 'Not in your bag', detail: 'That item is no longer yours to wear or use.' };
    case 'not_equippable':
      return { title: 'That cannot be worn', detail: error.message };
    case 'wrong_slot':
      return { title: 'Wrong slot', detail: error.message };
    case 'not_consumable':
      return { title: 'That cannot be used up', detail: error.message };
    case 'budget_exceeded':
      return { title: 'Daily budget used up', detail: error.message };
    case 'network':
      return { title: 'Cannot reach the Lootsmith server', detail: 'Is it still running? (npm start)' };
    case 'upstream_unavailable':
      return {
        title: 'The item generator is unavailable',
        detail: 'Nothing was spent; try again in a moment.',
      };
    default:
      return { title: 'Something went wrong', detail: error.message };
  }
}
