import type { ItemIcon } from '@lootsmith/protocol';
import type { IconService } from '../icons.ts';

/**
 * Icons of pooled items, painted after the items are stocked, a few at a time: at most `limit` paints
 * wait in the image backend's queue (at refill priority, behind players and icons painted after
 * their item), so a one-at-a-time GPU is never handed a long line of them. A drop that takes an item
 * whose icon is still here paints it at once at its own priority; the backlog then finds it painted.
 */
export class IconBacklog {
  /** Icon id → prompt, oldest first. */
  private readonly waiting = new Map<string, string>();
  private running = 0;
  private readonly runs = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    /** Icons asked of the backends at refill priority. */
    private readonly icons: IconService,
    private readonly clientId: string,
    private readonly limit: number,
    private readonly log?: (message: string, err?: unknown) => void,
  ) {}

  /** Icons waiting to be painted (not yet in the backend's queue). */
  get size() {
    return this.waiting.size;
  }

  add(icons: ItemIcon[]) {
    if (this.stopping.signal.aborted) return;
    for (const icon of icons) this.waiting.set(icon.id, icon.prompt);
    this.pump();
  }

  /** Resolves once no icon is waiting or being painted (tests). */
  async settled() {
    while (this.runs.size) await Promise.allSettled([...this.runs]);
  }

  /** Stops painting; icons not painted yet are painted when first asked for. */
  async close() {
    this.stopping.abort();
    this.waiting.clear();
    await Promise.allSettled([...this.runs]);
  }

  private pump() {
    while (this.running < this.limit && this.waiting.size) {
      const [id, prompt] = this.waiting.entries().next().value as [string, string];
      this.waiting.delete(id);
      this.running++;
      const run = this.icons
        .ensure(prompt, this.clientId, this.stopping.signal)
        .then(
          () => {},
          (err) => {
            if (!this.stopping.signal.aborted)
              this.log?.('pooled item icon failed; painted when asked for', err);
          },
        )
        .finally(() => {
          this.running--;
          this.runs.delete(run);
          this.pump();
        });
      this.runs.add(run);
    }
  }
}
