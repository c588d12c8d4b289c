import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GameDefinition, IconArt } from '@lootsmith/protocol';
import { label } from '@lootsmith/test-support/backends';
import { type Booted, bootServer } from '@lootsmith/test-support/boot';
import { shippedGame, writeGameFile } from '@lootsmith/test-support/game-file';
import { SWEETIE_16, smoothPicture, TINY_PNG } from '@lootsmith/test-support/png';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { demoGame } from '../../scripts/demo-game-file.mjs';
import { loadConfig } from '../src/config.ts';
import { runGameCommand } from '../src/game/commands.ts';
import { GameFileError, parseGame } from '../src/game/definition.ts';
import { loadArtReferences } from '../src/game/references.ts';
import { IconService } from '../src/icons.ts';
import { normaliseIcon } from '../src/images/normalise.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { IMAGE_BACKENDS } from '../src/upstream/backends/registry.ts';
import type { ReferenceImage } from '../src/upstream/backends/types.ts';

const scratch = mkdtempSync(join(tmpdir(), 'lootsmith-icon-art-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Sixteen colours of a game's own (Sweetie 16), and its darkest for the outline. */
const PALETTE = [...SWEETIE_16];
const OUTLINE = '#1a1c2c';
const ART: IconArt = { palette: PALETTE, pixel_size: 32, outline: OUTLINE, references: [] };

const hex = (r: number, g: number, b: number) =>
  `#${((r << 16) | (g << 8) | b).toString(16).padStart(6, '0')}`;

/** An icon's pixels, and what a user of the art relies on, read from them. */
async function read(png: Buffer) {
  const meta = await sharp(png).metadata();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const size = info.width;
  const at = (x: number, y: number) => (y * size + x) * 4;
  const colourAt = (x: number, y: number) =>
    data[at(x, y) + 3]
      ? hex(data[at(x, y)] as number, data[at(x, y) + 1] as number, data[at(x, y) + 2] as number)
      : null;
  const alphas = new Set<number>();
  const colours = new Set<string>();
  for (let p = 0; p < size * size; p++) {
    alphas.add(data[p * 4 + 3] as number);
    if (data[p * 4 + 3])
      colours.add(hex(data[p * 4] as number, data[p * 4 + 1] as number, data[p * 4 + 2] as number));
  }
  const corners = [at(0, 0), at(size - 1, 0), at(0, size - 1), at(size - 1, size - 1)].map(
    (p) => data[p + 3],
  );
  /**
   * The `n`×`n` grid the icon is drawn on, each cell's colour (null: clear), or a message saying
   * where a cell is not one colour or something is drawn outside the grid.
   */
  const grid = (n: number): Array<string | null> | string => {
    const block = Math.floor(size / n);
    const offset = (size - block * n) >> 1;
    const cells: Array<string | null> = [];
    for (let cy = 0; cy < n; cy++)
      for (let cx = 0; cx < n; cx++) {
        const first = colourAt(offset + cx * block, offset + cy * block);
        for (let y = 0; y < block; y++)
          for (let x = 0; x < block; x++)
            if (colourAt(offset + cx * block + x, offset + cy * block + y) !== first)
              return `cell ${cx},${cy} is not one colour`;
        cells.push(first);
      }
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) {
        const inside = x >= offset && y >= offset && x < offset + block * n && y < offset + block * n;
        if (!inside && colourAt(x, y)) return `${x},${y} is drawn outside the grid`;
      }
    return cells;
  };
  return { format: meta.format, width: info.width, height: info.height, alphas, colours, corners, grid };
}

/** What the art promises of a grid: the outline around the subject, the subject centred and kept. */
function expectOnGrid(cells: Array<string | null> | string, n: number, outline: string | null) {
  if (typeof cells === 'string') throw new Error(cells);
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= n || y >= n ? null : cells[y * n + x]);
  let left = n;
  let right = -1;
  let top = n;
  let bottom = -1;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const cell = at(x, y);
      if (!cell) continue;
      [left, right, top, bottom] = [
        Math.min(left, x),
        Math.max(right, x),
        Math.min(top, y),
        Math.max(bottom, y),
      ];
      // Every cell at the subject's edge (beside a clear one) is the outline.
      const edge = [at(x - 1, y), at(x + 1, y), at(x, y - 1), at(x, y + 1)].some((c) => c === null);
      if (outline && edge) expect(cell, `cell ${x},${y} at the edge`).toBe(outline);
    }
  // Centred (to a cell); at the grid's edge nothing but the outline.
  expect(Math.abs(left - (n - 1 - right))).toBeLessThanOrEqual(1);
  expect(Math.abs(top - (n - 1 - bottom))).toBeLessThanOrEqual(1);
  for (let i = 0; i < n; i++)
    for (const cell of [at(i, 0), at(i, n - 1), at(0, i), at(n - 1, i)])
      expect([null, outline]).toContain(cell);
  return cells.filter(Boolean).length / cells.length;
}

describe('icons in the game’s own art, whatever the backend painted', () => {
  it('a smooth 1024² picture on white comes out on the 32×32 grid, in the palette, hard, outlined, centred', async () => {
    const icon = await normaliseIcon(await smoothPicture(), 128, ART);
    const seen = await read(icon);
    expect([seen.format, seen.width, seen.height]).toEqual(['png', 128, 128]);
    expect([...seen.alphas].sort((a, b) => a - b)).toEqual([0, 255]);
    expect(seen.corners).toEqual([0, 0, 0, 0]);
    for (const colour of seen.colours) expect(PALETTE).toContain(colour);
    const opaque = expectOnGrid(seen.grid(32), 32, OUTLINE);
    // The subject kept: most of the inner grid, in several of the palette's colours beside the outline.
    expect(opaque).toBeGreaterThan(0.4);
    expect(seen.colours.size).toBeGreaterThanOrEqual(6);
  });

  it('holds for a JPEG, any grid, and an icon size that is not a multiple of the grid (centred blocks)', async () => {
    const jpeg = await smoothPicture('jpeg');
    for (const [size, n] of [
      [100, 32],
      [128, 16],
      [256, 64],
      [64, 64],
    ] as const) {
      const seen = await read(await normaliseIcon(jpeg, size, { ...ART, pixel_size: n }));
      expect([seen.width, seen.height, seen.corners], `${size}/${n}`).toEqual([size, size, [0, 0, 0, 0]]);
      expect([...seen.alphas].sort((a, b) => a - b)).toEqual([0, 255]);
      for (const colour of seen.colours) expect(PALETTE).toContain(colour);
      expect(expectOnGrid(seen.grid(n), n, OUTLINE), `${size}/${n}`).toBeGreaterThan(0.3);
    }
  });

  it('an outline in a colour of its own, and a grid without a palette, keep to what the art says', async () => {
    const seen = await read(await normaliseIcon(await smoothPicture(), 128, { ...ART, outline: '#000000' }));
    for (const colour of seen.colours) expect([...PALETTE, '#000000']).toContain(colour);
    expectOnGrid(seen.grid(32), 32, '#000000');
    const free = await read(
      await normaliseIcon(await smoothPicture(), 128, { pixel_size: 32, outline: null }),
    );
    expect([...free.alphas].sort((a, b) => a - b)).toEqual([0, 255]);
    expectOnGrid(free.grid(32), 32, null);
    expect(free.colours.size).toBeGreaterThan(PALETTE.length);
  });

  it('a one-pixel image (what a /v1 service may answer) still becomes an outlined block on the grid', async () => {
    const seen = await read(await normaliseIcon(TINY_PNG, 128, ART));
    expect(seen.corners).toEqual([0, 0, 0, 0]);
    for (const colour of seen.colours) expect(PALETTE).toContain(colour);
    expect(expectOnGrid(seen.grid(32), 32, OUTLINE)).toBeGreaterThan(0.5);
  });

  it('a palette without a grid: every opaque pixel in the palette, alpha hard, a one-pixel outline', async () => {
    const seen = await read(await normaliseIcon(await smoothPicture(), 128, { ...ART, pixel_size: null }));
    expect([seen.width, seen.corners]).toEqual([128, [0, 0, 0, 0]]);
    expect([...seen.alphas].sort((a, b) => a - b)).toEqual([0, 255]);
    for (const colour of seen.colours) expect(PALETTE).toContain(colour);
    // One pixel is one cell: the outline rings the subject, and the subject fills the icon to its margin.
    expect(expectOnGrid(seen.grid(128), 128, OUTLINE)).toBeGreaterThan(0.4);
    const bare = await read(
      await normaliseIcon(await smoothPicture(), 128, { ...ART, pixel_size: null, outline: null }),
    );
    for (const colour of bare.colours) expect(PALETTE).toContain(colour);
    // Without an outline, the subject's edge keeps its own colours.
    const edge = bare.grid(128);
    if (typeof edge === 'string') throw new Error(edge);
    expect(() => expectOnGrid(edge, 128, OUTLINE)).toThrow();
    expectOnGrid(edge, 128, null);
  });

  it('without art, an icon is exactly what it was: smooth colours, soft edges', async () => {
    const picture = await smoothPicture();
    const plain = await normaliseIcon(picture, 128);
    const none: IconArt = { pixel_size: null, outline: null, references: [], style: 'painterly' };
    expect((await normaliseIcon(picture, 128, none)).equals(plain)).toBe(true);
    const seen = await read(plain);
    expect([...seen.alphas].some((a) => a > 0 && a < 255)).toBe(true);
    expect(seen.colours.size).toBeGreaterThan(64);
  });
});

describe('reference icons', () => {
  const gameWith = (references: string[]): GameDefinition => {
    const game = shippedGame();
    return { ...game, art: { ...game.art, references } };
  };
  const problemsOf = async (file: string, game: GameDefinition) => {
    try {
      await loadArtReferences(file, game);
    } catch (err) {
      if (err instanceof GameFileError) return err;
      throw err;
    }
    throw new Error('the references were accepted');
  };

  it('are read from beside the game file, with their type and name', async () => {
    const dir = mkdtempSync(join(scratch, 'refs-'));
    writeFileSync(join(dir, 'sword.png'), await smoothPicture('png'));
    writeFileSync(join(dir, 'orb.jpg'), await smoothPicture('jpeg'));
    const refs = await loadArtReferences(join(dir, 'game.json'), gameWith(['sword.png', './orb.jpg']));
    expect(refs.map((r) => [r.name, r.type])).toEqual([
      ['sword.png', 'image/png'],
      ['orb.jpg', 'image/jpeg'],
    ]);
    expect(refs[0]?.bytes.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
  });

  it('a missing, foreign, oversized, too large or broken one is refused naming art.references[i] and what to do', async () => {
    const dir = mkdtempSync(join(scratch, 'bad-refs-'));
    const png = await smoothPicture('png');
    writeFileSync(join(dir, 'good.png'), png);
    writeFileSync(join(dir, 'notes.txt'), 'not an image');
    writeFileSync(join(dir, 'huge.png'), Buffer.concat([png, Buffer.alloc(4 * 1024 * 1024)]));
    writeFileSync(
      join(dir, 'wide.png'),
      await sharp({ create: { width: 2049, height: 8, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
    );
    writeFileSync(join(dir, 'cut.png'), png.subarray(0, png.length >> 1));
    const file = join(dir, 'game.json');
    const refused = await problemsOf(
      file,
      gameWith(['good.png', 'missing.png', 'notes.txt', 'huge.png', 'wide.png', 'cut.png']),
    );
    expect(refused.problems.map((p) => p.path)).toEqual([
      'art.references[1]',
      'art.references[2]',
      'art.references[3]',
      'art.references[4]',
      'art.references[5]',
    ]);
    const said = refused.message;
    expect(said).toContain(
      'art.references[1]: "missing.png" does not exist: put the image there, or fix the path',
    );
    expect(said).toContain('art.references[2]: "notes.txt" is not a PNG, JPEG or WebP image');
    expect(said).toMatch(/art\.references\[3\]: "huge\.png" is 4\.\d MB; a reference may be at most 4\.0 MB/);
    expect(said).toContain('art.references[4]: "wide.png" is 2049×8; a reference may be at most 2048×2048');
    expect(said).toContain('art.references[5]: "cut.png" does not decode as a png');
    // What a developer reads names the file, never its bytes.
    expect(said.length).toBeLessThan(2_000);
  });

  it('a bad one stops start-up, and `lootsmith check` says the same', async () => {
    const dir = mkdtempSync(join(scratch, 'start-'));
    const file = writeGameFile(
      (game) => ({ art: { ...game.art, palette: PALETTE, references: ['icons/missing.png'] } }),
      dir,
    );
    await expect(
      startServer(loadConfig({ LOOTSMITH_GAME_FILE: file, LOOTSMITH_DATA_DIR: join(dir, 'data') }), {
        listen: false,
      }),
    ).rejects.toThrow(/art\.references\[0\]: "icons\/missing\.png" does not exist/);
    let stderr = '';
    const write = process.stderr.write;
    process.stderr.write = ((chunk: unknown) => {
      stderr += String(chunk);
      return true;
    }) as typeof process.stderr.write;
    try {
      expect(await runGameCommand(['check', file])).toBe(1);
    } finally {
      process.stderr.write = write;
    }
    expect(stderr).toContain('art.references[0]: "icons/missing.png" does not exist');
  });

  it('a grid larger than the icon is a game-file problem', () => {
    const game = shippedGame();
    expect(() => parseGame('small.json', { ...game, icon_size: 32, art: { pixel_size: 48 } })).toThrow(
      /art\.pixel_size: a 48×48 grid does not fit an icon_size of 32/,
    );
  });
});

describe('icon ids', () => {
  const reference = (bytes: string): ReferenceImage => ({
    name: 'a.png',
    type: 'image/png',
    bytes: Buffer.from(bytes),
  });
  const service = (art: Partial<IconArt>, references: ReferenceImage[] = []) => {
    const game = shippedGame();
    return new IconService(
      {} as never,
      {} as never,
      {} as never,
      { ...game, art: { ...game.art, ...art } },
      undefined,
      false,
      references,
    );
  };
  const item = {
    name: 'Ember Blade',
    type: 'WEAPON',
    subtype: 'sword',
    material: 'iron',
    element: 'fire',
    rarity: 'RARE',
  };
  const idOf = (s: IconService) => s.describe(s.promptFor(item)).id;

  it('change when any of the art changes, and stay when the art does not', () => {
    const plain = idOf(service({}));
    const ids = [
      plain,
      idOf(service({ palette: PALETTE })),
      idOf(service({ palette: PALETTE, pixel_size: 32 })),
      idOf(service({ palette: PALETTE, pixel_size: 32, outline: OUTLINE })),
      idOf(service({ avoid: 'photorealistic' })),
      idOf(service({ avoid: 'text' })),
      idOf(service({}, [reference('one')])),
      idOf(service({}, [reference('two')])),
      idOf(service({ style: 'pixel art' })),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect(idOf(service({}))).toBe(plain);
    expect(idOf(service({}, [reference('one')]))).toBe(ids[6]);
  });
});

/** An item's icon as a game loads it: dropped, then fetched from its URL. */
async function droppedIcon(inject: RunningServer['app']['inject'], headers: Record<string, string>) {
  const drop = await inject({
    method: 'POST',
    url: '/v1/generate/items',
    headers,
    payload: { client_id: 'ada', generation_context: { enemy: 'rat' }, items: [{ type: 'WEAPON' }] },
  });
  expect(drop.statusCode, drop.body).toBe(200);
  const icon = await inject({ url: drop.json().items[0].icon.url, headers });
  expect(icon.statusCode).toBe(200);
  expect(icon.headers['content-type']).toBe('image/png');
  return icon.rawPayload;
}

/** The rules an icon served in the art keeps, whatever painted it. */
async function expectInArt(png: Buffer) {
  const seen = await read(png);
  expect([seen.format, seen.width, seen.height]).toEqual(['png', 128, 128]);
  expect([...seen.alphas].sort((a, b) => a - b)).toEqual([0, 255]);
  expect(seen.corners).toEqual([0, 0, 0, 0]);
  for (const colour of seen.colours) expect(PALETTE).toContain(colour);
  expect(expectOnGrid(seen.grid(32), 32, OUTLINE)).toBeGreaterThan(0.1);
}

describe('through the real server, on every backend', () => {
  const withArt = (game: GameDefinition) => ({ art: { ...game.art, ...ART } });

  it('the embedded engine: the served icon is in the game’s art', async () => {
    const dir = mkdtempSync(join(scratch, 'embedded-'));
    const server = await startServer(
      loadConfig({
        LOOTSMITH_SERVER_KEY: 'icon-art-server-key-0123456789',
        LOOTSMITH_DATA_DIR: dir,
        LOOTSMITH_GAME_FILE: writeGameFile(withArt, dir),
        LOOTSMITH_LOG_LEVEL: 'silent',
      }),
      { listen: false },
    );
    try {
      await expectInArt(
        await droppedIcon(server.app.inject.bind(server.app), {
          authorization: 'Bearer icon-art-server-key-0123456789',
        }),
      );
    } finally {
      await server.close();
    }
  });

  for (const { api } of IMAGE_BACKENDS)
    it(`${label({ image: api })}: the served icon is in the game’s art`, async () => {
      let b: Booted | undefined;
      try {
        b = await bootServer({
          backends: { image: api },
          game: withArt,
          env: { LOOTSMITH_UPSTREAM_TIMEOUT_MS: '5000' },
        });
        // What a real model paints: a smooth full-colour 1024² picture on white.
        b.fake.picture = 'smooth';
        await expectInArt(
          await droppedIcon(b.server.app.inject.bind(b.server.app), {
            authorization: `Bearer ${await b.token('ada')}`,
          }),
        );
        expect(b.fake.calls.image).toBeGreaterThanOrEqual(1);
      } finally {
        await b?.close();
      }
    });
});

describe("the demo's game file", () => {
  it('paints in the demo’s own pixel palette, grid and outline', () => {
    const game = parseGame('demo-game.json', demoGame());
    expect(game.art.pixel_size).toBeGreaterThanOrEqual(16);
    expect(game.icon_size % (game.art.pixel_size as number)).toBe(0);
    expect(game.art.palette?.length).toBeGreaterThanOrEqual(16);
    expect(game.art.outline).toBe('#0b0a10');
  });
});
