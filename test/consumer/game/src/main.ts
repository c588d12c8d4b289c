// A small game of someone who installed @lootsmith/plugin from its tarball: one scene that drops loot,
// crafts and shows an icon, against a Lootsmith server on another origin (`?server=` in the URL).

import { type CombineResponse, type Item, LootsmithError, lootsmithScenePlugin } from '@lootsmith/plugin';
import Phaser from 'phaser';

declare global {
  interface Window {
    lootsmithResult?:
      | { error: string }
      | { phaser: string; names: string[]; sprites: number; crafted: CombineResponse; texture: boolean };
  }
}

/** The plugin's types are real: were `Item` `any`, this directive would itself be an error. */
export function nameAsNumber(item: Item): number {
  // @ts-expect-error an item's name is a string
  const wrong: number = item.name;
  return wrong;
}

const server = new URLSearchParams(location.search).get('server') ?? location.origin;

class Loot extends Phaser.Scene {
  constructor() {
    super('loot');
  }

  async create() {
    this.lootsmith.configure({ baseUrl: server, playerId: `stranger-${Date.now().toString(36)}` });
    try {
      const { items, sprites } = await this.lootsmith.loot.drop({
        x: 200,
        y: 160,
        enemy: 'slime',
        playerLevel: 2,
      });
      const crafted = await this.lootsmith.crafting.combine({
        ingredients: ['iron_ore', 'oak_wood'],
        station: 'workbench',
        intent: 'a sturdy hammer',
      });
      const key = await this.lootsmith.icons.texture(items[0] as Item);
      this.add.image(400, 300, key).setDisplaySize(96, 96);
      window.lootsmithResult = {
        phaser: Phaser.VERSION,
        names: items.map((item) => item.name),
        sprites: sprites.length,
        crafted,
        texture: this.textures.exists(key),
      };
    } catch (e) {
      window.lootsmithResult = { error: e instanceof LootsmithError ? `${e.code}: ${e.message}` : String(e) };
    }
  }
}

new Phaser.Game({
  type: Phaser.AUTO,
  width: 800,
  height: 600,
  parent: 'game',
  plugins: { scene: [lootsmithScenePlugin] },
  scene: [Loot],
});
