import { z } from 'zod';
import { ItemId } from './api.ts';
import { AnswerKind } from './errors.ts';
import { PlayerId } from './generation.ts';
import { Item, ItemIcon, ItemType, Rarity } from './items.ts';

// The developer console's admin API (`/api/v1/admin/…`): a console session or the server credential.

const Limit = z.coerce.number().int().min(1).max(100).default(50);
/** An opaque position in a paged list: the `next` of the page before. */
const Cursor = z.string().max(200).optional();
const Day = z.iso.date();

export const ConsoleSignIn = z.strictObject({
  /** The server credential (`LOOTSMITH_SERVER_KEY`) or the console password (`LOOTSMITH_CONSOLE_PASSWORD`). */
  credential: z.string().max(1024),
});
export type ConsoleSignIn = z.infer<typeof ConsoleSignIn>;

export const ConsoleSession = z.object({
  /**
   * `credential`: sign in with a configured credential; `open`: a development server without one,
   * signed in from loopback with an empty credential; `disabled`: production without a credential.
   */
  mode: z.enum(['credential', 'open', 'disabled']),
  signed_in: z.boolean(),
  /** Sent back as `x-csrf-token` on every request that changes something. */
  csrf_token: z.string().optional(),
  expires_at: z.string().optional(),
});
export type ConsoleSession = z.infer<typeof ConsoleSession>;

export const OverviewQuery = z.strictObject({ window: z.enum(['hour', 'day']).default('hour') });
export type OverviewQuery = z.infer<typeof OverviewQuery>;

export const Latency = z.object({
  p50_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
  p99_ms: z.number().nullable(),
});
export type Latency = z.infer<typeof Latency>;

/**
 * Answers that were not plain successes, by kind (`answerKind`) and code, most first: the game's
 * refusals by reason (`skill_too_low`, `rate_limit_exceeded`, `not_sensible` for a combine the judge
 * refused), the content checks' (`content_refused`), the caller's mistakes (`invalid_request`), and
 * errors of the server or a backend (`upstream_unavailable`, `internal`).
 */
export const Answers = z.array(
  z.object({ kind: AnswerKind.exclude(['ok']), code: z.string(), count: z.int() }),
);
export type Answers = z.infer<typeof Answers>;

/** Answers of each kind but success; `errors` (the server's or a backend's, every 5xx) is what an error rate counts. */
const AnswerCounts = {
  game_refusals: z.int(),
  content_refusals: z.int(),
  client_errors: z.int(),
  errors: z.int(),
};

export const RouteFigures = z.object({
  route: z.string(),
  requests: z.int(),
  ...AnswerCounts,
  answers: Answers,
  latency: Latency,
});
export type RouteFigures = z.infer<typeof RouteFigures>;

export const BackendFigures = z.object({
  /** The backend as `kind:api` (`chat:openai`, `image:sdapi`, `chat:embedded`…), or `fallback`. */
  backend: z.string(),
  /** What was asked of it: `chat` or `image`. */
  kind: z.string(),
  calls: z.int(),
  failures: z.int(),
  failures_by_code: z.record(z.string(), z.int()),
  latency: Latency,
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  images: z.int(),
});
export type BackendFigures = z.infer<typeof BackendFigures>;

/**
 * Money in the price list's currency (`currency` beside it): added up from whole billionths, so a
 * sum is exactly the sum of its calls' prices.
 */
const Money = z.number();

/** What successful backend calls cost by the price list. */
export const Spend = z.object({
  amount: Money,
  calls: z.int(),
  /** Calls without a price (a model the price list does not know): what they cost is not in `amount`. */
  unpriced: z.int(),
});
export type Spend = z.infer<typeof Spend>;

/** A spend cap (`LOOTSMITH_SPEND_*_CAP`) and what it holds in its period now. */
const CapUse = z.object({ limit: Money, spent: Money, period: z.string() });

/** Spend today and over the last 7 UTC days (today included). */
const Recent = { today: Spend, week: Spend };

export const SpendFigures = z.object({
  /** The price list's currency (`LOOTSMITH_PRICES_FILE`; USD by default). */
  currency: z.string(),
  ...Recent,
  /** This UTC month. */
  month: Spend,
  /** Each of the last 7 UTC days, oldest first. */
  days: z.array(Spend.extend({ day: z.string() })),
  /** By the request's route (`background`: the server's own work, such as pool refills), dearest this week first. */
  routes: z.array(z.object({ route: z.string(), ...Recent })),
  /** By backend (`chat:openai`, `image:openai`, `chat:embedded`, `fallback`…), dearest this week first. */
  backends: z.array(z.object({ backend: z.string(), ...Recent })),
  /** The game's spend caps that are set, with what they hold now (calls in flight count at their most). */
  caps: z.array(CapUse.extend({ cap: z.enum(['game_daily', 'game_monthly']) })),
});
export type SpendFigures = z.infer<typeof SpendFigures>;

export const Overview = z.object({
  window: z.enum(['hour', 'day']),
  since: z.string(),
  totals: z.object({
    requests: z.int(),
    ...AnswerCounts,
    generated_items: z.int(),
    tokens: z.int(),
    images: z.int(),
    players: z.int(),
    active_players: z.int(),
    moderation_events: z.int(),
  }),
  /** Spend in money, whatever the window: today, the last 7 days, this month, by route and by backend. */
  spend: SpendFigures,
  /** Items generated in the window, by how (`loot`, `pool`, `combine`, `create_item`, `recipe`) and backend. */
  generations: z.array(z.object({ source: z.string(), backend: z.string().nullable(), items: z.int() })),
  /** Every route's answers but successes, added up by kind and code. */
  answers: Answers,
  routes: z.array(RouteFigures),
  backends: z.array(BackendFigures),
  /**
   * Requests, refusals (the game's and the content checks') and errors (the server's or a backend's)
   * per step (a minute over the hour, an hour over the day), oldest first.
   */
  series: z.array(z.object({ at: z.string(), requests: z.int(), refusals: z.int(), errors: z.int() })),
  pools: z.object({
    enabled: z.boolean(),
    hits: z.int(),
    misses: z.int(),
    hit_rate: z.number().nullable(),
    ready: z.int(),
    pending: z.int(),
    buckets: z.array(z.object({ bucket: z.string(), ready: z.int(), pending: z.int() })),
  }),
});
export type Overview = z.infer<typeof Overview>;

export const PlayersQuery = z.strictObject({
  /** Players whose id starts with this. */
  q: z.string().max(64).optional(),
  sort: z.enum(['id', 'recent']).default('recent'),
  after: Cursor,
  limit: Limit,
});
export type PlayersQuery = z.infer<typeof PlayersQuery>;

export const PlayerSummary = z.object({
  id: z.string(),
  /**
   * The player's level as the game last reported it: the level of a drop request (its grant's, or
   * the one it claimed) or the one the game server set, whichever came last. For a player with no
   * report recorded, the level the game server set, else the highest level served on its claims.
   */
  level: z.int().nullable(),
  /** When that report came; null when none was recorded. */
  level_at: z.string().nullable(),
  blocked: z.boolean(),
  crafting_level: z.int(),
  /** Stacks in the inventory. */
  items: z.int(),
  drops: z.int(),
  crafts: z.int(),
  refusals: z.int(),
  requests: z.int(),
  /** What the backends reported for this player's calls, ever: tokens, and images painted (item icons included). */
  tokens: z.int(),
  images: z.int(),
  /** What this player's calls cost, ever, in the price list's currency (unpriced calls add nothing). */
  spend: Money,
  last_seen: z.string().nullable(),
  created_at: z.string(),
});
export type PlayerSummary = z.infer<typeof PlayerSummary>;

export const PlayersPage = z.object({
  /** The currency of each player's `spend`. */
  currency: z.string(),
  players: z.array(PlayerSummary),
  total: z.int(),
  next: z.string().nullable(),
});
export type PlayersPage = z.infer<typeof PlayersPage>;

export const ModerationEvent = z.object({
  id: z.string(),
  player_id: z.string().nullable(),
  at: z.string(),
  kind: z.enum(['player_text', 'generated_text']),
  /** Where the text was: `description`, `visual_preferences.look`, `items.0.name`, … */
  field: z.string(),
  excerpt: z.string(),
  /** The rule or category that refused it. */
  reason: z.string(),
  /** What was done: `refused`, `regenerated`, `fallback`, `restricted`, … */
  action: z.string(),
  /** How many times, from `at` to a minute later (a player's repeats of one reason share a row). */
  count: z.int(),
});
export type ModerationEvent = z.infer<typeof ModerationEvent>;

export const PlayerRequest = z.object({
  at: z.string(),
  route: z.string(),
  status: z.int(),
  code: z.string().nullable(),
  ms: z.number(),
  /** The request in the request log, while it is kept there; null otherwise. */
  request_id: z.string().nullable(),
});
export type PlayerRequest = z.infer<typeof PlayerRequest>;

export const PlayerDetail = z.object({
  player: PlayerSummary.extend({
    daily_items: z.int().nullable(),
    daily_images: z.int().nullable(),
    crafting_xp: z.int(),
    recipes: z.int(),
  }),
  /**
   * Today's use of the daily budgets (UTC): items (a drop's items, a craft's result; their icons come
   * with them) and images (calls of `/v1/image/generations`).
   */
  usage_today: z.object({ items: z.int(), images: z.int() }),
  /** What the player's calls cost today and over the last 7 UTC days (the player's `spend` is ever). */
  spend: z.object({
    currency: z.string(),
    ...Recent,
    /** Each player's daily cap, when set, and what this player's holds today. */
    cap: CapUse.nullable(),
  }),
  inventory: z.array(z.object({ item: Item, quantity: z.int(), slot: z.string().nullable() })),
  requests: z.array(PlayerRequest),
  moderation: z.array(ModerationEvent),
});
export type PlayerDetail = z.infer<typeof PlayerDetail>;

export const PlayerParams = z.strictObject({ player_id: PlayerId });

/** Block or unblock, and the player's own daily budgets (null: the game's default, unlimited). */
export const PlayerPatch = z.strictObject({
  blocked: z.boolean().optional(),
  daily_items: z.int().min(0).max(100_000).nullable().optional(),
  daily_images: z.int().min(0).max(100_000).nullable().optional(),
});
export type PlayerPatch = z.infer<typeof PlayerPatch>;

export const ItemsQuery = z.strictObject({
  rarity: Rarity.optional(),
  type: ItemType.optional(),
  /** An enemy id of the game definition. */
  enemy: z.string().max(64).optional(),
  source: z.enum(['loot', 'pool', 'combine', 'create_item', 'recipe', 'earlier']).optional(),
  /** Made on or after this UTC day. */
  from: Day.optional(),
  /** Made on or before this UTC day. */
  to: Day.optional(),
  after: Cursor,
  limit: Limit,
});
export type ItemsQuery = z.infer<typeof ItemsQuery>;

export const ItemSummary = z.object({
  id: z.string(),
  name: z.string(),
  rarity: z.string(),
  type: z.string(),
  level: z.int(),
  enemy: z.string().nullable(),
  source: z.string(),
  owner: z.string().nullable(),
  created_at: z.string(),
  icon: ItemIcon.nullable(),
  removed: z.boolean(),
  /**
   * What used the item up, when no one holds it now: `combine` or `create_item` (eaten by a craft),
   * `use` (a consumable used), `server_remove` (the game server took it); null while someone holds it.
   */
  consumed: z.string().nullable(),
});
export type ItemSummary = z.infer<typeof ItemSummary>;

export const ItemsPage = z.object({ items: z.array(ItemSummary), next: z.string().nullable() });
export type ItemsPage = z.infer<typeof ItemsPage>;

export const Holder = z.object({ player_id: z.string(), quantity: z.int() });

/** A part of an item's cost: an amount, or why there is none. */
const CostPart = z.union([Money, z.enum(['unpriced', 'not_recorded', 'not_painted'])]);

export const ItemCost = z.object({
  currency: z.string(),
  /** Its share of the model calls that wrote it (a batch's calls split between its items, re-asks included). */
  text: CostPart,
  /** What painting its icon cost: once for every item with this icon (icons are shared by their prompt). */
  icon: CostPart,
});
export type ItemCost = z.infer<typeof ItemCost>;

export const Provenance = z.object({
  source: z.string(),
  player_id: z.string().nullable(),
  enemy: z.string().nullable(),
  /** Which backend answered the model call. */
  backend: z.string().nullable(),
  model: z.string().nullable(),
  /** The model call's seed. */
  seed: z.number().nullable(),
  /** The system and user messages sent (the JSON Schema appended to the system message left out). */
  prompt: z.string().nullable(),
  /** The game's bounds on the item, and what its rules changed or refused on the way. */
  rules: z
    .object({
      rarity: z.string(),
      level: z.int(),
      stat_budget: z.number(),
      value_cap: z.number(),
      /** What the server capped before asking (a level claim, …). */
      clamps: z.array(z.string()),
      /** The problems of each model answer the rules refused before this one was accepted. */
      rejected: z.array(z.array(z.string())),
    })
    .nullable(),
  cost: ItemCost,
  created_at: z.string(),
  /** The request that made it, in the request log while it is kept there; null for the server's own work. */
  request_id: z.string().nullable(),
});
export type Provenance = z.infer<typeof Provenance>;

export const Removal = z.object({
  reason: z.string(),
  removed_by: z.string(),
  removed_at: z.string(),
  /** Who held the item when it was removed. */
  holders: z.array(Holder),
});
export type Removal = z.infer<typeof Removal>;

export const ItemDetail = z.object({
  item: Item,
  owner: z.string().nullable(),
  holders: z.array(Holder),
  provenance: Provenance.nullable(),
  removal: Removal.nullable(),
  /** Who used the item up, how (`ItemSummary.consumed`) and when; null while someone holds it. */
  consumed: z.object({ how: z.string(), player_id: z.string(), at: z.string() }).nullable(),
});
export type ItemDetail = z.infer<typeof ItemDetail>;

export const ItemParams = z.strictObject({ item_id: ItemId });

export const RemoveItem = z.strictObject({ reason: z.string().trim().min(3).max(500) });
export type RemoveItem = z.infer<typeof RemoveItem>;

/** A game definition to try in the playground instead of the loaded one (never loaded for players). */
const Candidate = z.unknown().optional();

export const PlaygroundDrop = z.strictObject({
  enemy: z.string().max(64).optional(),
  location: z.string().trim().max(64).optional(),
  player_level: z.int().min(1).max(100),
  count: z.int().min(1).max(8),
  type: ItemType.optional(),
  definition: Candidate,
});
export type PlaygroundDrop = z.infer<typeof PlaygroundDrop>;

export const PlaygroundDropResult = z.object({
  site: z.object({ enemy: z.string().nullable(), tier: z.int(), player_level: z.int() }),
  /** The chance of each rarity for this tier and level, as the drop rolled it. */
  odds: z.record(z.string(), z.number()),
  items: z.array(Item),
});
export type PlaygroundDropResult = z.infer<typeof PlaygroundDropResult>;

export const PlaygroundCombine = z.strictObject({
  ingredients: z
    .array(z.strictObject({ item_id: ItemId, quantity: z.int().min(1).max(999) }))
    .min(1)
    .max(6),
  crafting_station: z.string().max(64).optional(),
  crafting_tool: z.string().max(64).optional(),
  description: z.string().trim().max(300).optional(),
  crafting_level: z.int().min(0).max(100),
  player_level: z.int().min(1).max(100).nullable().optional(),
  definition: Candidate,
});
export type PlaygroundCombine = z.infer<typeof PlaygroundCombine>;

export const PlaygroundCombineResult = z.object({
  success: z.boolean(),
  item: Item.nullable(),
  message: z.string(),
  suggestions: z.array(z.string()),
});
export type PlaygroundCombineResult = z.infer<typeof PlaygroundCombineResult>;

/** A fresh sheet of the game's icons: the loaded game, or a candidate definition's art. */
export const PlaygroundSheet = z.strictObject({ definition: Candidate });
export type PlaygroundSheet = z.infer<typeof PlaygroundSheet>;

export const PlaygroundSheetResult = z.object({
  /** The side, in pixels, every icon is painted at (the definition's `icon_size`). */
  icon_size: z.int(),
  /** One icon per item type (at most 64), in the definition's order, painted by the configured image backend. */
  icons: z.array(
    z.object({
      type: ItemType,
      /** What the icon shows: the type's name, or its first material for a stackable type. */
      name: z.string(),
      icon: ItemIcon,
    }),
  ),
});
export type PlaygroundSheetResult = z.infer<typeof PlaygroundSheetResult>;

/** One of the loaded game's `art.references`, by its place in the list. */
export const ReferenceParams = z.strictObject({ index: z.coerce.number().int().min(0).max(63) });

export const DefinitionIssue = z.object({ path: z.string(), message: z.string() });

export const GameState = z.object({
  /** The file it was loaded from; null for the shipped fantasy RPG. */
  file: z.string().nullable(),
  definition: z.unknown(),
  /** The file on disk now: as loaded, changed since (restart to load it), invalid, or unreadable. */
  file_state: z.enum(['loaded', 'changed', 'invalid', 'unreadable']),
  issues: z.array(DefinitionIssue),
  /** The loaded game's rarities (most common first) and item types, for the console's filters. */
  rarities: z.array(z.string()),
  item_types: z.array(z.string()),
});
export type GameState = z.infer<typeof GameState>;

export const GameCheck = z.strictObject({ definition: z.unknown() });
export const GameCheckResult = z.object({ valid: z.boolean(), issues: z.array(DefinitionIssue) });
export type GameCheckResult = z.infer<typeof GameCheckResult>;

export const ModerationQuery = z.strictObject({
  kind: z.enum(['player_text', 'generated_text']).optional(),
  player: PlayerId.optional(),
  after: Cursor,
  limit: Limit,
});
export type ModerationQuery = z.infer<typeof ModerationQuery>;

export const ModerationPage = z.object({ events: z.array(ModerationEvent), next: z.string().nullable() });
export type ModerationPage = z.infer<typeof ModerationPage>;
