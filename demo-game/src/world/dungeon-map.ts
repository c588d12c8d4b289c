export const TILE = 32;
export const MAP_COLS = 30;
export const MAP_ROWS = 20;

export interface Room {
  name: string;
  /** Inclusive tile bounds. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export type StationId = 'workbench' | 'forge' | 'alchemy_table' | 'enchanting_altar';
export type EnemyKindId = 'slime' | 'rat' | 'skeleton' | 'cultist' | 'fire_imp' | 'frost_giant';

export const ROOMS: Room[] = [
  { name: "Crafters' Hall", x0: 1, y0: 2, x1: 12, y1: 17 },
  { name: 'Frozen Crypt', x0: 17, y0: 2, x1: 28, y1: 17 },
];

const CORRIDOR = { x0: 13, y0: 8, x1: 16, y1: 11 };
const PILLARS: Array<[number, number]> = [
  [20, 5],
  [25, 5],
  [20, 14],
  [25, 14],
];

/** Tile centres (in tiles) of everything placed in the dungeon. */
export const HERO_SPAWN = { x: 6.5, y: 10.5 };

export const STATIONS: Array<{ id: StationId; x: number; y: number }> = [
  { id: 'workbench', x: 3, y: 3.5 },
  { id: 'forge', x: 7, y: 3.5 },
  { id: 'alchemy_table', x: 10.5, y: 3.5 },
  { id: 'enchanting_altar', x: 2.5, y: 15.5 },
];

export const ENEMY_SPAWNS: Array<{ kind: EnemyKindId; x: number; y: number }> = [
  { kind: 'slime', x: 9.5, y: 11.5 },
  { kind: 'rat', x: 8.5, y: 15.5 },
  { kind: 'slime', x: 5.5, y: 14.5 },
  { kind: 'skeleton', x: 19.5, y: 9.5 },
  { kind: 'fire_imp', x: 22.5, y: 4 },
  { kind: 'cultist', x: 22.5, y: 15 },
  { kind: 'frost_giant', x: 26.5, y: 10 },
];

const inside = (r: { x0: number; y0: number; x1: number; y1: number }, x: number, y: number) =>
  x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1;

/** True for walkable tiles. */
export function isFloor(tx: number, ty: number): boolean {
  if (PILLARS.some(([px, py]) => px === tx && py === ty)) return false;
  return ROOMS.some((r) => inside(r, tx, ty)) || inside(CORRIDOR, tx, ty);
}

export function roomAt(x: number, y: number): Room | undefined {
  const tx = Math.floor(x / TILE);
  const ty = Math.floor(y / TILE);
  return ROOMS.find((r) => inside(r, tx, ty));
}

/** Whether a circle of `radius` pixels at (x, y) stands on floor only. */
export function isClear(x: number, y: number, radius: number): boolean {
  for (const [dx, dy] of [
    [-radius, -radius],
    [radius, -radius],
    [-radius, radius],
    [radius, radius],
  ] as const) {
    if (!isFloor(Math.floor((x + dx) / TILE), Math.floor((y + dy) / TILE))) return false;
  }
  return true;
}
