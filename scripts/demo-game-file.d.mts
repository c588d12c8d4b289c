/** RFC 7386: objects merge key by key, `null` removes a key, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown;
/** The demo's game definition (`demo-game/game.patch.json` over `server/game/fantasy-rpg.json`). */
export function demoGame(): Record<string, unknown>;
/** Writes the demo's game definition into a new temporary directory; returns the file's path. */
export function writeDemoGameFile(): string;
