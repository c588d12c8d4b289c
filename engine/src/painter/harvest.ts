import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, circle, ellipse, intersect, polygon, rotate, subtract, union } from './sdf.ts';

const LEAF: Material = { base: [70, 150, 60], finish: 'matte' };
const SEED: Material = { base: [176, 130, 70], finish: 'matte' };
const STEAM: Material = { base: [236, 236, 244], finish: 'glow' };

/** A paper seed packet with a picture of the plant, and a few seeds spilled before it. */
export const seeds: ItemPainter = (look, rng) => {
  const r = rng('seeds');
  const paper: Material = { base: mixRgb(look.paint.base, [236, 222, 180], 0.55), finish: 'matte' };
  const fold: Material = { base: mixRgb(paper.base, [40, 30, 50], 0.2), finish: 'matte' };
  const parts: Part[] = [
    part(box(-0.06, 0.02, 0.26, 0.36, 0.03), paper, 0.04),
    part(polygon([-0.32, 0.3, 0.2, 0.3, 0.2, 0.38, -0.06, 0.42, -0.32, 0.38]), fold, 0.02),
    part(box(-0.06, 0.0, 0.18, 0.2, 0.02), { base: [240, 236, 222], finish: 'matte' }, 0.02),
    part(capsule(-0.06, -0.16, -0.06, 0.06, 0.014), LEAF, 0.014, { lineless: true }),
    part(rotate(ellipse(-0.12, 0.0, 0.07, 0.035), 0.5, -0.12, 0.0), LEAF, 0.03),
    part(rotate(ellipse(0.0, -0.06, 0.07, 0.035), -0.5, 0.0, -0.06), LEAF, 0.03),
    part(circle(-0.06, 0.1, 0.06), look.paint, 0.06, { round: true }),
    part(box(-0.06, -0.26, 0.18, 0.025, 0.01), look.trim, 0.02),
  ];
  const count = r.int(3, 5);
  for (let i = 0; i < count; i++) {
    const u = 0.2 + r.range(-0.04, 0.18);
    const v = -0.3 + r.range(-0.1, 0.06);
    parts.push(part(rotate(ellipse(u, v, 0.045, 0.03), r.range(0, 3), u, v), SEED, 0.03, { round: true }));
  }
  return { parts };
};

/** A sheaf of wheat (or another grain): stalks bound with twine, heavy ears at the top. */
export const wheat: ItemPainter = (look, rng) => {
  const r = rng('wheat');
  const straw: Material = { base: [214, 178, 90], finish: 'matte' };
  const ear: Material = { base: mixRgb([230, 190, 90], look.paint.base, 0.15), finish: 'matte' };
  const parts: Part[] = [];
  const stalks = r.int(3, 4);
  for (let i = 0; i < stalks; i++) {
    const t = i / (stalks - 1) - 0.5;
    const top = 0.16 + r.range(-0.04, 0.04);
    const tu = t * 0.34;
    parts.push(part(capsule(t * 0.14, -0.52, tu, top, 0.014), straw, 0.014, { round: true }));
    const grains: number[] = [];
    for (let k = 0; k < 5; k++) {
      const v = top + 0.02 + k * 0.065;
      for (const s of [-1, 1]) {
        const g = rotate(ellipse(tu + s * 0.03, v, 0.03, 0.045), s * 0.5, tu + s * 0.03, v);
        parts.push(part(g, ear, 0.03, { round: true }));
        grains.push(v);
      }
    }
    parts.push(part(ellipse(tu, top + 0.36, 0.022, 0.05), ear, 0.02, { round: true }));
    if (r.chance(0.6))
      parts.push(
        part(capsule(tu, top + 0.38, tu + r.range(-0.06, 0.06), top + 0.5, 0.006), straw, 0.006, {
          lineless: true,
        }),
      );
  }
  parts.push(
    part(box(0, -0.24, 0.09, 0.03, 0.01), look.trim.finish === 'cloth' ? look.trim : look.leather, 0.03, {
      round: true,
    }),
  );
  return { parts };
};

/** A root vegetable: a tapering carrot (or a round turnip or potato) with leafy tops. */
export const carrot: ItemPainter = (look, rng) => {
  const r = rng('root');
  const round = ['turnip', 'beet', 'beetroot', 'radish', 'potato', 'onion'].some((w) => look.words.has(w));
  const flesh: Material = {
    base: look.words.has('potato') ? [190, 150, 90] : mixRgb([232, 120, 40], look.paint.base, 0.35),
    finish: 'matte',
  };
  const leaf: Material = { base: mixRgb(LEAF.base, [40, 120, 40], 0.3), finish: 'matte' };
  const parts: Part[] = [];
  if (!look.words.has('potato'))
    for (let i = -1; i <= 1; i++)
      parts.push(part(rotate(ellipse(i * 0.07, 0.34, 0.045, 0.16), -i * 0.45, i * 0.07, 0.22), leaf, 0.04));
  const body = round
    ? union(circle(0, -0.02, 0.26), polygon([-0.05, -0.2, 0.05, -0.2, 0, -0.44]))
    : polygon([-0.14, 0.2, 0.14, 0.2, 0.12, 0.0, 0.02, -0.52, -0.02, -0.52, -0.1, 0.0]);
  parts.push(part(body, flesh, round ? 0.26 : 0.12, { round: true }));
  const rings = r.int(3, 4);
  for (let i = 0; i < rings; i++) {
    const v = 0.1 - i * 0.14;
    parts.push(
      part(
        intersect(box(r.range(-0.05, 0.05), v, 0.06, 0.008, 0.004), body),
        { base: mixRgb(flesh.base, [60, 30, 20], 0.35), finish: 'matte' },
        0.008,
        { lineless: true },
      ),
    );
  }
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, r.range(-0.5, -0.25)) })) };
};

/** A dish of food: a bowl of stew (or soup) with morsels and rising steam, or a plated meal. */
export const dish: ItemPainter = (look, rng) => {
  const r = rng('dish');
  const bowl: Material =
    look.metal.finish === 'metal'
      ? look.metal
      : { base: mixRgb(look.trim.base, [220, 214, 200], 0.6), finish: 'gem' };
  const food: Material = { base: mixRgb(look.paint.base, [150, 80, 40], 0.4), finish: 'matte' };
  const served = ['plate', 'meal', 'steak', 'dinner', 'roast', 'platter'].some((w) => look.words.has(w));
  const spooned = ['bowl', 'stew', 'soup', 'broth', 'porridge', 'curry', 'chowder', 'noodles'].some((w) =>
    look.words.has(w),
  );
  const plate = served || (!spooned && r.chance(0.35));
  const parts: Part[] = [];
  if (plate) {
    parts.push(
      part(ellipse(0, -0.14, 0.46, 0.2), bowl, 0.06),
      part(
        ellipse(0, -0.12, 0.34, 0.13),
        { base: mixRgb(bowl.base, [255, 255, 255], 0.2), finish: bowl.finish },
        0.03,
      ),
      part(ellipse(-0.06, -0.06, 0.2, 0.12), food, 0.1, { round: true }),
      part(circle(0.16, -0.08, 0.07), LEAF, 0.06, { round: true }),
      part(
        capsule(-0.14, -0.04, 0.02, 0.0, 0.012),
        { base: mixRgb(food.base, [20, 10, 10], 0.4), finish: 'matte' },
        0.01,
        { lineless: true },
      ),
    );
  } else {
    const rim = ellipse(0, 0.02, 0.4, 0.1);
    parts.push(
      part(
        union(
          intersect(ellipse(0, 0.02, 0.4, 0.4), box(0, -0.2, 0.5, 0.22)),
          box(0, -0.38, 0.14, 0.04, 0.02),
        ),
        bowl,
        0.1,
        {
          round: true,
        },
      ),
      part(rim, { base: mixRgb(bowl.base, [20, 14, 30], 0.3), finish: bowl.finish }, 0.02),
      part(ellipse(0, 0.02, 0.35, 0.075), food, 0.06),
    );
    const bits = r.int(3, 5);
    for (let i = 0; i < bits; i++) {
      const u = -0.24 + (i * 0.48) / (bits - 1) + r.range(-0.03, 0.03);
      const m: Material = i % 2 ? LEAF : { base: [226, 130, 60], finish: 'matte' };
      parts.push(part(circle(u, 0.03 + r.range(-0.02, 0.02), 0.035), m, 0.03, { round: true }));
    }
  }
  for (let i = -1; i <= 1; i++) {
    const u = i * 0.14;
    const wave = union(
      capsule(u, 0.14, u + 0.04, 0.26, 0.018),
      capsule(u + 0.04, 0.26, u - 0.02, 0.38, 0.018),
      capsule(u - 0.02, 0.38, u + 0.02, 0.46, 0.014),
    );
    parts.push(part(wave, STEAM, 0.02, { lineless: true, alpha: 0.8, halo: false }));
  }
  return { parts };
};

/** A tin can: a ridged cylinder with a paper label and a lid, seen from the front and a little above. */
export const can: ItemPainter = (look, rng) => {
  const r = rng('can');
  const tin: Material =
    look.metal.finish === 'metal' ? look.metal : { base: [176, 182, 194], finish: 'metal' };
  const w = r.range(0.24, 0.28);
  const label: Material = { base: look.paint.base, finish: 'matte' };
  const opened = r.chance(0.35);
  const parts: Part[] = [
    part(union(box(0, -0.1, w, 0.32, 0.02), ellipse(0, -0.42, w, 0.07)), tin, w, { round: true }),
    part(box(0, -0.1, w + 0.004, 0.2, 0.01), label, w, { round: true }),
    part(box(0, -0.1, w + 0.006, 0.02, 0.005), look.trim, w, { round: true }),
    part(
      ellipse(0, -0.06, w * 0.5, 0.08),
      { base: mixRgb(look.paint.base, [250, 245, 230], 0.7), finish: 'matte' },
      0.03,
    ),
    part(ellipse(0, 0.22, w, 0.08), tin, 0.03),
    part(
      subtract(
        ellipse(0, 0.22, w - 0.03, 0.06),
        opened ? ellipse(0, 0.22, 0, 0) : ellipse(0, 0.22, w - 0.06, 0.04),
      ),
      { base: mixRgb(tin.base, [20, 14, 30], 0.3), finish: 'metal' },
      0.01,
      { lineless: true },
    ),
  ];
  if (opened)
    parts.push(
      part(
        ellipse(0, 0.22, w - 0.04, 0.05),
        { base: mixRgb(look.paint.base, [150, 80, 40], 0.5), finish: 'matte' },
        0.02,
      ),
      part(rotate(ellipse(0.06, 0.38, w - 0.04, 0.05), 0.5, 0.06 - w, 0.24), tin, 0.02),
    );
  for (const v of [0.12, -0.32])
    parts.push(
      part(
        box(0, v, w + 0.005, 0.01, 0.004),
        { base: mixRgb(tin.base, [20, 14, 30], 0.25), finish: 'metal' },
        w,
        { round: true, lineless: true },
      ),
    );
  return { parts };
};
