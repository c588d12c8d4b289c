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

/**
 * Breadth-first path over floor tiles from one pixel position to another, as pixel waypoints
 * (tile centres, ending at the exact goal). Diagonals never cut a wall corner. Empty if unreachable.
 */
export function findPath(
  from: { x: number; y: number },
  to: { x: number; y: number },
): Array<{ x: number; y: number }> {
  const start = { x: Math.floor(from.x / TILE), y: Math.floor(from.y / TILE) };
  const goal = { x: Math.floor(to.x / TILE), y: Math.floor(to.y / TILE) };
  if (!isFloor(goal.x, goal.y)) return [];
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
  const path: Array<{ x: number; y: number }> = [{ x: to.x, y: to.y }];
  for (let at = previous.get(index(goal.x, goal.y)) ?? -1; at > 0 && at !== index(start.x, start.y); ) {
    path.unshift({ x: (at % MAP_COLS) * TILE + TILE / 2, y: Math.floor(at / MAP_COLS) * TILE + TILE / 2 });
    at = previous.get(at) ?? -1;
  }
  return path;
}
