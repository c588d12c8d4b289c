import type { UsageCounters } from '@lootsmith/protocol';

export interface UsageDelta {
  images?: number;
  chat_completions?: number;
  tokens?: number;
  credits_spent?: number;
}

function emptyCounters(): UsageCounters {
  return { requests: 0, images: 0, chat_completions: 0, tokens: 0, credits_spent: 0 };
}

function add(counters: UsageCounters, delta: UsageDelta): void {
  counters.requests += 1;
  counters.images += delta.images ?? 0;
  counters.chat_completions += delta.chat_completions ?? 0;
  counters.tokens += delta.tokens ?? 0;
  counters.credits_spent += delta.credits_spent ?? 0;
}

/** Usage of one key: totals for billing and one row per client_id for analytics. */
export class UsageLedger {
  readonly totals = emptyCounters();
  private readonly clients = new Map<string, UsageCounters>();

  record(clientId: string, delta: UsageDelta): void {
    add(this.totals, delta);
    let row = this.clients.get(clientId);
    if (!row) {
      row = emptyCounters();
      this.clients.set(clientId, row);
    }
    add(row, delta);
  }

  clientRows(): Array<UsageCounters & { client_id: string }> {
    return [...this.clients]
      .map(([client_id, counters]) => ({ client_id, ...counters }))
      .sort((a, b) => b.requests - a.requests || a.client_id.localeCompare(b.client_id));
  }
}
