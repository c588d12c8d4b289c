import { type ItemPainter, part } from './part.ts';
import type { Part } from './scene.ts';
import { capsule, circle, ellipse, polygon, ring, union } from './sdf.ts';

/** A ball and chain on a short haft. */
export const flail: ItemPainter = (look, rng) => {
  const r = rng('head');
  const spikes = r.int(6, 9);
  const links = r.int(3, 4);
  const bu = r.range(0.16, 0.24);
  const bv = r.range(0.16, 0.28);
  const ball = 0.14;
  const parts: Part[] = [part(capsule(-0.3, -0.5, -0.08, -0.08, 0.034), look.handle, 0.034, { round: true })];
  parts.push(part(capsule(-0.24, -0.39, -0.15, -0.22, 0.044), look.leather, 0.04, { round: true }));
  const chain: Part[] = [];
  for (let i = 0; i < links; i++) {
    const t = (i + 0.5) / links;
    const u = -0.06 + (bu - 0.06) * t;
    const v = -0.04 + (bv - ball * 0.6 + 0.04) * t + Math.sin(t * Math.PI) * 0.08;
    chain.push(part(ring(u, v, 0.032, 0.012), look.metalDark, 0.012, { round: true }));
  }
  const spikeShapes = [];
  for (let i = 0; i < spikes; i++) {
    const a = (i / spikes) * Math.PI * 2 + r.range(0, 0.3);
    const c = Math.cos(a);
    const s = Math.sin(a);
    spikeShapes.push(
      polygon([bu + c * 0.23, bv + s * 0.23, bu - s * 0.045, bv + c * 0.045, bu + s * 0.045, bv - c * 0.045]),
    );
  }
  parts.push(
    part(circle(-0.07, -0.06, 0.045), look.accent, 0.04, { round: true }),
    ...chain,
    part(union(...spikeShapes), look.metalDark, 0.03),
    part(circle(bu, bv, ball), look.metal, ball, { round: true }),
    part(circle(-0.31, -0.52, 0.045), look.accent, 0.04, { round: true }),
  );
  if (look.gems && look.rarity >= 2) parts.push(part(circle(bu, bv, 0.04), look.gem, 0.04));
  return { parts };
};

/** A coiled lash with a wrapped grip. */
export const whip: ItemPainter = (look, rng) => {
  const r = rng('coil');
  const loops = r.int(3, 4);
  const lash = look.metal.finish === 'cloth' ? look.metal : look.leather;
  const parts: Part[] = [];
  for (let i = 0; i < loops; i++) {
    const loop = ellipse(0.1 + i * 0.04, 0.08 + i * 0.03, 0.32 - i * 0.03, 0.24 - i * 0.03);
    parts.push(part((u, v) => Math.abs(loop(u, v)) - 0.022, lash, 0.022, { round: true }));
  }
  const tip = r.range(-0.12, 0.08);
  parts.push(
    part(
      union(
        capsule(0.42, 0.0, 0.5, -0.24, 0.018, 0.012),
        capsule(0.5, -0.24, 0.36, -0.4 + tip, 0.012, 0.006),
      ),
      lash,
      0.012,
      {
        round: true,
      },
    ),
    part(capsule(-0.56, -0.3, -0.12, -0.16, 0.05, 0.04), look.handle, 0.045, { round: true }),
  );
  for (let i = 0; i < 3; i++) {
    const t = 0.25 + i * 0.2;
    parts.push(part(circle(-0.56 + 0.44 * t, -0.3 + 0.14 * t, 0.052), look.trim, 0.02, { lineless: true }));
  }
  parts.push(
    part(circle(-0.58, -0.31, 0.06), look.accent, 0.055, { round: true }),
    part(circle(-0.11, -0.155, 0.05), look.accent, 0.045, { round: true }),
  );
  return { parts };
};
