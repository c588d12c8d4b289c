import type { PixelSprite } from './pixel-art.ts';

// Worn gear, drawn on the hero's 16×16 grid in greys: each is tinted with the worn item's colour and
// laid over the hero, so what the player wears shows in the dungeon (a weapon or shield shows as its
// own icon once that has loaded; these shapes stand in until then).
const GREYS = { w: 0xffffff, l: 0xd0d0d0, m: 0x9a9a9a, d: 0x5c5c5c };
const BLANK = '................';
const grid = (rows: Record<number, string>): string[] =>
  Array.from({ length: 16 }, (_, i) => rows[i] ?? BLANK);

export const GEAR_SPRITES: Record<string, PixelSprite> = {
  HELMET: {
    rows: grid({
      0: '.....wwwwww.....',
      1: '....wllllllw....',
      2: '....mllllllm....',
    }),
    palette: GREYS,
  },
  CHEST: {
    rows: grid({
      6: '...mmllllllmm...',
      7: '...mlwwddwwlm...',
      8: '....lwllllwl....',
      9: '....llllllll....',
      10: '.....mmmmmm.....',
    }),
    palette: GREYS,
  },
  LEGS: {
    rows: grid({ 11: '.....ll..ll.....', 12: '.....lm..ml.....' }),
    palette: GREYS,
  },
  BOOTS: {
    rows: grid({ 13: '.....ll..ll.....', 14: '....mll..llm....' }),
    palette: GREYS,
  },
  GLOVES: {
    rows: grid({ 8: '..l..........l..', 9: '..m..........m..' }),
    palette: GREYS,
  },
  WEAPON: {
    rows: grid({
      2: '..............w.',
      3: '.............wl.',
      4: '.............wl.',
      5: '.............wl.',
      6: '.............wl.',
      7: '.............wl.',
      8: '.............wl.',
      9: '............mddm',
      10: '..............d.',
    }),
    palette: GREYS,
  },
  SHIELD: {
    rows: grid({
      6: 'mmmm............',
      7: 'mwwm............',
      8: 'mwlm............',
      9: 'mllm............',
      10: '.mm.............',
    }),
    palette: GREYS,
  },
  ACCESSORY: {
    rows: grid({ 5: '.......ww.......', 6: '......w..w......', 7: '.......ww.......' }),
    palette: GREYS,
  },
  // A cloak behind the hero: worn for the catch-all EQUIPMENT type.
  EQUIPMENT: {
    rows: grid({
      6: '...mmmmmmmmmm...',
      7: '...mllllllllm...',
      8: '...mllllllllm...',
      9: '...mllllllllm...',
      10: '...mllllllllm...',
      11: '...mmllllllmm...',
      12: '....mmmmmmmm....',
    }),
    palette: GREYS,
  },
};

/** Slots drawn behind the hero's body rather than over it. */
export const BEHIND_HERO = new Set(['EQUIPMENT']);
