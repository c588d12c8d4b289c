// Checked by `tsc -p plugin`: `this.lootsmith` is typed in any scene once the package is imported.
// Each @ts-expect-error fails the check if the plugin's types ever loosen to `any`.
import Phaser from 'phaser';
import type { GameTypes, Item, LootSprite } from '../src/index.ts';

/** A game's types as `lootsmith types` writes them. */
interface Crawl extends GameTypes {
  type: 'WEAPON' | 'HELMET' | 'CONSUMABLE';
  slot: 'WEAPON' | 'HELMET';
  stat: 'attack' | 'defense' | 'crit_chance';
  element: 'none' | 'fire';
  rarity: 'COMMON' | 'RARE';
  fields: { durability?: number };
}

export class TypedScene extends Phaser.Scene {
  async create() {
    const { items, sprites } = await this.lootsmith.loot.drop({ x: 1, y: 2, enemy: 'rat', count: 2 });
    const first: LootSprite | undefined = sprites[0];
    first?.glow.setTint(0xffffff);
    const names: string[] = items.map((item) => item.name);

    const texts = await this.lootsmith.loot.drop({
      x: 0,
      y: 0,
      sprite: ({ scene, x, y }) => scene.add.text(x, y, ''),
    });
    texts.sprites[0]?.setText(names.join());

    const combined = await this.lootsmith.crafting.combine({ ingredients: ['a'], intent: 'a blade' });
    if (combined.success) combined.result_item?.rarity satisfies string | undefined;

    this.lootsmith.on('error', ({ error }) => error.reason satisfies string | undefined);
    this.add.image(0, 0, await this.lootsmith.icons.texture('a red potion'));

    await this.lootsmith.loot.drop({ enemy: 'skeleton', grant: 'a.signed.grant' });
    // @ts-expect-error a grant is the game server's signed string
    await this.lootsmith.loot.drop({ grant: { level: 60 } });
    // @ts-expect-error rarity is the server's to roll
    await this.lootsmith.loot.drop({ rarity: 'MYTHIC' });
    // @ts-expect-error events are typed by name
    this.lootsmith.on('lot', () => {});
    const sword = items[0] as Item<Crawl> | undefined;
    sword?.stats.find((s) => s.name === 'crit_chance');
    sword?.durability satisfies number | undefined;
    // @ts-expect-error a game's stats are its own ids: a misspelt one is a compile error
    sword?.stats.find((s) => s.name === 'crit_chanse');
    // @ts-expect-error and so are its types
    sword?.type === 'SPOON';
  }
}
