import type Phaser from 'phaser';
import { damageRange } from './hero-stats.ts';
import type { PlayerState } from './player-state.ts';
import type { DungeonScene } from './scenes/DungeonScene.ts';
import type { Toasts } from './ui/Toasts.ts';
import { AREAS, STATIONS, TILE } from './world/dungeon-map.ts';
import { findPath } from './world/pathfinding.ts';

interface Point {
  x: number;
  y: number;
}

/**
 * `window.__lootsmithDemo`: game state for end-to-end tests, read instead of pixels. Positions come
 * in page pixels (`page`) so a test can aim real mouse clicks; `onScreen` says whether that point
 * is inside the canvas now (the camera follows the hero).
 */
export function installDemoHook(game: Phaser.Game, state: PlayerState, toasts: Toasts, playerId: string) {
  const dungeon = () => {
    const scene = game.scene.getScene('Dungeon') as DungeonScene | null;
    return scene?.sys.isActive() ? scene : undefined;
  };
  const page = (p: Point): Point & { onScreen: boolean } => {
    const rect = game.canvas.getBoundingClientRect();
    const camera = dungeon()?.cameras.main;
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
    get scenes() {
      return game.scene.getScenes(true).map((s) => s.sys.settings.key);
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
        page: page(hero),
      };
    },
    /** The hero's last hits, newest last. */
    hits() {
      return [...(dungeon()?.hits ?? [])];
    },
    worn() {
      return state.slots.flatMap((s) => (s.item ? [{ slot: s.slot, id: s.item.id, name: s.item.name }] : []));
    },
    enemies() {
      return (dungeon()?.enemies ?? []).map((e) => ({
        uid: e.uid,
        kind: e.kind.id,
        hp: e.hp,
        alive: e.alive,
        visible: e.visible,
        x: e.x,
        y: e.y,
        page: page(e),
      }));
    },
    door() {
      const door = dungeon()?.door;
      return (
        door && {
          open: door.open,
          cracks: door.cracks,
          needs: door.needs,
          x: door.x,
          y: door.y,
          page: page(door),
        }
      );
    },
    get revealed() {
      return [...(dungeon()?.fog.revealed ?? [])];
    },
    get won() {
      return dungeon()?.run.won ?? false;
    },
    get goal() {
      return document.querySelector('.objective')?.textContent ?? '';
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
    areaNames: AREAS.map((a) => a.name),
    /** Map pixels → page pixels, to aim a click. */
    toPage: page,
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
        stats: e.item.stats,
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
