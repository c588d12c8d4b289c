import { type ItemPainter, part } from './part.ts';
import type { Part } from './scene.ts';
import { box, capsule, circle, intersect, polygon, subtract, union } from './sdf.ts';

function tassel(look: Parameters<ItemPainter>[0], v: number): Part[] {
  return [
    part(circle(0, v, 0.035), look.accent, 0.03, { round: true }),
    part(polygon([0.02, v - 0.02, 0.1, v - 0.2, 0.04, v - 0.22, -0.01, v - 0.04]), look.trim, 0.03),
  ];
}

export const trident: ItemPainter = (look, rng) => {
  const r = rng('head');
  const spread = r.range(0.1, 0.15);
  const side = r.range(0.4, 0.5);
  const barb = r.range(0.04, 0.06);
  const prong = (u: number, top: number) =>
    union(
      capsule(u, 0.2, u, top - 0.06, 0.022),
      polygon([u - barb, top - 0.1, u, top + 0.04, u + barb, top - 0.1, u, top - 0.05]),
    );
  const head = union(
    prong(0, 0.6),
    prong(-spread, side),
    prong(spread, side),
    capsule(-spread, 0.2, spread, 0.2, 0.026),
    intersect(circle(0, 0.32, spread + 0.02), box(0, 0.17, spread + 0.04, 0.05)),
  );
  const parts: Part[] = [
    part(capsule(0, -0.62, 0, 0.18, 0.024), look.handle, 0.024, { round: true }),
    part(head, look.metal, 0.03),
    part(box(0, 0.13, 0.04, 0.04, 0.01), look.accent, 0.035, { round: true }),
  ];
  if (r.chance(0.5)) parts.push(...tassel(look, 0.08));
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0.21, 0.035), look.gem, 0.035));
  return { diagonal: true, parts };
};

export const halberd: ItemPainter = (look, rng) => {
  const r = rng('head');
  const reach = r.range(0.22, 0.3);
  const hook = r.chance(0.6);
  const blade = polygon([
    0.02,
    0.42,
    reach * 0.6,
    0.46,
    reach,
    0.52,
    reach + 0.02,
    0.3,
    reach,
    0.1,
    reach * 0.6,
    0.18,
    0.02,
    0.22,
  ]);
  const parts: Part[] = [
    part(capsule(0, -0.62, 0, 0.42, 0.024), look.handle, 0.024, { round: true }),
    part(polygon([-0.035, 0.4, 0.035, 0.4, 0, 0.64]), look.metal, 0.03),
    part(blade, look.metal, 0.05),
    part(subtract(blade, circle(reach + 0.2, 0.31, 0.24)), look.metalDark, 0.02, { lineless: true }),
  ];
  if (hook) parts.push(part(polygon([-0.02, 0.36, -0.2, 0.42, -0.16, 0.34, -0.02, 0.28]), look.metal, 0.03));
  parts.push(
    part(box(0, 0.32, 0.04, 0.12, 0.01), look.accent, 0.035),
    part(box(0, -0.2, 0.036, 0.09, 0.01), look.leather, 0.036, { round: true }),
  );
  return { diagonal: true, parts };
};

export const scythe: ItemPainter = (look, rng) => {
  const r = rng('blade');
  const sweep = r.range(0.56, 0.64);
  const thick = r.range(0.09, 0.13);
  const crescent = intersect(
    subtract(circle(0.02, 0.02, sweep), circle(-0.04, -0.04 - thick, sweep - 0.02)),
    box(-0.34, 0.4, 0.38, 0.32),
  );
  const parts: Part[] = [
    part(capsule(0.1, -0.5, -0.02, 0.6, 0.03), look.handle, 0.03, { round: true }),
    part(crescent, look.metal, 0.05),
    part(
      intersect(crescent, circle(-0.04, -0.04 - thick, sweep - 0.02 + thick * 0.45)),
      { base: look.metalDark.base, finish: 'metal' },
      0.02,
      { lineless: true },
    ),
    part(box(-0.01, 0.56, 0.055, 0.06, 0.015), look.accent, 0.04),
    part(capsule(0.07, -0.12, 0.2, -0.1, 0.022), look.handle, 0.02, { round: true }),
  ];
  if (r.chance(0.5)) parts.push(part(circle(0.1, -0.5, 0.05), look.accent, 0.045, { round: true }));
  if (look.gems && look.rarity >= 2) parts.push(part(circle(-0.01, 0.56, 0.03), look.gem, 0.03));
  return { parts };
};
