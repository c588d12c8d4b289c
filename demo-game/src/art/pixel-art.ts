import type Phaser from 'phaser';

export interface PixelSprite {
  rows: string[];
  /** Palette character → colour; `.` is transparent. */
  palette: Record<string, number>;
}

/**
 * Bakes a character-grid sprite into a texture, `scale` screen pixels per art pixel, with a
 * one-pixel dark outline (so it reads on any floor); the texture is one art pixel larger each side.
 */
export function bakePixelSprite(scene: Phaser.Scene, key: string, sprite: PixelSprite, scale: number): void {
  const { rows, palette } = sprite;
  const width = Math.max(...rows.map((row) => row.length));
  const solid = (x: number, y: number) => {
    const char = rows[y]?.[x];
    return char !== undefined && char !== '.';
  };
  const g = scene.make.graphics({}, false);
  g.fillStyle(0x0b0a10, 0.9);
  for (let y = -1; y <= rows.length; y++) {
    for (let x = -1; x <= width; x++) {
      if (!solid(x, y) && (solid(x - 1, y) || solid(x + 1, y) || solid(x, y - 1) || solid(x, y + 1)))
        g.fillRect((x + 1) * scale, (y + 1) * scale, scale, scale);
    }
  }
  rows.forEach((row, y) => {
    [...row].forEach((char, x) => {
      const color = palette[char];
      if (color !== undefined) g.fillStyle(color, 1).fillRect((x + 1) * scale, (y + 1) * scale, scale, scale);
    });
  });
  g.generateTexture(key, (width + 2) * scale, (rows.length + 2) * scale);
  g.destroy();
}
