import type Phaser from 'phaser';
import type { PlayerState } from './player-state.ts';
import type { DungeonScene } from './scenes/DungeonScene.ts';
import type { Toasts } from './ui/Toasts.ts';
import { STATIONS, TILE } from './world/dungeon-map.ts';

interface Point {
  x: number;
  y: number;
}

/**
 * `window.__lootsmithDemo`: game state for end-to-end tests, read instead of pixels. Positions come
 * in page pixels (`page`) so a test can aim real mouse clicks.
 */
export function installDemoHook(game: Phaser.Game, state: PlayerState, toasts: Toasts, playerId: string) {
  const dungeon = () => {
    const scene = game.scene.getScene('Dungeon') as DungeonScene | null;
    return scene?.sys.isActive() ? scene : undefined;
  };
  const page = (p: Point): Point => {
    const rect = game.canvas.getBoundingClientRect();
    return {
      x: Math.round(rect.left + (p.x * rect.width) / game.scale.width),
      y: Math.round(rect.top + (p.y * rect.height) / game.scale.height),
    };
  };
  const hook = {
    playerId,
    get ready() {
      return dungeon() !== undefined && state.loaded;
    },
    get scenes() {
      return game.scene.getScenes(true).map((s) => s.sys.settings.key);
    },
    hero() {
      const hero = dungeon()?.hero;
      return hero && { x: hero.x, y: hero.y, hp: hero.hp, page: page(hero) };
    },
    enemies() {
      return (dungeon()?.enemies ?? []).map((e) => ({
        uid: e.uid,
        kind: e.kind.id,
        hp: e.hp,
        alive: e.alive,
        x: e.x,
        y: e.y,
        page: page(e),
      }));
    },
    drops() {
      const scene = dungeon();
      return (scene?.loot.onGround ?? []).map((sprite) => ({
        itemId: sprite.item.id,
        name: sprite.item.name,
        rarity: sprite.item.rarity,
        texture: sprite.icon?.texture.key,
        textureLoaded: sprite.icon ? scene?.textures.exists(sprite.icon.texture.key) === true : false,
        /** The icon is still being painted: a placeholder in the rarity colour shows. */
        pending: sprite.pending,
        page: page(sprite),
      }));
    },
    stations() {
      return STATIONS.map((s) => ({ id: s.id, page: page({ x: s.x * TILE, y: s.y * TILE }) }));
    },
    /** Where to click to walk somewhere, in map pixels → page pixels. */
    toPage: page,
    inventory() {
      return state.items.map((e) => ({
        id: e.item.id,
        name: e.item.name,
        type: e.item.type,
        quantity: e.quantity,
      }));
    },
    get craftingLevel() {
      return state.craftingLevel;
    },
    get recipes() {
      return state.recipes.map((r) => r.result_name);
    },
    get busy() {
      return dungeon()?.hud.busy ?? 0;
    },
    get panel() {
      return dungeon()?.panels.current?.root.id;
    },
    toasts() {
      return toasts.history;
    },
    textureExists(key: string) {
      return game.textures.exists(key);
    },
    /** The texture key of an owned item's icon, once some panel or drop has loaded it. */
    iconKey(itemId: string) {
      const scene = dungeon();
      const item = state.item(itemId);
      return item && scene?.icons.keyFor(item);
    },
  };
  Object.assign(window, { __lootsmithDemo: hook });
  return hook;
}

export type DemoHook = ReturnType<typeof installDemoHook>;
