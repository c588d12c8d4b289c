import { type Colour, type IconPlan, iconPrompt } from '@lootsmith/protocol';
import { describe, expect, it } from 'vitest';
import { paintImage } from '../src/painter/index.ts';
import { ITEM_KINDS } from '../src/painter/kinds.ts';
import { type DecodedPng, decodePng } from './support.ts';

/** Sweetie 16: a common pixel-art palette, its darkest colour the outline. */
const PALETTE = [
  '#1a1c2c',
  '#5d275d',
  '#b13e53',
  '#ef7d57',
  '#ffcd75',
  '#a7f070',
  '#38b764',
  '#257179',
  '#29366f',
  '#3b5dc9',
  '#41a6f6',
  '#73eff7',
  '#f4f4f4',
  '#94b0c2',
  '#566c86',
  '#333c57',
];
const OUTLINE = '#1a1c2c';

const hexOf = (png: DecodedPng, i: number) =>
  `#${[0, 1, 2].map((c) => (png.rgba[i * 4 + c] as number).toString(16).padStart(2, '0')).join('')}`;

type Art = NonNullable<IconPlan['art']>;

function prompt(
  noun: string,
  art: Art,
  colors: Colour[] = [],
  element = 'none',
  silhouette?: string,
): string {
  return iconPrompt({
    name: `Test ${noun}`,
    look: { noun, materials: ['steel'], colors, features: [] },
    element,
    rarity: 'epic',
    art,
    style: 'pixel art',
    ...(silhouette ? { silhouette } : {}),
  });
}

const paint = (text: string, size: number, steps = 12) =>
  decodePng(paintImage({ prompt: text, width: size, height: size, steps }));

/** Whether every pixel of each of the grid's cells (cell edges at floor(i × size / grid)) is one colour and alpha. */
function onGrid(png: DecodedPng, grid: number): boolean {
  const cellOf = (x: number) => Math.floor((x * grid) / png.width);
  const first = new Map<number, number>();
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const key = cellOf(y) * grid + cellOf(x);
      const o = (y * png.width + x) * 4;
      const value =
        ((png.rgba[o] as number) << 24) |
        ((png.rgba[o + 1] as number) << 16) |
        ((png.rgba[o + 2] as number) << 8) |
        (png.rgba[o + 3] as number);
      const seen = first.get(key);
      if (seen === undefined) first.set(key, value);
      else if (seen !== value) return false;
    }
  }
  return true;
}

/** What a game with a palette, a grid and an outline relies on of every icon. */
function expectWithinArt(png: DecodedPng, size: number, grid: number | null, label: string) {
  expect([png.width, png.height], label).toEqual([size, size]);
  const pixels = size * size;
  const palette = new Set(PALETTE);
  let opaque = 0;
  let soft = 0;
  const off: string[] = [];
  for (let i = 0; i < pixels; i++) {
    const a = png.rgba[i * 4 + 3] as number;
    if (a !== 0 && a !== 255) soft++;
    if (a === 0) continue;
    opaque++;
    const colour = hexOf(png, i);
    if (!palette.has(colour)) off.push(colour);
  }
  if (grid) expect(soft, `${label}: pixels neither clear nor opaque`).toBe(0);
  expect(off.slice(0, 5), `${label}: colours outside the palette`).toEqual([]);
  expect(opaque / pixels, `${label}: the subject is kept`).toBeGreaterThan(0.06);
  for (const i of [0, size - 1, (size - 1) * size, size * size - 1])
    expect(png.rgba[i * 4 + 3], `${label}: corner ${i}`).toBe(0);
  if (grid) expect(onGrid(png, grid), `${label}: on the ${grid}×${grid} grid`).toBe(true);
}

describe('painter paints within a game’s art', () => {
  const art: Art = { pixel_size: 32, palette: PALETTE, outline: OUTLINE };

  it(`paints every one of the ${ITEM_KINDS.length} silhouettes on the grid, in the palette, alpha hard, corners clear`, () => {
    for (const kind of ITEM_KINDS) {
      const png = paint(prompt(kind.replace('_', ' '), art, ['red'], 'fire', kind), 128);
      expectWithinArt(png, 128, 32, kind);
    }
  });

  it('holds at every grid, at sizes the grid does not divide, and at every step count', () => {
    for (const [grid, size, steps] of [
      [16, 64, 5],
      [24, 128, 30],
      [32, 100, 50],
      [48, 96, 12],
      [64, 256, 12],
    ] as const) {
      for (const noun of ['smartgun', 'potion', 'greaves']) {
        const png = paint(prompt(noun, { ...art, pixel_size: grid }, ['blue'], 'lightning'), size, steps);
        expectWithinArt(png, size, grid, `${noun} ${grid}×${grid} at ${size}px, ${steps} steps`);
      }
    }
  });

  it('keeps its palette without a grid (soft edges allowed), and its grid without a palette', () => {
    const smooth = paint(
      prompt('rifle', { pixel_size: null, palette: PALETTE, outline: null }, ['green']),
      128,
    );
    expectWithinArt(smooth, 128, null, 'smooth');
    const free = paint(prompt('rifle', { pixel_size: 32, outline: null }, ['green']), 128);
    expect(onGrid(free, 32)).toBe(true);
    expect(free.rgba.filter((v, i) => i % 4 === 3 && v !== 0 && v !== 255).length).toBe(0);
  });

  it('outlines the subject with one cell of the outline colour, and shades with several palette colours', () => {
    const outline = '#5d275d';
    for (const noun of ['jacket', 'cyberdeck', 'wheat', 'sword']) {
      const png = paint(prompt(noun, { ...art, outline }, ['blue']), 64);
      const cells = 32;
      // The pixel at a cell's top-left corner: each cell is 2×2 pixels.
      const at = (x: number, y: number) => y * 2 * 64 + x * 2;
      const opaque = (x: number, y: number) =>
        x >= 0 && y >= 0 && x < cells && y < cells && (png.rgba[at(x, y) * 4 + 3] as number) > 0;
      let edge = 0;
      const used = new Set<string>();
      for (let y = 0; y < cells; y++) {
        for (let x = 0; x < cells; x++) {
          if (!opaque(x, y)) continue;
          used.add(hexOf(png, at(x, y)));
          const border = [
            [x - 1, y],
            [x + 1, y],
            [x, y - 1],
            [x, y + 1],
          ].some(([nx, ny]) => !opaque(nx as number, ny as number));
          if (!border) continue;
          edge++;
          expect(hexOf(png, at(x, y)), `${noun}: cell ${x},${y} on the edge`).toBe(outline);
        }
      }
      expect(edge, noun).toBeGreaterThan(20);
      expect(used.size, `${noun}: shading steps`).toBeGreaterThanOrEqual(4);
    }
  });

  it('paints a look’s colour as the palette’s nearest colour', () => {
    const count = (png: DecodedPng, hex: string) =>
      Array.from({ length: png.width * png.height }).filter(
        (_, i) => (png.rgba[i * 4 + 3] as number) > 0 && hexOf(png, i) === hex,
      ).length;
    const red = paint(prompt('jacket', art, ['red']), 64);
    const green = paint(prompt('jacket', art, ['green']), 64);
    // Sweetie 16's red and green: each jacket shows its own and hardly the other's.
    expect(count(red, '#b13e53')).toBeGreaterThan(count(green, '#b13e53') + 50);
    expect(count(green, '#38b764') + count(green, '#a7f070')).toBeGreaterThan(
      count(red, '#38b764') + count(red, '#a7f070') + 50,
    );
  });
});
