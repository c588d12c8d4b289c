import { createHash } from 'node:crypto';
import type { GameDefinition, GeneratedItem, ItemIcon } from '@lootsmith/protocol';
import type { Coordination } from './coordination/coordination.ts';
import type { Metrics } from './metrics.ts';
import type { Store } from './store/store.ts';
import type { UpstreamClient } from './upstream/client.ts';

const ICON_SIZE = 128;

/** Icons are content-addressed by prompt: the same prompt is painted once and served forever. */
export class IconService {
  constructor(
    private readonly store: Store,
    private readonly coordination: Coordination,
    private readonly upstream: UpstreamClient,
    private readonly game: GameDefinition,
    private readonly metrics?: Metrics,
  ) {}

  /** SPEC 2.3: the subject first, then comma-separated style tags. */
  promptFor(item: Pick<GeneratedItem, 'name' | 'subtype' | 'material' | 'element' | 'rarity'>): string {
    const element = item.element === 'none' ? '' : `${item.element} `;
    return `${item.name}, ${element}${item.material} ${item.subtype}, ${item.rarity.toLowerCase()}, ${this.game.icon_style}`;
  }

  /** The icon reference of a prompt, painted lazily when first fetched. */
  describe(prompt: string): ItemIcon {
    const id = createHash('sha256').update(`${ICON_SIZE}:${prompt}`).digest('hex').slice(0, 32);
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

  /** Concurrent requests for one icon paint it once; the others find it in the store. */
  private async paint(id: string, prompt: string, clientId: string, signal?: AbortSignal) {
    await this.coordination.singleFlight(
      `icon:${id}`,
      async (shared) => {
        if (await this.store.icon(id)) {
          this.metrics?.cacheHits.inc({ cache: 'icon' });
          return true;
        }
        const { image } = await this.upstream.image(
          { client_id: clientId, prompt, width: ICON_SIZE, height: ICON_SIZE, steps: 12 },
          shared,
        );
        await this.store.putIcon(id, prompt, Buffer.from(image, 'base64'));
        return true;
      },
      { signal },
    );
  }
}
