import type { Item, LootsmithPlugin } from '@lootsmith/plugin';
import type Phaser from 'phaser';

/**
 * Item icons for the DOM panels, through the plugin (so they come from its IndexedDB cache after a
 * reload) and into Phaser's texture manager, whose decoded image the panels reuse.
 */
export class IconSource {
  /** Icon id → texture key, for every icon loaded so far. */
  readonly #keys = new Map<string, string>();
  readonly #urls = new Map<string, Promise<string | undefined>>();
  readonly #plugin: LootsmithPlugin;
  readonly #textures: Phaser.Textures.TextureManager;

  constructor(plugin: LootsmithPlugin, textures: Phaser.Textures.TextureManager) {
    this.#plugin = plugin;
    this.#textures = textures;
  }

  /** The texture key of an item's icon, once loaded. */
  keyFor(item: Item): string | undefined {
    return item.icon ? this.#keys.get(item.icon.id) : undefined;
  }

  /** A URL for an `<img>`, or undefined when the item has no icon or it could not be loaded. */
  url(item: Item): Promise<string | undefined> {
    const icon = item.icon;
    if (!icon) return Promise.resolve(undefined);
    let url = this.#urls.get(icon.id);
    if (!url) {
      url = this.#plugin.icons.texture(item).then(
        (key) => {
          this.#keys.set(icon.id, key);
          return this.#imageUrl(key);
        },
        () => {
          // Forget the failure so the next paint tries again.
          this.#urls.delete(icon.id);
          return undefined;
        },
      );
      this.#urls.set(icon.id, url);
    }
    return url;
  }

  /** Sets an `<img>`'s source once the icon is ready; returns the element for chaining. */
  paint(img: HTMLImageElement, item: Item): HTMLImageElement {
    void this.url(item).then((url) => {
      if (url) {
        img.src = url;
        img.classList.add('ready');
      }
    });
    return img;
  }

  #imageUrl(key: string): string | undefined {
    const source = this.#textures.get(key).getSourceImage();
    if (source instanceof HTMLImageElement) return source.src;
    if (source instanceof HTMLCanvasElement) return source.toDataURL();
    return undefined;
  }
}
