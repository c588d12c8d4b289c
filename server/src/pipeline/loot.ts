import { randomUUID } from 'node:crypto';
import {
  type DropContext,
  formatPrompt,
  type GameDefinition,
  type GenerateItemsRequest,
  type Item,
  type ItemIcon,
  NO_ELEMENT,
} from '@lootsmith/protocol';
import { type ContentGuard, itemTexts } from '../content/guard.ts';
import { gameSchemas } from '../game/item-schemas.ts';
import type { DropSite, GameEnemy } from '../game/loot-authority.ts';
import { pickWeighted, type Random, seededRandom } from '../game/random.ts';
import { checkItem, dropLevels, rollRarity, settleItem, statBudget } from '../game/rules.ts';
import type { IconService } from '../icons.ts';
import type { Metrics } from '../metrics.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { askJson } from './ask-json.ts';
import { type ItemSpec, systemPrompt } from './prompts.ts';
import { type ActivitySink, newTrace, provenanceRows } from './provenance.ts';

export const newItemId = () => `itm_${randomUUID().replaceAll('-', '')}`;

export interface LootDeps {
  game: GameDefinition;
  /** Materials by id: a drop that rolls MATERIAL gives one of these rather than a generated item. */
  materials: Map<string, Item>;
  upstream: UpstreamClient;
  icons: IconService;
  metrics?: Metrics;
  textModel?: string;
  /** Answer before icons are painted: new items come back with their icons pending. */
  iconsAfterItem?: boolean;
  /** Screens what players write and what models write for them. */
  content?: ContentGuard;
  /** Records each generated item's provenance and the pools' hits (none in the console's playground). */
  activity?: ActivitySink;
}

/** An enemy as the prompt names it: name, tier and element. */
export const enemyContext = (enemy: GameEnemy): DropContext => ({
  enemy: enemy.name,
  enemyTier: enemy.tier,
  enemyElement: enemy.element,
});

/** Items taken from a loot pool for a drop; `giveBack` returns them if the drop fails. */
export interface PoolDraw {
  /** Aligned with the specs asked for; undefined where the pool had nothing that fits. */
  items: Array<Item | undefined>;
  giveBack(): Promise<void>;
}

/** A source of ready items (the loot pools): asked before the model, for every spec it can serve. */
export interface LootSupply {
  take(site: DropSite, specs: ItemSpec[], request: LootRequest): Promise<PoolDraw>;
  /** A live player showed up (it loaded its inventory): what a fresh game starts with is made ready. */
  arrived(playerId: string): void;
}

export interface LootRequest {
  body: GenerateItemsRequest;
  /** The drop's enemy, tier and level as `planDrop` settled them. */
  site: DropSite;
  /** Only the server credential may choose rarities; players get rolled ones. */
  trusted: boolean;
  /** Names the player already owns, for `ensure_uniqueness`. */
  takenNames: string[];
  seed?: string;
  signal?: AbortSignal;
  /** Loot pools, when the server keeps them. */
  supply?: LootSupply;
}

/** A material of the type from the game definition, favouring the enemy's element (frost giants drop frost shards). */
function rollMaterial(deps: LootDeps, type: string, element: string | undefined, random: Random): Item {
  const all = [...deps.materials.values()].filter((m) => m.type === type);
  const weights = all.map(
    (m) =>
      (m.element === element ? 6 : m.element === NO_ELEMENT ? 2 : 1) *
      (m.rarity === deps.game.rarities[0]?.id ? 2 : 1),
  );
  return all[pickWeighted(weights, random)] as Item;
}

export interface Loot {
  /** Generated or pooled items, new to the store. */
  items: Item[];
  /** Materials that dropped, one each, in the order of the request. */
  materials: Item[];
  /** Ids of icons still being painted. */
  pendingIcons: string[];
  /** How many of `items` came from a pool. */
  pooled: number;
  /** Returns pooled items to their pool when the drop cannot be granted. */
  giveBack(): Promise<void>;
}

export interface WriteRequest {
  clientId: string;
  specs: ItemSpec[];
  context: DropContext;
  constraints?: GenerateItemsRequest['constraints'];
  /** Names the items must not take when `constraints.ensure_uniqueness` is set. */
  takenNames: string[];
  /** Seeds the model's answer. */
  random: Random;
  /**
   * paint: icons painted before answering; behind: painting starts, the answer does not wait (new
   * icons come back pending); register: only described, for the caller to paint (a pool's backlog).
   */
  icons: 'paint' | 'behind' | 'register';
  /** Metrics label: a player's drop or a pool's refill. */
  kind: 'loot' | 'pool';
  /** The player's own words in the request: a model's text may not copy them at length. */
  playerWords?: string[];
  signal?: AbortSignal;
  /** Ids for the items (a pool's slots); fresh ones otherwise. */
  ids?: string[];
  /** For the items' provenance: the enemy's id, and what the server capped before asking. */
  enemyId?: string;
  clamps?: string[];
}

/** Asks the model for items of the given specs, checks them against the game's rules and gives them icons. */
export async function writeItems(
  deps: LootDeps,
  req: WriteRequest,
): Promise<{ items: Item[]; pendingIcons: string[] }> {
  const { game } = deps;
  const { specs } = req;
  const constraints = req.constraints ?? {};
  const taken = new Set(req.takenNames.map((n) => n.toLowerCase()));
  const user = formatPrompt({
    count: specs.length,
    context: req.context,
    items: specs,
    namingStyle: constraints.naming_style,
    powerBudget: constraints.power_budget,
  });

  const trace = newTrace();
  const batch = await askJson({
    upstream: deps.upstream,
    clientId: req.clientId,
    system: systemPrompt(
      game,
      'Write loot for the drop described by the user, one item per "Item N" line, in order.',
    ),
    user,
    schema: gameSchemas(game).batch,
    schemaName: 'item_batch',
    seed: Math.floor(req.random.next() * 2 ** 32),
    model: deps.textModel,
    metrics: deps.metrics,
    kind: req.kind,
    signal: req.signal,
    trace,
    check: (answer) => {
      const problems: string[] = [];
      if (answer.items.length !== specs.length)
        problems.push(`write exactly ${specs.length} items, not ${answer.items.length}`);
      const seen = new Set<string>();
      answer.items.forEach((item, i) => {
        const spec = specs[i];
        if (spec) problems.push(...checkItem(game, item, spec).map((p) => `items.${i}: ${p}`));
        const key = item.name.toLowerCase();
        if (constraints.ensure_uniqueness && (taken.has(key) || seen.has(key)))
          problems.push(`items.${i}: the name "${item.name}" is already taken; choose another`);
        seen.add(key);
      });
      return problems;
    },
    review: async (answer) =>
      (await deps.content?.review(
        // A pool's refill is the server's own work: no player's record.
        req.kind === 'pool' ? null : req.clientId,
        answer.items.flatMap((item, i) => itemTexts(item, `items.${i}.`)),
        req.playerWords,
      )) ?? [],
  });

  const created_at = new Date().toISOString();
  const prompts = batch.items.map((generated) => deps.icons.promptFor(generated));
  let icons: ItemIcon[];
  let pendingIcons: string[] = [];
  if (req.icons === 'behind') {
    const later = await Promise.all(prompts.map((prompt) => deps.icons.paintBehind(prompt, req.clientId)));
    icons = later.map((l) => l.icon);
    // Kept out of the item itself: the stored item never says pending once the icon is painted.
    pendingIcons = later.filter((l) => l.pending).map((l) => l.icon.id);
  } else if (req.icons === 'register')
    icons = await Promise.all(prompts.map((prompt) => deps.icons.register(prompt)));
  else icons = await deps.icons.ensureAll(prompts, req.clientId, req.signal);
  const items = batch.items.map((generated, i) => ({
    ...settleItem(game, generated),
    id: req.ids?.[i] ?? newItemId(),
    icon: icons[i] as ItemIcon,
    created_at,
  }));
  deps.metrics?.generations.inc({ kind: req.kind, outcome: 'ok' });
  deps.activity?.record(
    provenanceRows(game, items, {
      source: req.kind,
      playerId: req.kind === 'loot' ? req.clientId : null,
      enemy: req.enemyId,
      trace,
      clamps: req.clamps,
    }),
  );
  return { items, pendingIcons };
}

/** The free text of a drop request, by field: what a player wrote, to be screened and never copied. */
export function dropTexts(body: GenerateItemsRequest): Array<[string, string | undefined]> {
  const ctx = body.generation_context ?? {};
  return [
    ['generation_context.location', ctx.location],
    ['generation_context.theme', ctx.theme],
    ['generation_context.enemy', ctx.enemy],
    ['constraints.naming_style', body.constraints?.naming_style],
    ['constraints.power_budget', body.constraints?.power_budget],
    ...body.items.flatMap(
      (item, i): Array<[string, string | undefined]> => [
        [`items.${i}.subtype`, item.subtype],
        [`items.${i}.focus`, item.focus],
      ],
    ),
  ];
}

const playerWords = (body: GenerateItemsRequest) =>
  dropTexts(body).flatMap(([, text]) => (text ? [text] : []));
/** A level claim the loot authority capped, in words for the item's provenance. */
const claimClamp = (claimed: number | undefined, served: number) =>
  claimed !== undefined && claimed !== served
    ? [`player_level ${claimed} was served at ${served} (loot_authority)`]
    : [];

/** Ids of these items' icons not painted yet; each starts painting in the background. */
async function unpaintedIcons(deps: LootDeps, items: Item[], clientId: string): Promise<string[]> {
  const icons = [...new Set(items.flatMap((i) => (i.icon ? [i.icon.prompt] : [])))];
  const later = await Promise.all(icons.map((prompt) => deps.icons.paintBehind(prompt, clientId)));
  return later.filter((l) => l.pending).map((l) => l.icon.id);
}

/**
 * Rolls what the request leaves open, takes what the loot pools hold for it, asks the model for the
 * rest, checks them and gives them icons.
 */
export async function generateLoot(deps: LootDeps, req: LootRequest): Promise<Loot> {
  const { game } = deps;
  const ctx = req.body.generation_context ?? {};
  const random = seededRandom(req.seed ?? randomUUID());
  const { enemy, tier, playerLevel } = req.site;
  let specs: ItemSpec[] = req.body.items.map((wanted) => {
    const rarity = req.trusted && wanted.rarity ? wanted.rarity : rollRarity(game, tier, playerLevel, random);
    const type =
      wanted.type ?? (game.loot_types[Math.floor(random.next() * game.loot_types.length)] as string);
    const [lowest, highest] = dropLevels(game, playerLevel, tier);
    const level = Math.min(highest, lowest + Math.floor(random.next() * 3));
    return {
      type,
      subtype: wanted.subtype,
      rarity,
      level,
      budget: statBudget(game, rarity, level),
      focus: wanted.focus,
      typeChosen: wanted.type !== undefined,
    };
  });
  // A stackable type drops one of the game's materials of that type, when the game has any.
  const stacked = new Set(
    game.item_types
      .filter((t) => t.stackable && game.materials.some((m) => m.type === t.id))
      .map((t) => t.id),
  );
  const wantsMaterial = (s: ItemSpec) => stacked.has(s.type) && !s.subtype && !s.focus;
  // A player's theme does not steer material odds: only the enemy's element (or the game server's theme).
  const element = enemy?.element ?? (req.trusted ? ctx.theme : undefined);
  const materials = specs.filter(wantsMaterial).map((s) => rollMaterial(deps, s.type, element, random));
  specs = specs.filter((s) => !wantsMaterial(s));
  // A material's icon is painted when first asked for: not before the drop answers either.
  const pendingMaterials = deps.iconsAfterItem
    ? await unpaintedIcons(deps, materials, req.body.client_id)
    : [];
  const nothing = async () => {};
  if (!specs.length)
    return { items: [], materials, pendingIcons: pendingMaterials, pooled: 0, giveBack: nothing };

  const draw = await req.supply?.take(req.site, specs, req);
  const pooled = (draw?.items ?? []).filter((i): i is Item => i !== undefined);
  // A pooled item's icon may still wait in the pools' backlog: it starts painting now, for this player.
  const pendingPooled = deps.iconsAfterItem ? await unpaintedIcons(deps, pooled, req.body.client_id) : [];
  const missing = specs.filter((_, i) => !draw?.items[i]);
  if (draw) {
    deps.activity?.count('pool_draw', 'hit', pooled.length);
    deps.activity?.count('pool_draw', 'miss', missing.length);
  }
  let written: { items: Item[]; pendingIcons: string[] } = { items: [], pendingIcons: [] };
  if (missing.length) {
    try {
      written = await writeItems(deps, {
        clientId: req.body.client_id,
        specs: missing,
        context: {
          location: ctx.location,
          ...(enemy ? enemyContext(enemy) : { enemy: ctx.enemy }),
          theme: ctx.theme ?? enemy?.element,
          playerLevel,
        },
        constraints: req.body.constraints,
        takenNames: [...req.takenNames, ...pooled.map((i) => i.name)],
        random,
        icons: deps.iconsAfterItem ? 'behind' : 'paint',
        kind: 'loot',
        playerWords: playerWords(req.body),
        signal: req.signal,
        enemyId: enemy?.id,
        clamps: claimClamp(ctx.player_level, playerLevel),
      });
    } catch (err) {
      await draw?.giveBack();
      throw err;
    }
  }
  const fresh = [...written.items];
  return {
    items: specs.map((_, i) => draw?.items[i] ?? (fresh.shift() as Item)),
    materials,
    pendingIcons: [...pendingMaterials, ...pendingPooled, ...written.pendingIcons],
    pooled: pooled.length,
    giveBack: draw?.giveBack ?? nothing,
  };
}
