import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { GameDefinition } from '@lootsmith/protocol';
import sharp from 'sharp';
import { imageFormat } from '../images/normalise.ts';
import type { ReferenceImage } from '../upstream/backends/types.ts';
import type { GameProblem } from './check.ts';
import { GameFileError } from './definition.ts';

/** What a reference icon may be: a file of at most 4 MB, at most 2048 pixels a side. */
export const REFERENCE_LIMITS = { maxBytes: 4 * 1024 * 1024, maxSide: 2048 } as const;

const TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Reads the game's `art.references` once, at start-up: each path relative to the game file, a PNG,
 * JPEG or WebP by its signature that decodes whole, within `REFERENCE_LIMITS`. Every bad one is a
 * problem named `art.references[i]` with what to do, and the game file does not start.
 */
export async function loadArtReferences(file: string, game: GameDefinition): Promise<ReferenceImage[]> {
  const { references } = game.art;
  const read = await Promise.all(references.map((path) => readReference(resolve(dirname(file), path))));
  const problems: GameProblem[] = read.flatMap((r, i) =>
    typeof r === 'string' ? [{ path: `art.references[${i}]`, message: `"${references[i]}" ${r}` }] : [],
  );
  if (problems.length) throw new GameFileError(file, problems);
  return read.map((r, i) => ({
    name: basename(references[i] as string),
    ...(r as Omit<ReferenceImage, 'name'>),
  }));
}

/** The reference's type and bytes, or what is wrong with it and what to do (never its bytes). */
async function readReference(path: string): Promise<Omit<ReferenceImage, 'name'> | string> {
  let bytes: Buffer;
  try {
    const facts = await stat(path);
    if (!facts.isFile()) return 'is not a file: name an image file, relative to the game file';
    if (facts.size > REFERENCE_LIMITS.maxBytes)
      return `is ${megabytes(facts.size)}; a reference may be at most ${megabytes(REFERENCE_LIMITS.maxBytes)}: save it smaller (an icon needs no more than 512×512)`;
    bytes = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? 'does not exist: put the image there, or fix the path (relative to the game file)'
      : `cannot be read (${code ?? (err as Error).message}): check the file's permissions`;
  }
  const format = imageFormat(bytes);
  if (!format) return 'is not a PNG, JPEG or WebP image: save it as one of those';
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: false });
    const { width = 0, height = 0, format: decoded } = await image.metadata();
    if (decoded !== format) return `is signed as ${format} but is a ${decoded}: save it as a ${format}`;
    if (width > REFERENCE_LIMITS.maxSide || height > REFERENCE_LIMITS.maxSide)
      return `is ${width}×${height}; a reference may be at most ${REFERENCE_LIMITS.maxSide}×${REFERENCE_LIMITS.maxSide}: scale it down`;
    // Decoded whole once, so a cut-off file is found now rather than by a backend on every icon.
    await image.resize(16, 16, { fit: 'inside' }).raw().toBuffer();
  } catch (err) {
    return `does not decode as a ${format} (${(err as Error).message.split('\n')[0]}): save it again from an image editor`;
  }
  return { type: TYPES[format], bytes };
}
