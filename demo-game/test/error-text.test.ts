import { describe, expect, it } from 'vitest';
import { type Action, errorText, type Failure, UNKNOWN, WORDED_CODES } from '../src/ui/error-text.ts';

// Every refusal a player can cause, in the game's voice with what to do: never the server's own
// message (its field paths and ids are for the developer's console), which the words are not even given.

const ACTIONS: Action[] = ['drop', 'combine', 'create', 'gear', 'start'];

/** A failure as the plugin's LootsmithError carries it, but its message. */
const refusal = (code: string, more: Partial<Failure> = {}): Failure => ({
  code: code as Failure['code'],
  reason: undefined,
  retryAfter: undefined,
  details: undefined,
  ...more,
});

/** The codes a player of the demo can cause by playing, each with words of its own. */
const PLAYER_CODES = [
  'content_refused',
  'player_restricted',
  'skill_too_low',
  'insufficient_materials',
  'rate_limit_exceeded',
  'budget_exceeded',
  'spend_cap_reached',
  'not_owned',
  'not_equippable',
  'wrong_slot',
  'not_consumable',
  'item_equipped',
  'generation_failed',
  'upstream_unavailable',
  'network',
  'timeout',
] as const;

describe("the demo's words for a refusal", () => {
  it('words every code the plugin can fail with, for every action, naming no code, id or field path', () => {
    for (const code of WORDED_CODES)
      for (const action of ACTIONS) {
        const words = errorText(refusal(code), { action });
        for (const text of [words.title, words.detail]) {
          expect(text, `${code} ${action}`).toMatch(/\w/);
          // No code, id or field path: "content_refused", "item_parameters.description".
          expect(text, `${code} ${action}`).not.toMatch(/_|\w\.\w/);
        }
      }
  });

  it('gives each code a player can cause words of its own, and says what to do', () => {
    for (const code of PLAYER_CODES) {
      expect(WORDED_CODES).toContain(code);
      for (const action of ACTIONS) {
        const words = errorText(refusal(code), { action });
        expect(words, `${code} ${action}`).not.toEqual(UNKNOWN);
        expect(words.detail, `${code} ${action}`).toMatch(
          /try|again|need|craft|wear|check|come back|reload|only|keep|take it off|ask|start|running|restocks/i,
        );
      }
    }
    // A game rule rides in `reason` too: the reason picks the words.
    expect(errorText(refusal('invalid_request', { reason: 'skill_too_low' })).title).toBe(
      'Not skilled enough yet',
    );
  });

  it('refuses a player’s words in the smith’s voice, with what to do', () => {
    expect(
      errorText(refusal('content_refused', { reason: 'content_refused' }), { action: 'create' }),
    ).toEqual({
      title: 'The smith won’t forge words like that',
      detail: 'Try other words. Nothing was spent.',
    });
    expect(errorText(refusal('content_refused'), { action: 'combine' }).title).toMatch(
      /won’t work to those words/,
    );
    expect(
      errorText(refusal('player_restricted', { details: { refusals: 5, hours: 24 } }), { action: 'create' })
        .detail,
    ).toBe('Too many of your words were refused. Come back within 24 h and try kinder ones.');
  });

  it('says which level a craft needs, and which materials are missing, by name', () => {
    const skill = refusal('skill_too_low', { details: { required_level: 2, crafting_level: 1 } });
    expect(errorText(skill).detail).toBe(
      'That needs crafting level 2 (you are level 1). Craft at the Workbench to gain XP.',
    );
    const missing = refusal('insufficient_materials', {
      details: { missing: [{ item_id: 'ember_essence', have: 0, need: 2 }] },
    });
    const names: Record<string, string> = { ember_essence: 'Ember Essence' };
    expect(errorText(missing, { nameOf: (id) => names[id] ?? id }).detail).toBe(
      'You need 2 more Ember Essence.',
    );
    expect(errorText(refusal('insufficient_materials')).detail).toMatch(/check your bag/);
  });

  it('words a limit by what was limited, with the wait the server asked for', () => {
    const limited = refusal('rate_limit_exceeded', { retryAfter: 1500 });
    expect(errorText(limited, { action: 'create', createPerHour: 5 })).toEqual({
      title: 'The forge fire needs to rest',
      detail: 'Only 5 items can be forged per hour. Try again in 25 min.',
    });
    expect(errorText(refusal('rate_limit_exceeded', { retryAfter: 12 }), { action: 'drop' }).detail).toMatch(
      /restocks .* again in 12 s\./,
    );
    expect(errorText(refusal('rate_limit_exceeded'), { action: 'combine' }).detail).toMatch(/in a moment\.$/);
    expect(errorText(refusal('budget_exceeded'), { action: 'drop' }).detail).toMatch(/midnight/);
  });

  it('gives a code it does not know, or a proxy’s bare status, a generic but friendly line', () => {
    expect(errorText(refusal('brand_new_code'))).toEqual(UNKNOWN);
    expect(errorText(refusal('http_502'), { action: 'drop' })).toEqual(UNKNOWN);
    expect(UNKNOWN.detail).toMatch(/try again/);
  });
});
