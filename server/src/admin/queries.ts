import { all, explain, get, type Params, type Rule, type RuleRunner, run } from '../store/rules.ts';
import type { StatementName } from '../store/sql.ts';
import { prefixParams } from '../store/statement.ts';
import { H } from './statements/activity.ts';
import type { TimedSqlRow } from './statements/figures.ts';
import type { ItemSqlRow } from './statements/items.ts';
import type { PlayerSqlRow } from './statements/players.ts';
import type {
  ActivityBatch,
  AdminStore,
  BackendMinute,
  ConsoleSessionRow,
  Holding,
  ItemListQuery,
  ModerationRecord,
  ModerationRow,
  PlayerListQuery,
  PlayerRequestRow,
  PlayerRow,
  ProvenanceRow,
  RecordedCost,
  RemovalRow,
  Retention,
  RouteMinute,
} from './store.ts';

// The developer console's queries: rules over the statements of `statements/`, run by the store core.

/** Refusals of one player, kind, reason and action within this long of the row's first count on it. */
const REPEAT_WINDOW_MS = 60_000;

const num = (v: unknown) => Number(v ?? 0);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
/** A stored cost: its `unpriced` column is null for what was made before prices were kept. */
const recordedCost = (cost: unknown, unpriced: unknown): RecordedCost =>
  unpriced === null || unpriced === undefined ? null : Number(unpriced) ? 'unpriced' : num(cost);
const spendDay = (r: { day: string; calls: unknown; nanos: unknown; unpriced: unknown }) => ({
  day: r.day,
  calls: num(r.calls),
  nanos: num(r.nanos),
  unpriced: num(r.unpriced),
});
/** Column names by field name, worked out once: the fields are the recorder's own, a few dozen. */
const COLUMNS = new Map<string, string>();
const columnOf = (field: string) => {
  let column = COLUMNS.get(field);
  if (column === undefined) {
    column = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    COLUMNS.set(field, column);
  }
  return column;
};
/** A recorded row keyed by its columns (`playerId` → `player_id`), for an insert of many (`$rows`). */
const columns = (row: object) => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[columnOf(k)] = v;
  return out;
};

const toPlayerRow = (r: PlayerSqlRow): PlayerRow => ({
  id: r.id,
  level: r.level,
  claimedLevel: r.claimed_level,
  reportedLevel: numOrNull(r.reported_level),
  reportedAt: numOrNull(r.reported_at),
  blocked: Number(r.blocked) === 1,
  craftingXp: num(r.crafting_xp),
  dailyItems: r.daily_items,
  dailyImages: r.daily_images,
  createdAt: r.created_at,
  stacks: num(r.stacks),
  requests: num(r.requests),
  drops: num(r.drops),
  crafts: num(r.crafts),
  refusals: num(r.refusals),
  tokens: num(r.tokens),
  images: num(r.images),
  spend: num(r.spend),
  lastAt: numOrNull(r.last_at),
});

const timed = (r: TimedSqlRow) => ({
  count: num(r.count),
  totalMs: num(r.total_ms),
  buckets: H.map((h) => num(r[h])),
});

const toItemRow = (r: ItemSqlRow) => ({
  id: r.id,
  owner: r.owner,
  data: r.data,
  source: r.source ?? 'earlier',
  enemy: r.enemy,
  createdAt: r.created_at,
  removed: Number(r.removed) === 1,
  consumed: r.consumed,
});

type ModerationQuery = Parameters<AdminStore['moderation']>[0];

// The parameters of each list query (their filters are those given).

const moderationParams = (q: ModerationQuery): Params => ({
  kind: q.kind || null,
  player: q.playerId || null,
  before: q.beforeId ?? null,
  limit: q.limit,
});

const playersParams = (q: PlayerListQuery): Params => ({
  ...(q.prefix ? prefixParams(q.prefix) : {}),
  after_id: q.after?.id ?? null,
  after_at: q.after?.lastAt ?? 0,
  limit: q.limit,
});

const itemsParams = (q: ItemListQuery): Params => ({
  rarity: q.rarity ?? null,
  type: q.type ?? null,
  enemy: q.enemy ?? null,
  source: q.source ?? null,
  from: q.from || null,
  to: q.to || null,
  after_id: q.after?.id ?? null,
  after_at: q.after?.createdAt ?? null,
  limit: q.limit,
});

function* holders(id: string): Rule<Holding[]> {
  return (yield* all('itemHolders', { id })).map((r) => ({
    player_id: r.player_id,
    quantity: Number(r.quantity),
  }));
}

function* removal(id: string): Rule<RemovalRow | null> {
  const row = yield* get('itemRemoval', { id });
  return row
    ? {
        reason: row.reason,
        removedBy: row.removed_by,
        removedAt: row.removed_at,
        holders: JSON.parse(row.holders) as Holding[],
      }
    : null;
}

/** The developer console's queries over the store's database (`Store.admin`). */
export class AdminQueries implements AdminStore {
  constructor(private readonly db: RuleRunner) {}

  async recordActivity(b: ActivityBatch) {
    const withBuckets = (r: RouteMinute | BackendMinute) => ({
      ...r,
      totalMs: Math.round(r.totalMs),
      ...Object.fromEntries(H.map((h, i) => [h, r.buckets[i]])),
    });
    const inserts: Array<[StatementName, object[]]> = [
      ['recordRoutes', b.routes.map(withBuckets)],
      ['recordBackends', b.backends.map(withBuckets)],
      ['recordCounters', b.counters],
      ['recordPlayers', b.players],
      ['recordSpend', b.spend],
      ['recordPlayerSpend', b.playerSpend],
      ['recordRequests', b.requests.map((r) => ({ ...r, ms: Math.round(r.ms) }))],
      [
        'recordProvenance',
        b.provenance.map((p) => ({
          ...p,
          rules: p.rules && JSON.stringify(p.rules),
          cost: typeof p.cost === 'number' ? p.cost : null,
          unpriced: p.cost === null ? null : Number(p.cost === 'unpriced'),
        })),
      ],
    ];
    const given = inserts.filter(([, list]) => list.length);
    if (!given.length) return;
    await this.db.transaction(
      (function* () {
        for (const [statement, list] of given)
          yield* run(statement, { rows: JSON.stringify(list.map(columns)) });
        if (b.requests.length) yield* run('keepRequests', { keep: b.keepRequests });
      })(),
    );
  }

  async sweep(retention: Retention, now: number) {
    const minute = Math.floor(retention.statsBefore / 60_000);
    const day = retention.spendBefore;
    await this.db.transaction(
      (function* () {
        yield* run('sweepRoutes', { minute });
        yield* run('sweepBackends', { minute });
        yield* run('sweepCounters', { minute });
        yield* run('sweepSpend', { day });
        yield* run('sweepPlayerSpend', { day });
        yield* run('keepModeration', { keep: retention.maxModeration });
        yield* run('sweepSessions', { now });
      })(),
    );
  }

  async recordModeration(e: ModerationRecord) {
    const at = e.at ?? Date.now();
    const event = {
      player: e.playerId,
      kind: e.kind,
      reason: e.reason.slice(0, 200),
      action: e.action.slice(0, 64),
    };
    await this.db.transaction(
      (function* () {
        // Marked with the record: a player never marked is never read for a restriction.
        if (e.kind === 'player_text' && e.playerId) yield* run('markTextRefused', { player: e.playerId, at });
        // A flood of one token's refusals fills one row a minute, not the whole record.
        if (yield* get('repeatModeration', { ...event, since: at - REPEAT_WINDOW_MS })) return;
        yield* run('insertModeration', {
          ...event,
          at,
          field: e.field.slice(0, 200),
          excerpt: e.excerpt.slice(0, 200),
        });
      })(),
    );
  }

  async moderation(q: ModerationQuery) {
    const found = await this.db.autocommit(all('moderationList', moderationParams(q)));
    return found.map(
      (r): ModerationRow => ({
        id: num(r.id),
        playerId: r.player_id,
        at: num(r.at),
        kind: r.kind,
        field: r.field,
        excerpt: r.excerpt,
        reason: r.reason,
        action: r.action,
        count: num(r.count),
      }),
    );
  }

  async moderationSince(at: number) {
    return num((await this.db.autocommit(get('moderationSince', { since: at })))?.n);
  }

  async routeStats(since: number): Promise<RouteMinute[]> {
    return (await this.db.autocommit(all('routeStats', { since }))).map((r) => ({
      minute: since,
      route: r.route,
      status: Number(r.status),
      code: r.code,
      ...timed(r),
    }));
  }

  async backendStats(since: number): Promise<BackendMinute[]> {
    return (await this.db.autocommit(all('backendStats', { since }))).map((r) => ({
      minute: since,
      backend: r.backend,
      kind: r.kind,
      outcome: r.outcome,
      ...timed(r),
      promptTokens: num(r.prompt_tokens),
      completionTokens: num(r.completion_tokens),
      images: num(r.images),
    }));
  }

  async counters(since: number) {
    return (await this.db.autocommit(all('counters', { since }))).map((r) => ({
      name: r.name,
      label: r.label,
      value: num(r.value),
    }));
  }

  async series(since: number, step: number) {
    return (await this.db.autocommit(all('series', { since, step }))).map((r) => ({
      slot: num(r.slot),
      status: Number(r.status),
      code: r.code,
      count: num(r.count),
    }));
  }

  async generations(since: string) {
    return (await this.db.autocommit(all('generations', { since }))).map((r) => ({
      source: r.source,
      backend: r.backend,
      items: num(r.items),
    }));
  }

  async spend(sinceDay: string) {
    return (await this.db.autocommit(all('spend', { since: sinceDay }))).map((r) => ({
      ...spendDay(r),
      route: r.route,
      backend: r.backend,
    }));
  }

  async playerSpend(id: string, sinceDay: string) {
    return (await this.db.autocommit(all('playerSpend', { id, since: sinceDay }))).map((r) => ({
      ...spendDay(r),
      playerId: r.player_id,
    }));
  }

  async capSpend(scope: string, period: string) {
    return num((await this.db.autocommit(get('capSpend', { scope, period })))?.nanos);
  }

  async playerCounts(activeSince: number) {
    const row = await this.db.autocommit(get('playerCounts', { since: activeSince }));
    return { players: num(row?.players), active: num(row?.active) };
  }

  async players(q: PlayerListQuery) {
    const statement = q.sort === 'recent' ? 'playersRecent' : 'playersById';
    return (await this.db.autocommit(all(statement, playersParams(q)))).map(toPlayerRow);
  }

  async countPlayers(prefix?: string) {
    const row = await this.db.autocommit(get('countPlayers', prefix ? prefixParams(prefix) : {}));
    return num(row?.n);
  }

  async player(id: string) {
    const row = await this.db.autocommit(get('playerDetail', { id }));
    return row ? toPlayerRow(row) : null;
  }

  async playerRequests(id: string, limit: number): Promise<PlayerRequestRow[]> {
    return (await this.db.autocommit(all('playerRequests', { id, limit }))).map((r) => ({
      playerId: r.player_id,
      at: num(r.at),
      route: r.route,
      status: Number(r.status),
      code: r.code,
      ms: Number(r.ms),
      requestId: r.request_id,
    }));
  }

  async items(q: ItemListQuery) {
    return (await this.db.autocommit(all('itemList', itemsParams(q)))).map(toItemRow);
  }

  item(id: string) {
    return this.db.autocommit(
      (function* () {
        const row = yield* get('itemDetail', { id });
        if (!row) return null;
        const provenance: ProvenanceRow | null =
          row.item_id && row.source !== 'earlier'
            ? {
                itemId: row.id,
                source: row.source as ProvenanceRow['source'],
                playerId: row.player_id,
                rarity: row.rarity,
                type: row.type,
                level: Number(row.level),
                enemy: row.enemy,
                backend: row.backend,
                model: row.model,
                seed: numOrNull(row.seed),
                prompt: row.prompt,
                rules: row.rules ? JSON.parse(row.rules) : null,
                cost: recordedCost(row.cost, row.unpriced),
                createdAt: row.made_at ?? row.created_at,
                requestId: row.request_id,
              }
            : null;
        const spent = row.consumed ? yield* get('itemSpent', { id }) : undefined;
        const iconId = (JSON.parse(row.data) as { icon?: { id?: string } | null }).icon?.id;
        const icon = iconId ? yield* get('iconCost', { id: iconId }) : undefined;
        return {
          row: toItemRow(row),
          provenance,
          removal: yield* removal(id),
          holders: yield* holders(id),
          consumed: spent ? { how: spent.reason, playerId: spent.player_id, at: spent.created_at } : null,
          iconCost: icon ? recordedCost(icon.cost, icon.unpriced) : ('not_painted' as const),
        };
      })(),
    );
  }

  removeItem(id: string, reason: string, by: string, at: string) {
    return this.db.transaction(
      (function* () {
        if (!(yield* get('itemExists', { id }))) return null;
        const held = yield* holders(id);
        yield* run('ledgerRemoved', { id, at });
        yield* run('bumpHolders', { id });
        yield* run('unwearItem', { id });
        yield* run('dropItemStacks', { id });
        yield* run('forgetRecipes', { needle: `"id":${JSON.stringify(id)}` });
        yield* run('recordRemoval', { id, reason, by, holders: JSON.stringify(held), at });
        return yield* removal(id);
      })(),
    );
  }

  async createSession(s: ConsoleSessionRow) {
    await this.db.autocommit(
      run('insertSession', {
        id: s.id,
        csrf: s.csrf,
        credential: s.credential,
        created_at: s.createdAt,
        seen_at: s.seenAt,
        expires_at: s.expiresAt,
      }),
    );
  }

  async session(id: string): Promise<ConsoleSessionRow | null> {
    const r = await this.db.autocommit(get('session', { id }));
    return r
      ? {
          id: r.id,
          csrf: r.csrf,
          credential: r.credential,
          createdAt: num(r.created_at),
          seenAt: num(r.seen_at),
          expiresAt: num(r.expires_at),
        }
      : null;
  }

  async touchSession(id: string, seenAt: number) {
    await this.db.autocommit(run('touchSession', { id, seen_at: seenAt }));
  }

  async deleteSession(id: string) {
    await this.db.autocommit(run('deleteSession', { id }));
  }

  /** The plan of each list and overview query (docs/CONSOLE.md), with parameters that page and filter. */
  plans() {
    const minute = Math.floor(Date.now() / 60_000) - 60;
    return this.db.autocommit(
      (function* () {
        const queries = {
          players_by_id: ['playersById', playersParams({ sort: 'id', after: { id: 'm' }, limit: 50 })],
          players_by_id_prefix: ['playersById', playersParams({ sort: 'id', prefix: 'player-1', limit: 50 })],
          players_recent: [
            'playersRecent',
            playersParams({ sort: 'recent', after: { id: 'm', lastAt: Date.now() }, limit: 50 }),
          ],
          player_requests: ['playerRequests', { id: 'player-1', limit: 50 }],
          items_recent: ['itemList', itemsParams({ after: { createdAt: '2100-01-01', id: 'z' }, limit: 60 })],
          items_by_rarity: ['itemList', itemsParams({ rarity: 'EPIC', limit: 60 })],
          items_by_type: ['itemList', itemsParams({ type: 'WEAPON', from: '2000-01-01', limit: 60 })],
          items_by_enemy: ['itemList', itemsParams({ enemy: 'slime', limit: 60 })],
          moderation: ['moderationList', moderationParams({ limit: 50 })],
          moderation_by_player: ['moderationList', moderationParams({ playerId: 'player-1', limit: 50 })],
          route_stats: ['routeStats', { since: minute }],
          backend_stats: ['backendStats', { since: minute }],
          series: ['series', { since: minute, step: 1 }],
          generations: ['generations', { since: new Date(Date.now() - 3_600_000).toISOString() }],
          spend: ['spend', { since: new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10) }],
          player_spend: ['playerSpend', { id: 'player-1', since: '2000-01-01' }],
        } as const;
        const plans: Record<string, string> = {};
        for (const [name, [statement, params]] of Object.entries(queries))
          plans[name] = yield* explain(statement, params);
        return plans;
      })(),
    );
  }
}
