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
  /** Icon id → the icon's main colour. */
  readonly #colors = new Map<string, number>();
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

  /**
   * The colour an item is drawn in on the hero: its own `color` when that names a colour ("crimson",
   * "azure", "#3366ff"), else the main colour of its look (what its words and icon show: a gold
   * crown is gold), else the average of its icon's opaque pixels once the icon is loaded.
   */
  colorOf(item: Item): number | undefined {
    for (const word of [item.color, item.look?.colors[0]]) {
      const own = word ? namedColor(word) : undefined;
      if (own !== undefined) return own;
    }
    const key = this.keyFor(item);
    if (!key || !item.icon) return undefined;
    let color = this.#colors.get(item.icon.id);
    if (color === undefined) {
      color = averageColor(this.#textures.get(key).getSourceImage() as CanvasImageSource);
      if (color !== undefined) this.#colors.set(item.icon.id, color);
    }
    return color;
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

/** A CSS colour ("crimson", "dark green", "#36f") as a number; undefined for a word that is none. */
function namedColor(word: string): number | undefined {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return undefined;
  const unset = '#010203';
  context.fillStyle = unset;
  context.fillStyle = word.toLowerCase().replaceAll(' ', '');
  const css = context.fillStyle;
  return css !== unset && /^#[0-9a-f]{6}$/.test(css) ? Number.parseInt(css.slice(1), 16) : undefined;
}

/**
 * The colour of an image's lit, opaque pixels (its outline and shadows left out), brightened to read
 * as a tint over the gear's grey shapes in the dim dungeon; undefined for a blank image.
 */
function averageColor(image: CanvasImageSource): number | undefined {
  const size = 24;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return undefined;
  context.drawImage(image, 0, 0, size, size);
  const { data } = context.getImageData(0, 0, size, size);
  const sums = { lit: [0, 0, 0, 0], all: [0, 0, 0, 0] };
  for (let i = 0; i < data.length; i += 4) {
    if ((data[i + 3] ?? 0) < 160) continue;
    const rgb = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
    for (const sum of Math.max(...rgb) >= 64 ? [sums.lit, sums.all] : [sums.all]) {
      rgb.forEach((c, k) => {
        sum[k] = (sum[k] ?? 0) + c;
      });
      sum[3] = (sum[3] ?? 0) + 1;
    }
  }
  const sum = sums.lit[3] ? sums.lit : sums.all;
  const n = sum[3] ?? 0;
  if (!n) return undefined;
  const [r, g, b] = [0, 1, 2].map((k) => (sum[k] ?? 0) / n) as [number, number, number];
  const lift = Math.max(1, 220 / Math.max(r, g, b, 1));
  const channel = (c: number) => Math.min(255, Math.round(c * lift));
  return (channel(r) << 16) | (channel(g) << 8) | channel(b);
}
