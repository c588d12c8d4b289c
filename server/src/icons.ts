import { createHash } from 'node:crypto';
import {
  BoundedMap,
  colourOfWord,
  type GameDefinition,
  type GeneratedItem,
  type IconArt,
  type ItemIcon,
  type ItemLook,
  iconPrompt,
  lookNamedIn,
} from '@lootsmith/protocol';
import type { Coordination } from './coordination/coordination.ts';
import type { Metrics } from './metrics.ts';
import type { Store } from './store/store.ts';
import type { ReferenceImage } from './upstream/backends/types.ts';
import type { UpstreamClient } from './upstream/client.ts';
import type { Priority } from './upstream/queue.ts';

/**
 * The look of an item that carries none (a game file's crafting material, an item stored before
 * plans): its subtype, its material, the colour asked for, and what its name and text show.
 */
export function lookOf(
  item: Pick<GeneratedItem, 'name' | 'subtype' | 'material' | 'color'> & { description?: string },
): ItemLook {
  const named = lookNamedIn(`${item.name} ${item.description ?? ''}`);
  const asked = item.color ? colourOfWord(item.color) : undefined;
  return {
    noun: item.subtype,
    materials: [item.material],
    colors: [...new Set([...(asked ? [asked] : []), ...named.colours])].slice(0, 3),
    features: [...named.features].slice(0, 4),
  };
}

/**
 * The part of an icon's id that the prompt does not carry: the art's avoid words and the digest of
 * each reference's bytes; empty when the game has neither (ids stay as they were before `art`).
 */
function artKey(art: IconArt, references: readonly ReferenceImage[]): string {
  if (!art.avoid && !references.length) return '';
  const hash = createHash('sha256').update(`avoid:${art.avoid ?? ''}`);
  for (const r of references) hash.update(`\0${createHash('sha256').update(r.bytes).digest('hex')}`);
  return `:${hash.digest('hex')}`;
}

/** After a background paint fails, the icon URL waits this long before starting another. */
const RETRY_PAINT_MS = 2_000;

/** What the icon URL answers: the PNG, a wait while it is painted, or nothing (no such icon). */
export type IconLookup = { png: Buffer } | { retryAfterMs: number } | null;

/**
 * Icons are content-addressed by prompt (and the game's icon size): the same prompt is painted once
 * and served forever, as Lootsmith's own PNG whatever the backend painted.
 */
export class IconService {
  /** Paints running in the background (icons after the item), by icon id. */
  private readonly behind = new Map<string, { started: number; done: Promise<void> }>();
  private readonly failedAt = new BoundedMap<string, number>(10_000);
  private readonly stopping = new AbortController();
  /** Moving average of background paints, for the wait the icon URL suggests. */
  private paintMs = 0;

  /** What the prompt does not say but the icon depends on (avoid words, references), for its id; empty without. */
  private readonly artKey: string;

  constructor(
    private readonly store: Pick<Store, 'icon' | 'putIcon'>,
    private readonly coordination: Coordination,
    private readonly upstream: UpstreamClient,
    private readonly game: GameDefinition,
    private readonly metrics?: Metrics,
    /**
     * Icons after the item (`LOOTSMITH_ICONS_AFTER_ITEM`): a drop answers before its icons are
     * painted, and the icon URL answers 202 while a paint runs rather than painting while it waits.
     */
    readonly afterItem = false,
    /** The game's `art.references`, read at start-up (`loadArtReferences`); the console shows them. */
    readonly references: readonly ReferenceImage[] = [],
  ) {
    this.artKey = artKey(game.art, references);
  }

  /** The icon prompt of an item: its plan (`iconPrompt`), in the game’s silhouette, style, palette and art. */
  promptFor(
    item: Pick<
      GeneratedItem,
      'name' | 'type' | 'subtype' | 'material' | 'element' | 'rarity' | 'color' | 'look'
    >,
  ): string {
    const type = this.game.item_types.find((t) => t.id === item.type);
    return iconPrompt({
      name: item.name,
      look: item.look ?? lookOf(item),
      element: item.element,
      rarity: item.rarity,
      silhouette: type?.icon,
      // Without a silhouette, the type's name lets a painter guess the shape ("a kind of implant").
      type: type?.icon ? undefined : type?.name.toLowerCase(),
      style: this.game.art.style ?? this.game.icon_style,
      palette: this.game.icon_palette,
      art: this.game.art,
      colorWord: item.color ?? undefined,
    });
  }

  /**
   * The icon reference of a prompt, painted lazily when first fetched. Its id hashes all the icon
   * depends on: the icon size, the prompt (which says the art's grid, palette and outline) and the art's
   * avoid words and references, so an icon painted under other art is never served for this one.
   */
  describe(prompt: string): ItemIcon {
    const id = createHash('sha256')
      .update(`${this.game.icon_size}:${prompt}${this.artKey}`)
      .digest('hex')
      .slice(0, 32);
    return { id, url: `/api/v1/icons/${id}.png`, prompt };
  }

  /** Describes an icon that may be painted later, on any instance. */
  async register(prompt: string): Promise<ItemIcon> {
    const icon = this.describe(prompt);
    await this.coordination.rememberIcon(icon.id, prompt);
    return icon;
  }

  /** Paints the icon now (generation fails if painting fails) and returns its reference. */
  async ensure(prompt: string, clientId: string, signal?: AbortSignal): Promise<ItemIcon> {
    const icon = this.describe(prompt);
    await this.paint(icon.id, prompt, clientId, signal);
    return icon;
  }

  /**
   * Starts painting in the background unless the icon exists (`pending` says which). The prompt is
   * registered first, so the icon URL answers on any instance: 202 until painted, then the PNG.
   */
  async paintBehind(prompt: string, clientId: string): Promise<{ icon: ItemIcon; pending: boolean }> {
    const icon = this.describe(prompt);
    if (await this.store.icon(icon.id)) return { icon, pending: false };
    await this.coordination.rememberIcon(icon.id, prompt);
    this.startBehind(icon.id, prompt, clientId);
    return { icon, pending: true };
  }

  /**
   * With icons after the item, starts painting the icons these items still lack, for this player;
   * the ids of those not painted yet (none when icons come with the item).
   */
  async pendingFor(
    items: Array<{ icon?: Pick<ItemIcon, 'prompt'> | null }>,
    clientId: string,
  ): Promise<string[]> {
    if (!this.afterItem) return [];
    const prompts = [...new Set(items.flatMap((i) => (i.icon ? [i.icon.prompt] : [])))];
    const later = await Promise.all(prompts.map((prompt) => this.paintBehind(prompt, clientId)));
    return later.filter((l) => l.pending).map((l) => l.icon.id);
  }

  /** What the icon URL serves: with icons after the item, a paint in progress answers a wait. */
  async lookup(id: string): Promise<IconLookup> {
    if (!this.afterItem) {
      const png = await this.png(id);
      return png && { png };
    }
    const stored = await this.store.icon(id);
    if (stored) {
      this.metrics?.cacheHits.inc({ cache: 'icon' });
      return { png: stored };
    }
    const prompt = await this.coordination.iconPrompt(id);
    if (!prompt) return null;
    const failed = this.failedAt.get(id);
    if (failed === undefined || Date.now() - failed > RETRY_PAINT_MS)
      this.startBehind(id, prompt, 'lootsmith');
    const started = this.behind.get(id)?.started ?? Date.now();
    const expected = this.paintMs || 1000;
    return { retryAfterMs: Math.max(100, Math.round(expected - (Date.now() - started))) };
  }

  private startBehind(id: string, prompt: string, clientId: string) {
    if (this.behind.has(id) || this.stopping.signal.aborted) return;
    const started = Date.now();
    const done = this.paint(id, prompt, clientId, this.stopping.signal, 'after-item').then(
      () => {
        const took = Date.now() - started;
        this.paintMs = this.paintMs ? 0.8 * this.paintMs + 0.2 * took : took;
        this.failedAt.delete(id);
      },
      () => {
        // Painted again when the icon is next asked for; a bounded memory of failures.
        this.failedAt.set(id, Date.now());
      },
    );
    this.behind.set(id, { started, done });
    void done.finally(() => this.behind.delete(id));
  }

  /** Stops background paints (shutdown) and waits for them to end. */
  async close() {
    this.stopping.abort();
    await Promise.all([...this.behind.values()].map((b) => b.done));
  }

  /**
   * Paints several icons for one answer; when one fails the others are called off (unless another
   * request waits for them too), so a failed generation leaves no icon behind.
   */
  async ensureAll(prompts: string[], clientId: string, signal?: AbortSignal): Promise<ItemIcon[]> {
    const stop = new AbortController();
    const hangUp = () => stop.abort();
    signal?.addEventListener('abort', hangUp, { once: true });
    try {
      return await Promise.all(prompts.map((prompt) => this.ensure(prompt, clientId, stop.signal)));
    } catch (err) {
      stop.abort();
      throw err;
    } finally {
      signal?.removeEventListener('abort', hangUp);
    }
  }

  async png(id: string, clientId = 'lootsmith', signal?: AbortSignal): Promise<Buffer | null> {
    const stored = await this.store.icon(id);
    if (stored) {
      this.metrics?.cacheHits.inc({ cache: 'icon' });
      return stored;
    }
    const prompt = await this.coordination.iconPrompt(id);
    if (!prompt) return null;
    await this.paint(id, prompt, clientId, signal);
    return this.store.icon(id);
  }

  /**
   * Concurrent requests for one icon paint it once; the others find it in the store. The seed comes
   * from the prompt, so a backend that takes one paints an item the same way every time.
   */
  private async paint(
    id: string,
    prompt: string,
    clientId: string,
    signal?: AbortSignal,
    priority?: Priority,
  ) {
    await this.coordination.singleFlight(
      `icon:${id}`,
      async (shared) => {
        if (await this.store.icon(id)) {
          this.metrics?.cacheHits.inc({ cache: 'icon' });
          return true;
        }
        const seed = createHash('sha256').update(prompt).digest().readUInt32BE(0);
        let cost: number | 'unpriced' = 0;
        const png = await this.upstream.icon(
          {
            client_id: clientId,
            prompt,
            size: this.game.icon_size,
            seed,
            art: this.game.art,
            references: this.references,
          },
          shared,
          {
            priority,
            meter: (price) => {
              cost = price ?? 'unpriced';
            },
          },
        );
        await this.store.putIcon(id, prompt, png, cost);
        return true;
      },
      { signal },
    );
  }
}
