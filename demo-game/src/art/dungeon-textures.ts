import type Phaser from 'phaser';
import { TILE } from '../world/dungeon-map.ts';
import { CULTIST, FIRE_IMP, FROST_GIANT, HERO, RAT, SKELETON, SLIME } from './creatures.ts';
import { GEAR_SPRITES } from './gear.ts';
import { bakePixelSprite } from './pixel-art.ts';

export const FLOOR_VARIANTS = 4;

/** A deterministic pseudo-random in [0, 1) for a seed, so the dungeon looks the same every visit. */
export function noise(seed: number): number {
  const x = Math.sin(seed * 127.1 + 311.7) * 43758.5453;
  return x - Math.floor(x);
}

function bakeFloor(scene: Phaser.Scene, variant: number) {
  const g = scene.make.graphics({}, false);
  g.fillStyle(0x1d1a24).fillRect(0, 0, TILE, TILE);
  for (const [sx, sy] of [
    [0, 0],
    [16, 0],
    [0, 16],
    [16, 16],
  ] as const) {
    const shade = 0x2f2a38 + Math.floor(noise(variant * 8 + sx + sy * 3) * 6) * 0x030303;
    g.fillStyle(shade).fillRect(sx + 1, sy + 1, 14, 14);
    g.fillStyle(0xffffff, 0.05).fillRect(sx + 1, sy + 1, 14, 2);
    g.fillStyle(0x000000, 0.18).fillRect(sx + 1, sy + 13, 14, 2);
  }
  if (variant === 1) {
    g.lineStyle(1, 0x15121b, 0.9)
      .beginPath()
      .moveTo(4, 6)
      .lineTo(9, 10)
      .lineTo(8, 14)
      .lineTo(12, 19)
      .strokePath();
  }
  if (variant === 2) {
    g.fillStyle(0x3f6b3a, 0.55).fillCircle(24, 24, 4).fillCircle(21, 27, 3);
  }
  if (variant === 3) {
    // A few scattered bones.
    g.lineStyle(2, 0xd8d0c0, 0.55).beginPath().moveTo(18, 6).lineTo(26, 11).strokePath();
    g.beginPath().moveTo(19, 12).lineTo(24, 5).strokePath();
    g.fillStyle(0xd8d0c0, 0.55).fillCircle(7, 23, 2).fillCircle(10, 24, 2);
  }
  g.generateTexture(`floor-${variant}`, TILE, TILE);
  g.destroy();
}

function bakeWalls(scene: Phaser.Scene) {
  const top = scene.make.graphics({}, false);
  top.fillStyle(0x110f16).fillRect(0, 0, TILE, TILE);
  top.fillStyle(0x1a1721).fillRect(2, 2, TILE - 4, TILE - 4);
  top.generateTexture('wall-top', TILE, TILE);
  top.destroy();

  const face = scene.make.graphics({}, false);
  face.fillStyle(0x2a2431).fillRect(0, 0, TILE, TILE);
  for (let row = 0; row < 4; row++) {
    const offset = row % 2 ? 8 : 0;
    for (let col = -1; col < 3; col++) {
      const x = col * 16 + offset;
      const shade = noise(row * 7 + col) > 0.5 ? 0x4d4458 : 0x453d50;
      face.fillStyle(shade).fillRect(x + 1, row * 8 + 1, 14, 6);
      face.fillStyle(0xffffff, 0.06).fillRect(x + 1, row * 8 + 1, 14, 1);
    }
  }
  face.fillStyle(0x000000, 0.35).fillRect(0, TILE - 4, TILE, 4);
  face.generateTexture('wall-face', TILE, TILE);
  face.destroy();
}

function bakeStations(scene: Phaser.Scene) {
  const bench = scene.make.graphics({}, false);
  bench.fillStyle(0x000000, 0.35).fillEllipse(32, 42, 60, 12);
  bench.fillStyle(0x4a2f1b).fillRect(6, 22, 6, 20).fillRect(52, 22, 6, 20);
  bench.fillStyle(0x8a5a33).fillRect(2, 14, 60, 12);
  bench.fillStyle(0xa8713f).fillRect(2, 14, 60, 3);
  bench.fillStyle(0x5e3b20).fillRect(2, 24, 60, 2);
  bench.fillStyle(0xc9ced6).fillRect(10, 8, 16, 5).fillStyle(0x6b4a2b).fillRect(26, 8, 6, 5);
  bench.fillStyle(0x8d99ae).fillRect(40, 4, 10, 6).fillStyle(0x6b4a2b).fillRect(44, 10, 3, 6);
  bench.generateTexture('station-workbench', 64, 48);
  bench.destroy();

  const forge = scene.make.graphics({}, false);
  forge.fillStyle(0x000000, 0.35).fillEllipse(32, 44, 62, 12);
  forge.fillStyle(0x3b3540).fillRect(6, 6, 52, 38);
  forge.fillStyle(0x544b5c).fillRect(6, 6, 52, 5);
  for (let i = 0; i < 4; i++) forge.fillStyle(0x2a2530).fillRect(6, 16 + i * 8, 52, 1);
  forge.fillStyle(0x1a0f0a).fillRect(18, 20, 28, 18);
  forge.fillStyle(0xff6a1a).fillRect(20, 28, 24, 10);
  forge.fillStyle(0xffc24b).fillRect(24, 32, 16, 6);
  forge.fillStyle(0xfff1c1).fillRect(29, 35, 6, 3);
  forge.fillStyle(0x2a2530).fillRect(24, 0, 16, 7);
  forge.generateTexture('station-forge', 64, 48);
  forge.destroy();

  const alchemy = scene.make.graphics({}, false);
  alchemy.fillStyle(0x000000, 0.35).fillEllipse(32, 42, 58, 12);
  alchemy.fillStyle(0x3d2a1a).fillRect(8, 24, 5, 18).fillRect(51, 24, 5, 18);
  alchemy.fillStyle(0x6e4a2c).fillRect(4, 18, 56, 9);
  alchemy.fillStyle(0x8c6139).fillRect(4, 18, 56, 2);
  alchemy.fillStyle(0xcfe8ff, 0.7).fillCircle(16, 12, 6).fillRect(14, 2, 4, 6);
  alchemy.fillStyle(0x4ade80).fillCircle(16, 13, 4);
  alchemy.fillStyle(0xcfe8ff, 0.7).fillRect(28, 4, 8, 14);
  alchemy.fillStyle(0xf472b6).fillRect(29, 10, 6, 7);
  alchemy.fillStyle(0xcfe8ff, 0.7).fillCircle(47, 13, 5).fillRect(45, 5, 4, 5);
  alchemy.fillStyle(0x60a5fa).fillCircle(47, 14, 3);
  alchemy.generateTexture('station-alchemy_table', 64, 48);
  alchemy.destroy();

  const altar = scene.make.graphics({}, false);
  altar.fillStyle(0x000000, 0.35).fillEllipse(32, 44, 52, 12);
  altar.fillStyle(0x4b4458).fillRect(12, 26, 40, 18);
  altar.fillStyle(0x625a72).fillRect(8, 20, 48, 8);
  altar.fillStyle(0xb983ff).fillRect(18, 32, 4, 4).fillRect(30, 34, 4, 4).fillRect(42, 32, 4, 4);
  altar.fillStyle(0xd9b8ff).fillTriangle(32, 0, 24, 10, 40, 10).fillTriangle(24, 10, 40, 10, 32, 18);
  altar.fillStyle(0xffffff, 0.6).fillTriangle(32, 2, 28, 10, 32, 10);
  altar.generateTexture('station-enchanting_altar', 64, 48);
  altar.destroy();
}

function bakeRadial(scene: Phaser.Scene, key: string, size: number, stops: Array<[number, string]>) {
  const canvas = scene.textures.createCanvas(key, size, size);
  const context = canvas?.getContext();
  if (!canvas || !context) return;
  const gradient = context.createRadialGradient(size / 2, size / 2, 0, size / 2, size / 2, size / 2);
  for (const [at, color] of stops) gradient.addColorStop(at, color);
  context.fillStyle = gradient;
  context.fillRect(0, 0, size, size);
  canvas.refresh();
}

function bakeEffects(scene: Phaser.Scene) {
  bakeRadial(scene, 'light', 128, [
    [0, 'rgba(255,255,255,0.85)'],
    [0.4, 'rgba(255,255,255,0.3)'],
    [1, 'rgba(255,255,255,0)'],
  ]);
  bakeRadial(scene, 'shadow', 64, [
    [0, 'rgba(0,0,0,0.55)'],
    [0.7, 'rgba(0,0,0,0.25)'],
    [1, 'rgba(0,0,0,0)'],
  ]);
  const spark = scene.make.graphics({}, false);
  spark.fillStyle(0xffffff).fillRect(0, 0, 4, 4);
  spark.generateTexture('spark', 4, 4);
  spark.destroy();

  const torch = scene.make.graphics({}, false);
  torch.fillStyle(0x5b3b22).fillRect(6, 10, 4, 10);
  torch.fillStyle(0x3a3340).fillRect(4, 18, 8, 3);
  torch.fillStyle(0xff7b1a).fillTriangle(8, 0, 3, 10, 13, 10);
  torch.fillStyle(0xffd166).fillTriangle(8, 4, 5, 10, 11, 10);
  torch.generateTexture('torch', 16, 22);
  torch.destroy();
}

/** The Frost Door: a wall of ice one tile wide and three tall, with cracks drawn per blow taken. */
function bakeFrostDoor(scene: Phaser.Scene) {
  for (let cracks = 0; cracks <= 2; cracks++) {
    const g = scene.make.graphics({}, false);
    g.fillStyle(0x2b4a66).fillRect(0, 0, TILE, TILE * 3);
    g.fillStyle(0x7fb8e6).fillRect(2, 2, TILE - 4, TILE * 3 - 4);
    g.fillStyle(0xbfe6ff).fillRect(4, 4, 8, TILE * 3 - 8);
    g.fillStyle(0xe8f7ff, 0.8).fillRect(6, 8, 3, 30).fillRect(20, 40, 3, 24);
    g.fillStyle(0x3d6e99, 0.6).fillTriangle(16, 70, 28, 94, 4, 94);
    g.lineStyle(2, 0x1b2f42, 0.9);
    if (cracks >= 1) g.beginPath().moveTo(6, 20).lineTo(16, 34).lineTo(12, 48).lineTo(24, 58).strokePath();
    if (cracks >= 2)
      g.beginPath()
        .moveTo(26, 10)
        .lineTo(18, 30)
        .lineTo(28, 44)
        .moveTo(8, 60)
        .lineTo(20, 80)
        .lineTo(14, 92)
        .strokePath();
    g.generateTexture(`frost-door-${cracks}`, TILE, TILE * 3);
    g.destroy();
  }
}

/** Every texture the dungeon draws with, generated at start: the demo downloads no art. */
export function bakeDungeonTextures(scene: Phaser.Scene): void {
  for (let v = 0; v < FLOOR_VARIANTS; v++) bakeFloor(scene, v);
  bakeWalls(scene);
  bakeStations(scene);
  bakeEffects(scene);
  bakeFrostDoor(scene);
  bakePixelSprite(scene, 'hero', HERO, 2);
  for (const [slot, sprite] of Object.entries(GEAR_SPRITES))
    bakePixelSprite(scene, `gear-${slot}`, sprite, 2);
  bakePixelSprite(scene, 'enemy-slime', SLIME, 2);
  bakePixelSprite(scene, 'enemy-rat', RAT, 2);
  bakePixelSprite(scene, 'enemy-skeleton', SKELETON, 2);
  bakePixelSprite(scene, 'enemy-cultist', CULTIST, 2);
  bakePixelSprite(scene, 'enemy-fire_imp', FIRE_IMP, 2);
  bakePixelSprite(scene, 'enemy-frost_giant', FROST_GIANT, 3);
}
