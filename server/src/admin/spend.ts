import type { ItemCost, Spend, SpendFigures } from '@lootsmith/protocol';
import { fromNanos } from '../money/pricing.ts';
import type { RecordedCost, SpendDay } from './store.ts';

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The UTC days the console's spend covers at `now`: today, the first of the last 7, and of this month. */
export function spendDays(now: number) {
  const today = dayOf(now);
  const week = dayOf(now - 6 * DAY_MS);
  const month = `${today.slice(0, 8)}01`;
  return { today, week, month, since: week < month ? week : month };
}

/** Calls and their cost, added up in whole billionths. */
class SpendSum {
  nanos = 0;
  calls = 0;
  unpriced = 0;

  add(r: Pick<SpendDay, 'nanos' | 'calls' | 'unpriced'>) {
    this.nanos += r.nanos;
    this.calls += r.calls;
    this.unpriced += r.unpriced;
  }

  get spend(): Spend {
    return { amount: fromNanos(this.nanos), calls: this.calls, unpriced: this.unpriced };
  }
}

/** Today's and the week's sums of days' rows (rows before the week are left out). */
function recent(rows: Array<Pick<SpendDay, 'day' | 'nanos' | 'calls' | 'unpriced'>>, now: number) {
  const { today, week } = spendDays(now);
  const sums = { today: new SpendSum(), week: new SpendSum() };
  for (const r of rows) {
    if (r.day >= week) sums.week.add(r);
    if (r.day === today) sums.today.add(r);
  }
  return sums;
}

/** Today's and the week's spend of a player's days. */
export function recentSpend(
  rows: Array<Pick<SpendDay, 'day' | 'nanos' | 'calls' | 'unpriced'>>,
  now: number,
) {
  const sums = recent(rows, now);
  return { today: sums.today.spend, week: sums.week.spend };
}

/** `rows` grouped by their route or backend, with today's and the week's spend, dearest this week first. */
function byKey(rows: SpendDay[], key: 'route' | 'backend', now: number) {
  const groups = new Map<string, SpendDay[]>();
  for (const r of rows) groups.set(r[key], [...(groups.get(r[key]) ?? []), r]);
  return [...groups]
    .map(([name, list]) => ({ name, ...recent(list, now) }))
    .sort(
      (a, b) => b.week.nanos - a.week.nanos || b.week.calls - a.week.calls || a.name.localeCompare(b.name),
    )
    .map(({ name, today, week }) => ({ name, today: today.spend, week: week.spend }));
}

/** The overview's money: today, the week, the month, each day of the week, by route and by backend; the caps as read. */
export function spendFigures(
  rows: SpendDay[],
  now: number,
  currency: string,
  caps: SpendFigures['caps'],
): SpendFigures {
  const { month, week } = spendDays(now);
  const inWeek = rows.filter((r) => r.day >= week);
  const sums = recent(inWeek, now);
  const thisMonth = new SpendSum();
  for (const r of rows) if (r.day >= month) thisMonth.add(r);
  const days = Array.from({ length: 7 }, (_, i) => {
    const day = dayOf(now - (6 - i) * DAY_MS);
    const sum = new SpendSum();
    for (const r of inWeek) if (r.day === day) sum.add(r);
    return { day, ...sum.spend };
  });
  return {
    currency,
    today: sums.today.spend,
    week: sums.week.spend,
    month: thisMonth.spend,
    days,
    routes: byKey(inWeek, 'route', now).map(({ name, ...spend }) => ({ route: name, ...spend })),
    backends: byKey(inWeek, 'backend', now).map(({ name, ...spend }) => ({ backend: name, ...spend })),
    caps,
  };
}

const costPart = (cost: RecordedCost): ItemCost['text'] =>
  cost === null ? 'not_recorded' : cost === 'unpriced' ? cost : fromNanos(cost);

/** An item's cost: its share of the calls that wrote it, and its icon's painting. */
export function itemCost(text: RecordedCost, icon: RecordedCost | 'not_painted', currency: string): ItemCost {
  return { currency, text: costPart(text), icon: icon === 'not_painted' ? icon : costPart(icon) };
}
