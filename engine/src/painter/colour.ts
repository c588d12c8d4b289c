import { COLOURS, type Colour } from '@lootsmith/protocol';

export type Rgb = readonly [number, number, number];

export function hex(value: string): Rgb {
  const n = Number.parseInt(value.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function rgbToHsl([r, g, b]: Rgb): [number, number, number] {
  const rn = r / 255;
  const gn = g / 255;
  const bn = b / 255;
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h: number;
  if (max === rn) h = (gn - bn) / d + (gn < bn ? 6 : 0);
  else if (max === gn) h = (bn - rn) / d + 2;
  else h = (rn - gn) / d + 4;
  return [h * 60, s, l];
}

export function hslToRgb(h: number, s: number, l: number): Rgb {
  const hh = (((h % 360) + 360) % 360) / 360;
  const sc = Math.min(1, Math.max(0, s));
  const lc = Math.min(1, Math.max(0, l));
  if (sc === 0) {
    const v = Math.round(lc * 255);
    return [v, v, v];
  }
  const q = lc < 0.5 ? lc * (1 + sc) : lc + sc - lc * sc;
  const p = 2 * lc - q;
  const channel = (t: number) => {
    const tt = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (tt < 1 / 6) return p + (q - p) * 6 * tt;
    if (tt < 1 / 2) return q;
    if (tt < 2 / 3) return p + (q - p) * (2 / 3 - tt) * 6;
    return p;
  };
  return [
    Math.round(channel(hh + 1 / 3) * 255),
    Math.round(channel(hh) * 255),
    Math.round(channel(hh - 1 / 3) * 255),
  ];
}

export function mixRgb(a: Rgb, b: Rgb, t: number): Rgb {
  return [
    Math.round(a[0] + (b[0] - a[0]) * t),
    Math.round(a[1] + (b[1] - a[1]) * t),
    Math.round(a[2] + (b[2] - a[2]) * t),
  ];
}

/** Moves a hue towards a target hue by at most `amount` degrees, the shorter way round. */
function shiftHue(h: number, target: number, amount: number): number {
  const delta = ((target - h + 540) % 360) - 180;
  return h + Math.sign(delta) * Math.min(Math.abs(delta), amount);
}

/**
 * A shading ramp from shadow to highlight. Pixel-art style: shadows drift towards blue-violet,
 * highlights towards warm yellow, saturation peaks in the mid-tones.
 */
export function shadeRamp(base: Rgb, levels: number, hueShift: number, contrast = 1): Rgb[] {
  const [h, s, l] = rgbToHsl(base);
  const ramp: Rgb[] = [];
  for (let i = 0; i < levels; i++) {
    const t = levels === 1 ? 0.5 : i / (levels - 1);
    const k = (t - 0.5) * 2;
    const lightness = l + k * (k < 0 ? Math.min(l, 0.34) : Math.min(1 - l, 0.36)) * contrast * 1.05;
    const hue = k < 0 ? shiftHue(h, 250, -k * hueShift) : shiftHue(h, 55, k * hueShift * 0.8);
    const sat = s * (1 - Math.abs(k) * (k < 0 ? 0.4 : 0.25)) + (s > 0.05 ? 0.04 : 0);
    ramp.push(hslToRgb(hue, sat, lightness));
  }
  return ramp;
}

/** The colour a colour family is painted in. */
export const rgbOf = (colour: Colour): Rgb => COLOURS[colour].rgb;

/** Named colours a prompt or a negative prompt may use, with the hue range each covers. */
export const COLOUR_WORDS: Record<
  string,
  { rgb: Rgb; hue?: [number, number]; dark?: boolean; light?: boolean }
> = {
  red: { rgb: hex('#c8283a'), hue: [340, 15] },
  crimson: { rgb: hex('#a8162e'), hue: [340, 15] },
  scarlet: { rgb: hex('#d8301e'), hue: [345, 18] },
  orange: { rgb: hex('#e8781e'), hue: [15, 40] },
  yellow: { rgb: hex('#f0d030'), hue: [45, 65] },
  golden: { rgb: hex('#e8b830'), hue: [38, 55] },
  gold: { rgb: hex('#e0b030'), hue: [38, 55] },
  green: { rgb: hex('#3aa83a'), hue: [75, 160] },
  emerald: { rgb: hex('#1e9a5a'), hue: [120, 165] },
  teal: { rgb: hex('#1e9a98'), hue: [160, 190] },
  cyan: { rgb: hex('#30c8e0'), hue: [175, 200] },
  blue: { rgb: hex('#2e5ad8'), hue: [195, 250] },
  azure: { rgb: hex('#3a8ae8'), hue: [200, 225] },
  purple: { rgb: hex('#7a3ac8'), hue: [255, 300] },
  violet: { rgb: hex('#8a4ae0'), hue: [255, 290] },
  pink: { rgb: hex('#e86aa8'), hue: [300, 340] },
  magenta: { rgb: hex('#d02ab0'), hue: [290, 330] },
  brown: { rgb: hex('#7a4a28'), hue: [15, 40] },
  black: { rgb: hex('#262230'), dark: true },
  white: { rgb: hex('#f0f0f4'), light: true },
  grey: { rgb: hex('#8a8a90') },
  silver: { rgb: hex('#c4c8d0') },
  gray: { rgb: hex('#8a8a90') },
};

/** Whether a colour reads as the named colour (for negative prompts). */
export function looksLike(rgb: Rgb, word: string): boolean {
  const entry = COLOUR_WORDS[word];
  if (!entry) return false;
  const [h, s, l] = rgbToHsl(rgb);
  if (entry.dark) return l < 0.16;
  if (entry.light) return l > 0.88 && s < 0.4;
  if (!entry.hue) return s < 0.12 && l > 0.3 && l < 0.7;
  if (s < 0.22 || l < 0.1 || l > 0.93) return false;
  const [from, to] = entry.hue;
  return from <= to ? h >= from && h <= to : h >= from || h <= to;
}
