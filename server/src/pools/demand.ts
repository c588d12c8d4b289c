/** How long draws count towards a bucket's rate, and the shortest span a rate is taken over. */
const WINDOW_MS = 60_000;
const MIN_SPAN_MS = 10_000;
const MAX_KEPT = 2_000;

/**
 * Each bucket's draws over the last minute: their rate, and the most one drop took at once. What a
 * refill aims the bucket's stock at.
 */
export class DemandRates {
  private readonly draws = new Map<string, number[]>();
  private readonly largest = new Map<string, { n: number; at: number }>();

  /** One drop drew `n` items from the bucket. */
  note(key: string, now: number, n = 1) {
    const times = this.draws.get(key) ?? [];
    for (let i = 0; i < n; i++) times.push(now);
    this.prune(times, now);
    this.draws.set(key, times);
    const top = this.largest.get(key);
    if (!top || top.n <= n || now - top.at > WINDOW_MS) this.largest.set(key, { n, at: now });
  }

  /** The most items one drop drew from the bucket lately. */
  perDrop(key: string, now: number): number {
    const top = this.largest.get(key);
    return top && now - top.at <= WINDOW_MS ? top.n : 1;
  }

  rate(key: string, now: number): number {
    const times = this.draws.get(key);
    if (!times) return 0;
    this.prune(times, now);
    if (!times.length) {
      this.draws.delete(key);
      this.largest.delete(key);
      return 0;
    }
    const span = Math.min(WINDOW_MS, Math.max(MIN_SPAN_MS, now - (times[0] as number)));
    return times.length / (span / 1000);
  }

  private prune(times: number[], now: number) {
    let drop = 0;
    while (
      drop < times.length &&
      (now - (times[drop] as number) > WINDOW_MS || times.length - drop > MAX_KEPT)
    )
      drop++;
    if (drop) times.splice(0, drop);
  }
}
