import type Phaser from 'phaser';
import { itemEffects } from './hero-effects.ts';
import { damageRange } from './hero-stats.ts';
import type { PlayerState } from './player-state.ts';
import type { DungeonScene } from './scenes/DungeonScene.ts';
import type { Toasts } from './ui/Toasts.ts';
import { AREAS, areaAt, STATIONS, TILE } from './world/dungeon-map.ts';
import { findPath } from './world/pathfinding.ts';

interface Point {
  x: number;
  y: number;
}

/**
 * `window.__lootsmithDemo`: what the game shows, for end-to-end tests to read instead of pixels.
 * Read only: every answer is a fresh copy, and the tests play with real input. Positions come in
 * page pixels (`page`) so a test can aim real clicks; `onScreen` says whether that point is inside
 * the canvas now (the camera follows the hero). Installed by development and test builds only.
 */
export function installDemoHook(game: Phaser.Game, state: PlayerState, toasts: Toasts, playerId: string) {
  const dungeon = () => {
    const scene = game.scene.getScene('Dungeon') as DungeonScene | null;
    return scene?.sys.isActive() ? scene.view : undefined;
  };
  const page = (p: Point): Point & { onScreen: boolean } => {
    const rect = game.canvas.getBoundingClientRect();
    const camera = dungeon()?.camera;
    const view = camera?.worldView;
    const zoom = camera?.zoom ?? 1;
    const x = view ? (p.x - view.x) * zoom + (camera?.x ?? 0) : p.x;
    const y = view ? (p.y - view.y) * zoom + (camera?.y ?? 0) : p.y;
    const sx = rect.width / game.scale.width;
    const sy = rect.height / game.scale.height;
    return {
      x: Math.round(rect.left + x * sx),
      y: Math.round(rect.top + y * sy),
      onScreen: x >= 0 && y >= 0 && x <= game.scale.width && y <= game.scale.height,
    };
  };
  const hook = {
    playerId,
    get ready() {
      return dungeon() !== undefined && state.loaded;
    },
    hero() {
      const hero = dungeon()?.hero;
      if (!hero) return undefined;
      const { attack, defense, maxHp, speed } = hero.stats;
      return {
        x: hero.x,
        y: hero.y,
        hp: hero.hp,
        maxHp,
        attack,
        defense,
        speed,
        damage: damageRange(attack),
        /** How each worn slot shows on the hero: 'icon' (the item's own picture) or 'shape'. */
        gear: { ...hero.shown },
        page: page(hero),
      };
    },
    /** The hero's last hits, newest last. */
    hits() {
      return [...(dungeon()?.hits ?? [])];
    },
    /** How often each effect acted in play so far, and how much it did. */
    effectLog() {
      const log = dungeon()?.effects;
      return log && structuredClone(log);
    },
    /** What is worn, with the effects of each item that the demo plays. */
    worn() {
      return state.slots.flatMap((s) =>
        s.item
          ? [
              {
                slot: s.slot,
                id: s.item.id,
                name: s.item.name,
                effects: structuredClone(itemEffects(s.item)),
              },
            ]
          : [],
      );
    },
    enemies() {
      return (dungeon()?.enemies ?? []).map((e) => ({
        uid: e.uid,
        kind: e.kind.id,
        hp: e.hp,
        maxHp: e.kind.hp,
        alive: e.alive,
        visible: e.visible,
        x: e.x,
        y: e.y,
        /** The room (or corridor) it stands in. */
        area: areaAt(e.x, e.y)?.id,
        speed: e.speed,
        slowedBy: e.slowedBy,
        burning: e.burning,
        stompComing: e.stompComing,
        page: page(e),
      }));
    },
    door() {
      const door = dungeon()?.door;
      return (
        door && {
          open: door.open,
          cracks: door.cracks,
          hp: door.hp,
          needs: door.needs,
          x: door.x,
          y: door.y,
          page: page(door),
        }
      );
    },
    get revealed() {
      return [...(dungeon()?.revealed ?? [])];
    },
    get won() {
      return dungeon()?.won ?? false;
    },
    /** The run so far: game-clock seconds since it began, kills and knock-outs. */
    run() {
      const run = dungeon()?.run;
      return run && { seconds: run.seconds, kills: run.kills, knockOuts: run.knockOuts };
    },
    get goal() {
      return document.querySelector('.objective')?.textContent ?? '';
    },
    /** The goal arrow beside the hero: whether it shows, and its angle (radians, 0 = east). */
    arrow() {
      const arrow = dungeon()?.arrow;
      return arrow && { visible: arrow.visible, angle: arrow.rotation };
    },
    drops() {
      return (dungeon()?.loot ?? []).map((sprite) => ({
        itemId: sprite.item.id,
        name: sprite.item.name,
        rarity: sprite.item.rarity,
        texture: sprite.icon?.texture.key,
        textureLoaded: sprite.icon ? game.textures.exists(sprite.icon.texture.key) : false,
        /** The icon is still being painted: a placeholder in the rarity colour shows. */
        pending: sprite.pending,
        x: sprite.x,
        y: sprite.y,
        page: page(sprite),
      }));
    },
    stations() {
      return STATIONS.map((s) => ({
        id: s.id,
        x: s.x * TILE,
        y: s.y * TILE,
        page: page({ x: s.x * TILE, y: s.y * TILE }),
      }));
    },
    /** "E — use the Forge" above the station the hero stands at, and the station names it hides. */
    stationPrompt() {
      const prompt = dungeon()?.stationPrompt;
      return prompt && { ...prompt, page: page(prompt) };
    },
    /** Every area's name (rooms and corridors). */
    areaNames: Object.freeze(AREAS.map((a) => a.name)),
    /** Each room's (and corridor's) id and middle, in map pixels. */
    areas: Object.freeze(
      AREAS.map((a) => ({ id: a.id, x: ((a.x0 + a.x1 + 1) / 2) * TILE, y: ((a.y0 + a.y1 + 1) / 2) * TILE })),
    ),
    /** The walk from the hero to a map point, as page points (empty when it cannot be reached). */
    route(x: number, y: number) {
      const hero = dungeon()?.hero;
      return hero ? findPath(hero, { x, y }).map(page) : [];
    },
    inventory() {
      return state.items.map((e) => ({
        id: e.item.id,
        name: e.item.name,
        type: e.item.type,
        quantity: e.quantity,
        stats: e.item.stats.map((s) => ({ ...s })),
        /** The effects of it that the demo plays. */
        effects: structuredClone(itemEffects(e.item)),
      }));
    },
    get craftingLevel() {
      return state.craftingLevel;
    },
    get panel() {
      return dungeon()?.panel;
    },
    toasts() {
      return toasts.history.map((t) => ({ ...t }));
    },
    textureExists(key: string) {
      return game.textures.exists(key);
    },
  };
  // Frozen and not writable: a test reads the game through it and cannot replace any of it.
  Object.defineProperty(window, '__lootsmithDemo', { value: Object.freeze(hook), enumerable: true });
  return hook;
}
