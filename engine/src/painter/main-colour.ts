import { type Colour, colourOfPixel } from '@lootsmith/protocol';
import { rgbOf } from './colour.ts';
import { tinted } from './look.ts';
import type { Material, Part } from './scene.ts';

const SAMPLES = 40;
const STEP = 1.4 / SAMPLES;

/** The share of a drawing's area each material shows (the topmost part at each point). */
function areaByMaterial(parts: readonly Part[]): Map<Material, number> {
  const area = new Map<Material, number>();
  let total = 0;
  for (let j = 0; j < SAMPLES; j++) {
    for (let i = 0; i < SAMPLES; i++) {
      const u = (i + 0.5) * STEP - 0.7;
      const v = (j + 0.5) * STEP - 0.7;
      for (let k = parts.length - 1; k >= 0; k--) {
        const p = parts[k] as Part;
        if (p.sdf(u, v) >= 0) continue;
        area.set(p.material, (area.get(p.material) ?? 0) + 1);
        total++;
        break;
      }
    }
  }
  for (const [m, n] of area) area.set(m, n / total);
  return area;
}

/**
 * Makes an item's main colour its main colour: while less than `share` of the drawing shows it, the
 * material covering most of the rest takes it on (a crimson iron dagger's blade, a red bow's limbs),
 * keeping its finish. Materials already of that colour (a gold ring asked gold) stay as they are; only
 * `recolourable` ones change (the item's own, not the wings or horns a feature adds).
 */
export function withMainColour(
  parts: Part[],
  colour: Colour,
  share: number,
  recolourable: ReadonlySet<Material>,
): Part[] {
  const area = areaByMaterial(parts);
  const rgb = rgbOf(colour);
  let shown = 0;
  const others: Array<[Material, number]> = [];
  for (const [m, a] of area) {
    if (colourOfPixel(m.base) === colour) shown += a;
    else if (!m.ramp && recolourable.has(m)) others.push([m, a]);
  }
  others.sort((a, b) => b[1] - a[1]);
  const recoloured = new Map<Material, Material>();
  for (const [m, a] of others) {
    if (shown >= share) break;
    recoloured.set(m, tinted(m, rgb, m.finish === 'metal' ? 0.85 : 0.9));
    shown += a;
  }
  if (!recoloured.size) return parts;
  return parts.map((p) => {
    const m = recoloured.get(p.material);
    return m ? { ...p, material: m } : p;
  });
}
