// The demo's own game definition: `demo-game/game.patch.json`, a JSON merge patch (RFC 7386) over the
// shipped fantasy RPG (`server/game/fantasy-rpg.json`). `npm start` and the browser suites serve it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BASE = fileURLToPath(new URL('../server/game/fantasy-rpg.json', import.meta.url));
const PATCH = fileURLToPath(new URL('../demo-game/game.patch.json', import.meta.url));

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386: objects merge key by key, `null` removes a key, anything else replaces. */
export function mergePatch(target, patch) {
  if (!isObject(patch)) return patch;
  const out = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** The demo's game definition, as an object. */
export function demoGame() {
  return mergePatch(JSON.parse(readFileSync(BASE, 'utf8')), JSON.parse(readFileSync(PATCH, 'utf8')));
}

/** Writes the demo's game definition into a new temporary directory; returns the file's path. */
export function writeDemoGameFile() {
  const file = join(mkdtempSync(join(tmpdir(), 'lootsmith-demo-game-')), 'demo-game.json');
  writeFileSync(file, `${JSON.stringify(demoGame(), null, 2)}\n`);
  return file;
}
