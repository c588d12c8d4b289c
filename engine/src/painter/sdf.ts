/** A signed distance in scene units (the icon spans 0..1): negative inside. */
export type Sdf = (u: number, v: number) => number;

export const circle =
  (cu: number, cv: number, r: number): Sdf =>
  (u, v) =>
    Math.hypot(u - cu, v - cv) - r;

export const ellipse =
  (cu: number, cv: number, ru: number, rv: number): Sdf =>
  (u, v) => {
    const du = (u - cu) / ru;
    const dv = (v - cv) / rv;
    return (Math.hypot(du, dv) - 1) * Math.min(ru, rv);
  };

/** An axis-aligned box with rounded corners, centred at (cu, cv). */
export const box =
  (cu: number, cv: number, hu: number, hv: number, round = 0): Sdf =>
  (u, v) => {
    const qu = Math.abs(u - cu) - hu + round;
    const qv = Math.abs(v - cv) - hv + round;
    return Math.hypot(Math.max(qu, 0), Math.max(qv, 0)) + Math.min(Math.max(qu, qv), 0) - round;
  };

/** A segment with radius r1 at a and r2 at b (a tapered capsule). */
export const capsule =
  (au: number, av: number, bu: number, bv: number, r1: number, r2 = r1): Sdf =>
  (u, v) => {
    const pu = u - au;
    const pv = v - av;
    const du = bu - au;
    const dv = bv - av;
    const length2 = du * du + dv * dv;
    // A segment of no length is a circle (and not a division by zero).
    const t = length2 ? Math.max(0, Math.min(1, (pu * du + pv * dv) / length2)) : 0;
    return Math.hypot(pu - du * t, pv - dv * t) - (r1 + (r2 - r1) * t);
  };

/** Exact distance to a simple polygon given as [u, v, u, v, …]. */
export const polygon =
  (points: readonly number[]): Sdf =>
  (u, v) => {
    const n = points.length / 2;
    let d = Number.POSITIVE_INFINITY;
    let inside = false;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const ui = points[i * 2] as number;
      const vi = points[i * 2 + 1] as number;
      const uj = points[j * 2] as number;
      const vj = points[j * 2 + 1] as number;
      const eu = uj - ui;
      const ev = vj - vi;
      const wu = u - ui;
      const wv = v - vi;
      const e2 = eu * eu + ev * ev;
      const t = e2 ? Math.max(0, Math.min(1, (wu * eu + wv * ev) / e2)) : 0;
      d = Math.min(d, Math.hypot(wu - eu * t, wv - ev * t));
      if (vi > v !== vj > v && u < (eu * (v - vi)) / ev + ui) inside = !inside;
    }
    return inside ? -d : d;
  };

export const ring = (cu: number, cv: number, r: number, thickness: number): Sdf => {
  const c = circle(cu, cv, r);
  return (u, v) => Math.abs(c(u, v)) - thickness;
};

export const union =
  (...shapes: Sdf[]): Sdf =>
  (u, v) => {
    let d = Number.POSITIVE_INFINITY;
    for (const s of shapes) d = Math.min(d, s(u, v));
    return d;
  };

export const subtract =
  (a: Sdf, b: Sdf): Sdf =>
  (u, v) =>
    Math.max(a(u, v), -b(u, v));

export const intersect =
  (a: Sdf, b: Sdf): Sdf =>
  (u, v) =>
    Math.max(a(u, v), b(u, v));

/** Grows (positive) or shrinks (negative) a shape. */
export const inflate =
  (a: Sdf, amount: number): Sdf =>
  (u, v) =>
    a(u, v) - amount;

/** Rotates a shape by `angle` radians about (cu, cv). */
export const rotate = (a: Sdf, angle: number, cu = 0, cv = 0): Sdf => {
  const c = Math.cos(-angle);
  const s = Math.sin(-angle);
  return (u, v) => {
    const du = u - cu;
    const dv = v - cv;
    return a(cu + du * c - dv * s, cv + du * s + dv * c);
  };
};

/** A regular star or polygon of `points` tips, alternating outer and inner radius. */
export const star = (
  cu: number,
  cv: number,
  outer: number,
  inner: number,
  points: number,
  phase = 0,
): Sdf => {
  const coords: number[] = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = phase + (i * Math.PI) / points + Math.PI / 2;
    coords.push(cu + Math.cos(a) * r, cv + Math.sin(a) * r);
  }
  return polygon(coords);
};
