import { type DecodedPng, decodePng } from '../src/painter/png-decode.ts';

export { type DecodedPng, decodePng };

/** Share of opaque pixels whose colour is strongly red (hue near 0°, saturated). */
export function redShare(png: DecodedPng): number {
  let red = 0;
  let opaque = 0;
  for (let i = 0; i < png.rgba.length; i += 4) {
    if ((png.rgba[i + 3] as number) < 128) continue;
    opaque++;
    const r = png.rgba[i] as number;
    const g = png.rgba[i + 1] as number;
    const b = png.rgba[i + 2] as number;
    if (r > 120 && r > g * 1.8 && r > b * 1.8) red++;
  }
  return opaque ? red / opaque : 0;
}

export function differingPixels(a: DecodedPng, b: DecodedPng): number {
  let n = 0;
  for (let i = 0; i < a.rgba.length; i += 4) {
    if (
      a.rgba[i] !== b.rgba[i] ||
      a.rgba[i + 1] !== b.rgba[i + 1] ||
      a.rgba[i + 2] !== b.rgba[i + 2] ||
      a.rgba[i + 3] !== b.rgba[i + 3]
    )
      n++;
  }
  return n;
}
