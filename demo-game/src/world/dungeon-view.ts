import Phaser from 'phaser';
import { FLOOR_VARIANTS, noise } from '../art/dungeon-textures.ts';
import {
  AREAS,
  BOSS_AREA,
  isFloorTile,
  MAP_COLS,
  MAP_ROWS,
  STATIONS,
  type StationId,
  TILE,
  TORCHES,
} from './dungeon-map.ts';

/** The static map (one pre-drawn image), wall torches and the crypt's cold light. */
export function drawDungeon(scene: Phaser.Scene) {
  // One canvas for the whole static map: a single image to draw each frame instead of 600 tiles.
  const canvas = scene.textures.exists('dungeon')
    ? undefined
    : scene.textures.createCanvas('dungeon', MAP_COLS * TILE, MAP_ROWS * TILE);
  const context = canvas?.getContext();
  const tile = (key: string) => scene.textures.get(key).getSourceImage() as CanvasImageSource;
  for (let ty = 0; ty < MAP_ROWS; ty++) {
    for (let tx = 0; tx < MAP_COLS; tx++) {
      const x = tx * TILE;
      const y = ty * TILE;
      if (isFloorTile(tx, ty)) {
        const variant =
          noise(tx * 31 + ty * 17) < 0.86 ? 0 : 1 + Math.floor(noise(tx + ty * 97) * (FLOOR_VARIANTS - 1));
        context?.drawImage(tile(`floor-${variant}`), x, y);
      } else context?.drawImage(tile(isFloorTile(tx, ty + 1) ? 'wall-face' : 'wall-top'), x, y);
    }
  }
  canvas?.refresh();
  scene.add.image(0, 0, 'dungeon').setOrigin(0).setDepth(-1);
  for (const [tx, ty] of TORCHES) {
    const x = tx * TILE + TILE / 2;
    const y = ty * TILE + TILE / 2;
    scene.add.image(x, y, 'torch').setDepth(y);
    const light = scene.add
      .image(x, y + 20, 'light')
      .setDisplaySize(220, 220)
      .setTint(0xff9a3c)
      .setAlpha(0.35);
    light.setBlendMode(Phaser.BlendModes.ADD);
    scene.tweens.add({
      targets: light,
      alpha: { from: 0.28, to: 0.42 },
      duration: 180 + noise(tx) * 200,
      yoyo: true,
      repeat: -1,
    });
  }
  const throne = AREAS.find((a) => a.id === BOSS_AREA);
  if (!throne) return;
  const frost = scene.add
    .image(((throne.x0 + throne.x1 + 1) / 2) * TILE, ((throne.y0 + throne.y1 + 1) / 2) * TILE, 'light')
    .setDisplaySize(440, 420)
    .setTint(0x5fb4ff)
    .setAlpha(0.22);
  frost.setBlendMode(Phaser.BlendModes.ADD);
}

/**
 * The crafting stations, clickable (their id in the `station` data key), with glows and names;
 * returns each station's name label.
 */
export function placeStations(scene: Phaser.Scene, nameOf: (id: StationId) => string) {
  const labels = new Map<StationId, Phaser.GameObjects.Text>();
  for (const station of STATIONS) {
    const x = station.x * TILE;
    const y = station.y * TILE;
    const image = scene.add.image(x, y, `station-${station.id}`).setDepth(y + 16);
    image.setInteractive({ useHandCursor: true }).setData('station', station.id);
    if (station.id === 'forge') {
      const glow = scene.add
        .image(x, y + 10, 'light')
        .setDisplaySize(120, 90)
        .setTint(0xff6a1a)
        .setBlendMode(Phaser.BlendModes.ADD);
      scene.tweens.add({
        targets: glow,
        alpha: { from: 0.4, to: 0.75 },
        duration: 260,
        yoyo: true,
        repeat: -1,
      });
    }
    if (station.id === 'enchanting_altar') {
      const glow = scene.add
        .image(x, y - 8, 'light')
        .setDisplaySize(90, 90)
        .setTint(0xb983ff)
        .setBlendMode(Phaser.BlendModes.ADD);
      scene.tweens.add({
        targets: glow,
        alpha: { from: 0.3, to: 0.7 },
        duration: 1200,
        yoyo: true,
        repeat: -1,
      });
    }
    const name = nameOf(station.id);
    const label = scene.add
      .text(x, y + 26, name, {
        fontFamily: 'Georgia, serif',
        fontSize: '11px',
        color: '#d8cfe8',
        stroke: '#0b0a10',
        strokeThickness: 3,
      })
      .setOrigin(0.5, 0)
      .setDepth(y + 17);
    labels.set(station.id, label);
  }
  return labels;
}
