import { isFloor, MAP_COLS, MAP_ROWS, TILE } from './dungeon-map.ts';

const DIRECTIONS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
] as const;

/** How far, in tiles, a tap off the floor (into the dark beside a corridor) still finds it. */
const SNAP_TILES = 2;

/** The floor point nearest a pixel position within `SNAP_TILES` (the position itself on the floor). */
function onFloor(to: { x: number; y: number }): { x: number; y: number } | undefined {
  const tx = Math.floor(to.x / TILE);
  const ty = Math.floor(to.y / TILE);
  if (isFloor(tx, ty)) return to;
  let best: { x: number; y: number; d: number } | undefined;
  for (let dy = -SNAP_TILES; dy <= SNAP_TILES; dy++)
    for (let dx = -SNAP_TILES; dx <= SNAP_TILES; dx++) {
      if (!isFloor(tx + dx, ty + dy)) continue;
      const x = (tx + dx) * TILE + TILE / 2;
      const y = (ty + dy) * TILE + TILE / 2;
      const d = (x - to.x) ** 2 + (y - to.y) ** 2;
      if (!best || d < best.d) best = { x, y, d };
    }
  return best && { x: best.x, y: best.y };
}

/**
 * Breadth-first path over floor tiles from one pixel position to another, as pixel waypoints
 * (tile centres, ending at the exact goal). Diagonals never cut a wall corner. A goal just off the
 * floor (a tap into the dark beside a corridor) walks to the floor nearest it. Empty if unreachable.
 */
export function findPath(
  from: { x: number; y: number },
  to: { x: number; y: number },
): Array<{ x: number; y: number }> {
  const target = onFloor(to);
  if (!target) return [];
  const start = { x: Math.floor(from.x / TILE), y: Math.floor(from.y / TILE) };
  const goal = { x: Math.floor(target.x / TILE), y: Math.floor(target.y / TILE) };
  const index = (x: number, y: number) => y * MAP_COLS + x;
  const previous = new Map<number, number>([[index(start.x, start.y), -1]]);
  const queue = [start];
  while (queue.length) {
    const current = queue.shift() as { x: number; y: number };
    if (current.x === goal.x && current.y === goal.y) break;
    for (const [dx, dy] of DIRECTIONS) {
      const x = current.x + dx;
      const y = current.y + dy;
      if (x < 0 || y < 0 || x >= MAP_COLS || y >= MAP_ROWS || previous.has(index(x, y))) continue;
      if (
        !isFloor(x, y) ||
        (dx && dy && (!isFloor(current.x + dx, current.y) || !isFloor(current.x, current.y + dy)))
      )
        continue;
      previous.set(index(x, y), index(current.x, current.y));
      queue.push({ x, y });
    }
  }
  if (!previous.has(index(goal.x, goal.y))) return [];
  const path: Array<{ x: number; y: number }> = [{ x: target.x, y: target.y }];
  for (let at = previous.get(index(goal.x, goal.y)) ?? -1; at > 0 && at !== index(start.x, start.y); ) {
    path.unshift({ x: (at % MAP_COLS) * TILE + TILE / 2, y: Math.floor(at / MAP_COLS) * TILE + TILE / 2 });
    at = previous.get(at) ?? -1;
  }
  return path;
}
