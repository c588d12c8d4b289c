import type { LootsmithError } from '@lootsmith/plugin';

/** What the player was doing when Lootsmith said no: the words name that. */
export type Action = 'drop' | 'combine' | 'create' | 'gear' | 'start';

export interface ErrorContext {
  action?: Action;
  /** An item's name by its id (a material the player lacks). */
  nameOf?: (id: string) => string;
  /** Items the game lets a player forge an hour (`create_item.per_hour`), when known. */
  createPerHour?: number;
}

/** A refusal in the game's voice: what happened, and what to do about it. */
export interface Words {
  title: string;
  detail: string;
}

/** Every code a Lootsmith call can fail with, but `http_<status>` (a proxy's answer, without a body). */
type Code = Exclude<LootsmithError['code'], `http_${number}`>;

/** What the words are made from: the failure's code, reason, wait and details, never its message. */
export type Failure = Pick<LootsmithError, 'code' | 'reason' | 'retryAfter' | 'details'>;

type Wording = (error: Failure, context: ErrorContext) => Words;

/** "in 40 s", "in 3 min", "in 2 h"; "in a moment" when the server said nothing. */
function waitFor(seconds: number | undefined): string {
  if (!seconds) return 'in a moment';
  if (seconds < 90) return `in ${Math.ceil(seconds)} s`;
  if (seconds < 5400) return `in ${Math.ceil(seconds / 60)} min`;
  return `in ${Math.ceil(seconds / 3600)} h`;
}

const details = (error: Failure) => (error.details ?? {}) as Record<string, unknown>;
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

const tooFast: Wording = (error, { action, createPerHour }) => {
  const again = `Try again ${waitFor(error.retryAfter)}.`;
  switch (action) {
    case 'create':
      return {
        title: 'The forge fire needs to rest',
        detail: `${createPerHour ? `Only ${createPerHour} items can be forged per hour.` : 'The smith has forged all an hour allows.'} ${again}`,
      };
    case 'combine':
      return {
        title: 'The workbench needs a moment',
        detail: `You are crafting faster than it can keep up. ${again}`,
      };
    case 'drop':
      return {
        title: 'The loot has run dry for now',
        detail: `The dungeon restocks between fights. ${again}`,
      };
    default:
      return { title: 'Not so fast', detail: again };
  }
};

const wordsRefused: Wording = (_, { action }) => ({
  title:
    action === 'combine' ? 'The crafter won’t work to those words' : 'The smith won’t forge words like that',
  detail: 'Try other words. Nothing was spent.',
});

const notSetUp: Wording = () => ({
  title: 'The smithy is closed',
  detail: 'The game’s server is not set up for this; its keepers can see why in its logs.',
});

const signInAgain: Wording = () => ({
  title: 'Your session has ended',
  detail: 'Reload the page to sign in again; your bag is kept.',
});

const makerResting: Wording = (_, { action }) => ({
  title: action === 'drop' ? 'The loot fizzled' : 'The item maker is resting',
  detail: 'Nothing was spent; try again in a moment.',
});

const didNotWork: Wording = (_, { action }) => ({
  title: action === 'drop' ? 'The loot fizzled' : 'That didn’t work',
  detail: 'Nothing was spent; try again, or try something else.',
});

const grantRefused: Wording = () => ({
  title: 'The loot slipped away',
  detail: 'This fight’s reward could not be claimed; the next one will be.',
});

/**
 * The words for every code (a code a player cannot cause in the demo shares a line with its kind);
 * `satisfies` keeps the table whole when the plugin learns a new one.
 */
const WORDINGS = {
  content_refused: wordsRefused,
  player_restricted: (error) => {
    const hours = count(details(error).hours);
    return {
      title: 'The smith has stopped listening',
      detail: `Too many of your words were refused. Come back ${hours ? `within ${hours} h` : 'later'} and try kinder ones.`,
    };
  },
  skill_too_low: (error) => {
    const { required_level: need, crafting_level: have } = details(error);
    const level = count(need) === undefined ? 'more crafting skill' : `crafting level ${need}`;
    return {
      title: 'Not skilled enough yet',
      detail: `That needs ${level}${count(have) === undefined ? '' : ` (you are level ${have})`}. Craft at the Workbench to gain XP.`,
    };
  },
  insufficient_materials: (error, { nameOf = (id) => id }) => {
    const missing = details(error).missing;
    const list = Array.isArray(missing)
      ? missing.map(
          (m: { item_id: string; have: number; need: number }) =>
            `${m.need - m.have} more ${nameOf(m.item_id)}`,
        )
      : [];
    return {
      title: 'Missing materials',
      detail: list.length
        ? `You need ${list.join(', ')}.`
        : 'You do not have all of that any more: check your bag.',
    };
  },
  rate_limit_exceeded: tooFast,
  budget_exceeded: (_, { action }) => ({
    title: 'Enough for today',
    detail: `${action === 'drop' ? 'The dungeon has given' : 'The smith has made'} all it gives a hero in a day. It starts again at midnight (UTC).`,
  }),
  not_owned: () => ({ title: 'Not in your bag', detail: 'That item is no longer yours to wear or use.' }),
  not_equippable: () => ({
    title: 'That cannot be worn',
    detail: 'Only gear goes on the hero; keep it in your bag.',
  }),
  wrong_slot: () => ({
    title: 'That goes elsewhere',
    detail: 'Wear it from your bag: it finds its own slot.',
  }),
  not_consumable: () => ({
    title: 'That cannot be used up',
    detail: 'Only potions and the like can be drunk or used.',
  }),
  item_equipped: () => ({
    title: 'You are wearing that',
    detail: 'Take it off first, or agree to use it up in the craft.',
  }),
  // What making items may cost a day or a month (the player's share, or the game's) is spent.
  spend_cap_reached: (error, { action }) => ({
    title: action === 'drop' ? 'The loot has run dry for now' : 'The smithy has spent its purse',
    detail: `Nothing was spent. New items come again ${
      details(error).cap === 'game_monthly' ? 'next month' : 'tomorrow'
    }; until then, use what you have.`,
  }),
  player_blocked: () => ({
    title: 'The smithy has barred you',
    detail: 'The game’s keepers have blocked this hero. Ask them if you think it is a mistake.',
  }),
  network: () => ({ title: 'Cannot reach the Lootsmith server', detail: 'Is it still running? (npm start)' }),
  timeout: () => ({ title: 'The server took too long', detail: 'Nothing was lost; try again.' }),
  generation_failed: (_, { action }) => ({
    title: action === 'drop' ? 'The loot fizzled' : 'The smith could not make it',
    detail:
      action === 'create' || action === 'combine'
        ? 'Nothing was spent; try again, perhaps in other words.'
        : 'Nothing was spent; try again.',
  }),
  upstream_unavailable: makerResting,
  upstream_rejected: makerResting,
  upstream_key_refused: notSetUp,
  internal: makerResting,
  aborted: () => ({ title: 'Stopped', detail: 'You stopped it; nothing was spent.' }),
  unauthorized: signInAgain,
  token_expired: signInAgain,
  token_revoked: signInAgain,
  token_failed: signInAgain,
  guest_secret_required: signInAgain,
  grant_required: grantRefused,
  grant_invalid: grantRefused,
  grant_expired: grantRefused,
  grant_mismatch: grantRefused,
  grant_used: grantRefused,
  forbidden: notSetUp,
  dev_login_disabled: notSetUp,
  console_disabled: notSetUp,
  chat_disabled: notSetUp,
  not_configured: notSetUp,
  missing_api_key: notSetUp,
  invalid_api_key: notSetUp,
  permission_denied: notSetUp,
  client_restricted: notSetUp,
  insufficient_credits: notSetUp,
  unknown_model: notSetUp,
  invalid_request: didNotWork,
  missing_client_id: didNotWork,
  invalid_json: didNotWork,
  invalid_content_type: didNotWork,
  body_too_large: didNotWork,
  bad_url: didNotWork,
  not_found: didNotWork,
  unknown_enemy: didNotWork,
  unknown_station: didNotWork,
  unknown_item: didNotWork,
  unknown_slot: didNotWork,
  unknown_type: didNotWork,
  too_many_items: didNotWork,
  bad_response: didNotWork,
  no_icon: didNotWork,
  texture_failed: didNotWork,
  icon_pending: didNotWork,
} satisfies Record<Code, Wording>;

/** The line of a code none of the above knows (a newer server's, or a proxy's `http_502`). */
export const UNKNOWN: Words = {
  title: 'Something went wrong',
  detail: 'Nothing was lost; try again in a moment.',
};

/**
 * A player-facing title and explanation for any Lootsmith failure, in the game's voice and with what
 * to do next. The server's own message (field paths, ids) is for the console, never shown here.
 */
export function errorText(error: Failure, context: ErrorContext = {}): Words {
  const code = error.reason ?? error.code;
  const wording = (WORDINGS as Record<string, Wording | undefined>)[code];
  return wording ? wording(error, context) : UNKNOWN;
}

/** The codes the table words, for its tests. */
export const WORDED_CODES = Object.keys(WORDINGS) as Code[];
