export const TILE = 32;
export const MAP_COLS = 42;
export const MAP_ROWS = 30;

/** A named part of the dungeon (a room or a corridor); inclusive tile bounds. */
export interface Area {
  id: string;
  name: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export type StationId = 'workbench' | 'forge' | 'alchemy_table' | 'enchanting_altar';
export type EnemyKindId = 'slime' | 'rat' | 'skeleton' | 'cultist' | 'fire_imp' | 'frost_giant';

// Every floor tile lies in exactly one area, so the HUD and the loot's lore always name the same place.
export const AREAS: Area[] = [
  { id: 'hall', name: "Crafters' Hall", x0: 1, y0: 9, x1: 11, y1: 20 },
  { id: 'west', name: 'The West Passage', x0: 12, y0: 14, x1: 16, y1: 16 },
  { id: 'crossroads', name: 'The Crossroads', x0: 17, y0: 11, x1: 23, y1: 19 },
  { id: 'north', name: 'The Bone Stair', x0: 19, y0: 7, x1: 21, y1: 10 },
  { id: 'gallery', name: 'Bone Gallery', x0: 14, y0: 1, x1: 27, y1: 6 },
  { id: 'south', name: 'The Ember Stair', x0: 19, y0: 20, x1: 21, y1: 22 },
  { id: 'shrine', name: 'Ember Shrine', x0: 14, y0: 23, x1: 27, y1: 28 },
  { id: 'cold', name: 'The Cold Passage', x0: 24, y0: 14, x1: 28, y1: 16 },
  { id: 'throne', name: 'Frozen Throne', x0: 29, y0: 8, x1: 40, y1: 22 },
];

export const START_AREA = 'hall';
export const BOSS_AREA = 'throne';

/** The Frost Door seals the Cold Passage's east end: these tiles are wall until it shatters. */
export const DOOR = { x: 28, y0: 14, y1: 16 };
/**
 * Attack a blow needs to crack the Frost Door: more than the Workbench's first weapon gives, as much
 * as the Bone Gallery's (demo-game/test/curve.test.ts).
 */
export const DOOR_NEEDS = 12;

const PILLARS: Array<[number, number]> = [
  [18, 3],
  [23, 3],
  [18, 26],
  [23, 26],
  [32, 11],
  [37, 11],
  [32, 19],
  [37, 19],
];

/** Tile centres (in tiles) of everything placed in the dungeon. */
export const HERO_SPAWN = { x: 6.5, y: 15.5 };

export const STATIONS: Array<{ id: StationId; x: number; y: number }> = [
  { id: 'workbench', x: 3, y: 10.5 },
  { id: 'forge', x: 6.5, y: 10.5 },
  { id: 'alchemy_table', x: 10, y: 10.5 },
  { id: 'enchanting_altar', x: 2.5, y: 18.5 },
];

export const ENEMY_SPAWNS: Array<{ kind: EnemyKindId; x: number; y: number }> = [
  { kind: 'slime', x: 9.5, y: 15 },
  { kind: 'slime', x: 4, y: 15.5 },
  { kind: 'rat', x: 9.5, y: 19.5 },
  { kind: 'rat', x: 20, y: 18 },
  { kind: 'slime', x: 21.5, y: 12.5 },
  { kind: 'rat', x: 18.5, y: 14.5 },
  { kind: 'skeleton', x: 16.5, y: 3 },
  { kind: 'skeleton', x: 20.5, y: 4.5 },
  { kind: 'skeleton', x: 25.5, y: 2.5 },
  { kind: 'skeleton', x: 22.5, y: 5.5 },
  { kind: 'fire_imp', x: 16.5, y: 25 },
  { kind: 'fire_imp', x: 25, y: 24.5 },
  { kind: 'cultist', x: 20.5, y: 27 },
  { kind: 'fire_imp', x: 24.5, y: 27.5 },
  { kind: 'frost_giant', x: 36.5, y: 15.5 },
];

/** Wall torches (tile positions on the wall row above a room). */
export const TORCHES: Array<[number, number]> = [
  [4, 8],
  [9, 8],
  [17, 0],
  [25, 0],
  [17, 22],
  [25, 22],
  [31, 7],
  [38, 7],
  [18, 10],
];

const inside = (a: { x0: number; y0: number; x1: number; y1: number }, x: number, y: number) =>
  x >= a.x0 && x <= a.x1 && y >= a.y0 && y <= a.y1;

let doorOpen = false;

/** Opens (or, for a new run, closes) the Frost Door. */
export function setDoorOpen(open: boolean) {
  doorOpen = open;
}

export const isDoorTile = (tx: number, ty: number) => tx === DOOR.x && ty >= DOOR.y0 && ty <= DOOR.y1;

/** True for floor tiles, whatever stands on them (the door counts as floor). */
export function isFloorTile(tx: number, ty: number): boolean {
  if (PILLARS.some(([px, py]) => px === tx && py === ty)) return false;
  return AREAS.some((a) => inside(a, tx, ty));
}

/** True for tiles one can walk on now. */
export function isFloor(tx: number, ty: number): boolean {
  return isFloorTile(tx, ty) && (doorOpen || !isDoorTile(tx, ty));
}

export function areaOfTile(tx: number, ty: number): Area | undefined {
  return AREAS.find((a) => inside(a, tx, ty));
}

export function areaAt(x: number, y: number): Area | undefined {
  return areaOfTile(Math.floor(x / TILE), Math.floor(y / TILE));
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
