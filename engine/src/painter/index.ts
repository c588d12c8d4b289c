import { IMAGE_LIMITS } from '@lootsmith/protocol';
import { hashString, Rng } from '../random.ts';
import { hardenAlpha, outlineCells } from './art.ts';
import { hslToRgb, looksLike, type Rgb, rgbToHsl } from './colour.ts';
import { paintItem } from './items.ts';
import { rasterToPng } from './output.ts';
import { paintPortrait } from './portrait.ts';
import { type PromptReading, readPrompt } from './prompt.ts';
import { qualityFor, renderScene } from './render.ts';
import { type Scene, STYLES } from './scene.ts';
import { paintSkill } from './skill.ts';

export interface PaintRequest {
  prompt: string;
  negative_prompt?: string | undefined;
  width?: number | undefined;
  height?: number | undefined;
  steps?: number | undefined;
  seed?: number | undefined;
}

/** Paints a PNG for a prompt. Pure: the same request gives the same bytes. */
export function paintImage(request: PaintRequest): Buffer {
  const width = request.width ?? IMAGE_LIMITS.defaultSize;
  const height = request.height ?? IMAGE_LIMITS.defaultSize;
  const steps = request.steps ?? IMAGE_LIMITS.defaultSteps;
  const reading = readPrompt(request.prompt, request.negative_prompt);
  const seed = request.seed ?? hashString(request.prompt.trim().toLowerCase());
  const rng = new Rng(seed);
  const scene = sceneFor(reading, rng);
  const style = STYLES[reading.style];
  const negative = reading.negative;
  const art = reading.art;
  const raster = renderScene(scene, style, qualityFor(steps), width, height, {
    outline: !negative.outline,
    // A halo is half-covered cells, which a pixel grid has none of.
    glow: !negative.glow && !art?.grid,
    shading: !negative.shading,
    art: art && { palette: art.palette, outline: art.outline, cells: art.grid },
  });
  if (art?.grid) {
    hardenAlpha(raster);
    if (art.outline) outlineCells(raster, art.outline);
  }
  return rasterToPng(raster, width, height, recolourFor(negative.colours, art));
}

/**
 * What every colour of the finished icon becomes: a game's palette maps each to its nearest (what
 * blending made between two of its colours too), after any colours the prompt avoids are turned.
 */
function recolourFor(avoided: string[], art: PromptReading['art']): ((rgb: Rgb) => Rgb) | undefined {
  const avoid = avoided.length ? avoidColours(avoided) : undefined;
  const palette = art?.palette;
  if (!palette) return avoid;
  const outline = art.outline;
  return (rgb) => {
    if (outline && rgb[0] === outline[0] && rgb[1] === outline[1] && rgb[2] === outline[2]) return outline;
    return palette.nearest(avoid ? avoid(rgb) : rgb);
  };
}

function sceneFor(reading: PromptReading, rng: Rng): Scene {
  if (reading.asset === 'portrait') return paintPortrait(reading, rng.fork('portrait'));
  if (reading.asset === 'skill') return paintSkill(reading, rng.fork('skill'));
  return paintItem(reading, rng.fork('item'));
}

/** Turns every palette colour that reads as a negated colour into a different hue. */
function avoidColours(words: string[]): (rgb: Rgb) => Rgb {
  return (rgb) => {
    let out = rgb;
    for (let attempt = 0; attempt < 4 && words.some((w) => looksLike(out, w)); attempt++) {
      const [h, s, l] = rgbToHsl(out);
      if (words.some((w) => w === 'black' && looksLike(out, w))) out = hslToRgb(h, s, 0.3);
      else if (words.some((w) => w === 'white' && looksLike(out, w))) out = hslToRgb(h, s, 0.7);
      else if (words.some((w) => (w === 'grey' || w === 'gray') && looksLike(out, w)))
        out = hslToRgb(30, 0.45, l);
      else out = hslToRgb(h + 120, s, l);
    }
    return out;
  };
}
