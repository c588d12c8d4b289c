/** A 3×5 pixel font for contact-sheet labels: each glyph is five rows of three bits. */
const GLYPHS: Record<string, string> = {
  A: '010 101 111 101 101',
  B: '110 101 110 101 110',
  C: '011 100 100 100 011',
  D: '110 101 101 101 110',
  E: '111 100 110 100 111',
  F: '111 100 110 100 100',
  G: '011 100 101 101 011',
  H: '101 101 111 101 101',
  I: '111 010 010 010 111',
  J: '001 001 001 101 010',
  K: '101 101 110 101 101',
  L: '100 100 100 100 111',
  M: '101 111 111 101 101',
  N: '110 101 101 101 101',
  O: '010 101 101 101 010',
  P: '110 101 110 100 100',
  Q: '010 101 101 110 011',
  R: '110 101 110 101 101',
  S: '011 100 010 001 110',
  T: '111 010 010 010 010',
  U: '101 101 101 101 111',
  V: '101 101 101 101 010',
  W: '101 101 111 111 101',
  X: '101 101 010 101 101',
  Y: '101 101 010 010 010',
  Z: '111 001 010 100 111',
  '0': '111 101 101 101 111',
  '1': '010 110 010 010 111',
  '2': '110 001 010 100 111',
  '3': '110 001 010 001 110',
  '4': '101 101 111 001 001',
  '5': '111 100 110 001 110',
  '6': '011 100 111 101 111',
  '7': '111 001 010 010 010',
  '8': '111 101 111 101 111',
  '9': '111 101 111 001 110',
  '-': '000 000 111 000 000',
  "'": '010 010 000 000 000',
  '.': '000 000 000 000 010',
  ':': '000 010 000 010 000',
  '/': '001 001 010 100 100',
  ' ': '000 000 000 000 000',
};

/** Width in pixels of `text` drawn at `scale`. */
export function textWidth(text: string, scale: number): number {
  return text.length * 4 * scale - scale;
}

/** Draws upper-cased `text` into an RGBA buffer `width` pixels wide, top-left at (x, y). */
export function drawText(
  rgba: Uint8Array,
  width: number,
  x: number,
  y: number,
  text: string,
  scale: number,
  colour: readonly [number, number, number],
): void {
  [...text.toUpperCase()].forEach((ch, n) => {
    const rows = (GLYPHS[ch] ?? (GLYPHS[' '] as string)).split(' ');
    rows.forEach((row, j) => {
      for (let i = 0; i < 3; i++) {
        if (row[i] !== '1') continue;
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale; dx++) {
            const px = x + (n * 4 + i) * scale + dx;
            const py = y + j * scale + dy;
            if (px < 0 || px >= width) continue;
            const o = (py * width + px) * 4;
            if (o + 3 >= rgba.length) continue;
            rgba[o] = colour[0];
            rgba[o + 1] = colour[1];
            rgba[o + 2] = colour[2];
            rgba[o + 3] = 255;
          }
        }
      }
    });
  });
}
