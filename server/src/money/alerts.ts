import { createHmac } from 'node:crypto';
import { BoundedMap } from '@lootsmith/protocol';
import type { Store } from '../store/store.ts';
import type { WarnLog } from '../upstream/client.ts';
import type { CapSpend } from './caps.ts';
import { fromNanos } from './pricing.ts';

/** The shares of a cap an alert is sent at, in percent. */
export const THRESHOLDS = [80, 100] as const;
/** Longest an alert's webhook may take; it never holds up a request either way. */
export const ALERT_TIMEOUT_MS = 5_000;
/** Alerts this instance knows were claimed (by it or another): it asks the store again for no other. */
const KNOWN = 10_000;

/** What the webhook is sent: one cap passing one threshold in one period. */
export interface SpendAlert {
  type: 'spend_cap';
  /** Percent of the cap: 80, or 100 (reached: its spend is at the cap, or it refused a call). */
  threshold: number;
  cap: CapSpend['cap'];
  /** The player of a player's cap. */
  player_id?: string;
  /** `2025-06-01`, or `2025-06` for the monthly cap (UTC). */
  period: string;
  spent: number;
  limit: number;
  currency: string;
  at: string;
}

export interface AlertOptions {
  /** Where alerts are POSTed as JSON; none: the log line alone. Never logged (a webhook URL may hold a token). */
  url?: string;
  /** Signs each body: `x-lootsmith-signature: sha256=<HMAC-SHA256 of the body, hex>`. */
  secret?: string;
  currency: string;
  log: WarnLog;
  timeoutMs?: number;
}

/**
 * Alerts when a spend cap passes 80% and 100% in its period: a line in the log and, when configured,
 * a webhook. Each is sent once per cap, threshold and period across every instance: the instance
 * whose claim the store takes first sends it. Nothing here is awaited by a request, and a webhook
 * that fails, hangs or is down is logged and forgotten.
 */
export class SpendAlerts {
  private readonly known = new BoundedMap<string, true>(KNOWN);
  private readonly sending = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: Pick<Store, 'claimAlert'>,
    private readonly options: AlertOptions,
  ) {}

  /** Told each cap's spend after a call, or a cap that refused one (`SpendGate`): returns at once. */
  spent(spends: CapSpend[]) {
    for (const s of spends)
      for (const threshold of THRESHOLDS) {
        const passed = s.spent * 100 >= s.limit * threshold || (threshold === 100 && s.refused);
        const scope = s.player === undefined ? 'game' : `player:${s.player}`;
        const key = `${scope}\u0000${s.period}\u0000${threshold}`;
        if (!passed || this.known.has(key)) continue;
        this.known.set(key, true);
        const work = this.alert(scope, s, threshold).catch((err) =>
          this.options.log.warn({ err: (err as Error).message }, 'could not record a spend alert'),
        );
        this.sending.add(work);
        void work.finally(() => this.sending.delete(work));
      }
  }

  private async alert(scope: string, s: CapSpend, threshold: number) {
    if (!(await this.store.claimAlert(scope, s.period, threshold, Date.now()))) return;
    const alert: SpendAlert = {
      type: 'spend_cap',
      threshold,
      cap: s.cap,
      ...(s.player === undefined ? {} : { player_id: s.player }),
      period: s.period,
      spent: fromNanos(s.spent),
      limit: fromNanos(s.limit),
      currency: this.options.currency,
      at: new Date().toISOString(),
    };
    const { player_id, spent, limit, currency } = alert;
    this.options.log.warn(
      { alert: alert.type, cap: alert.cap, threshold, period: s.period, spent, limit, currency, player_id },
      `spend cap ${s.cap}${player_id ? ` of ${player_id}` : ''} at ${threshold}%: ${spent} of ${limit} ${currency} spent (${s.period})`,
    );
    if (this.options.url) await this.post(alert);
  }

  private async post(alert: SpendAlert) {
    const body = JSON.stringify(alert);
    const { secret, timeoutMs = ALERT_TIMEOUT_MS } = this.options;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'lootsmith' };
    if (secret)
      headers['x-lootsmith-signature'] = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const failed = (why: string) =>
      this.options.log.warn(
        { alert: alert.type, cap: alert.cap, threshold: alert.threshold, why },
        'the spend alert webhook was not delivered',
      );
    try {
      const res = await fetch(this.options.url as string, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.stopping.signal]),
      });
      await res.body?.cancel();
      if (!res.ok) failed(`status ${res.status}`);
    } catch (err) {
      // The reason only (a timeout, a refused connection): the URL is never logged.
      const e = err as Error & { cause?: { code?: string } };
      failed(e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.name));
    }
  }

  /** Calls off the alerts still being sent (shutdown never waits on a webhook). */
  async close() {
    this.stopping.abort();
    await Promise.all(this.sending);
  }
}
