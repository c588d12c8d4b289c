import { randomUUID } from 'node:crypto';
import {
  type DropContext,
  formatPrompt,
  type GameDefinition,
  type Item,
  type ItemIcon,
  NO_ELEMENT,
} from '@lootsmith/protocol';
import { type ContentGuard, itemTexts } from '../content/guard.ts';
import { gameSchemas } from '../game/item-schemas.ts';
import type { GameEnemy } from '../game/loot-authority.ts';
import { pickWeighted, type Random, seededRandom } from '../game/random.ts';
import { checkItem, dropLevels, rollRarity, settleItem, statBudget } from '../game/rules.ts';
import { askJson } from '../generation/ask-json.ts';
import { type ItemSpec, itemLine, systemPrompt } from '../generation/prompts.ts';
import { type ActivitySink, newTrace, provenanceRows } from '../generation/provenance.ts';
import type { IconService } from '../icons.ts';
import type { Metrics } from '../metrics.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { LootPlan } from './loot-plan.ts';

export const newItemId = () => `itm_${randomUUID().replaceAll('-', '')}`;

export interface LootDeps {
  game: GameDefinition;
  /** Materials by id: a drop that rolls MATERIAL gives one of these rather than a generated item. */
  materials: Map<string, Item>;
  upstream: UpstreamClient;
  icons: IconService;
  metrics?: Metrics;
  textModel?: string;
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
  take(plan: LootPlan, specs: ItemSpec[], takenNames: string[]): Promise<PoolDraw>;
  /** A live player showed up (it loaded its inventory): what a fresh game starts with is made ready. */
  arrived(playerId: string): void;
}

export interface LootRequest {
  /** The drop, as the service translated it at the door. */
  plan: LootPlan;
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
  constraints?: LootPlan['constraints'];
  /** Names the items must not take when `constraints.ensureUniqueness` is set. */
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
  const constraints: Partial<LootPlan['constraints']> = req.constraints ?? {};
  const taken = new Set(req.takenNames.map((n) => n.toLowerCase()));
  const user = formatPrompt({
    count: specs.length,
    context: req.context,
    items: specs.map((spec) => itemLine(game, spec)),
    namingStyle: constraints.namingStyle,
    powerBudget: constraints.powerBudget,
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
        if (constraints.ensureUniqueness && (taken.has(key) || seen.has(key)))
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

/** Ids of these items' icons not painted yet; each starts painting in the background. */
/**
 * Rolls what the request leaves open, takes what the loot pools hold for it, asks the model for the
 * rest, checks them and gives them icons.
 */
export async function generateLoot(deps: LootDeps, req: LootRequest): Promise<Loot> {
  const { game } = deps;
  const { plan } = req;
  const random = seededRandom(req.seed ?? randomUUID());
  const { tier, playerLevel } = plan.site;
  let specs: ItemSpec[] = plan.wants.map((wanted) => {
    const rarity = wanted.rarity ?? rollRarity(game, tier, playerLevel, random);
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
  const materials = specs
    .filter(wantsMaterial)
    .map((s) => rollMaterial(deps, s.type, plan.materialElement, random));
  specs = specs.filter((s) => !wantsMaterial(s));
  // A material's icon is painted when first asked for: not before the drop answers either.
  const pendingMaterials = await deps.icons.pendingFor(materials, plan.playerId);
  const nothing = async () => {};
  if (!specs.length)
    return { items: [], materials, pendingIcons: pendingMaterials, pooled: 0, giveBack: nothing };

  const draw = await req.supply?.take(plan, specs, req.takenNames);
  const pooled = (draw?.items ?? []).filter((i): i is Item => i !== undefined);
  // A pooled item's icon may still wait in the pools' backlog: it starts painting now, for this player.
  const pendingPooled = await deps.icons.pendingFor(pooled, plan.playerId);
  const missing = specs.filter((_, i) => !draw?.items[i]);
  if (draw) {
    deps.activity?.count('pool_draw', 'hit', pooled.length);
    deps.activity?.count('pool_draw', 'miss', missing.length);
  }
  let written: { items: Item[]; pendingIcons: string[] } = { items: [], pendingIcons: [] };
  if (missing.length) {
    try {
      written = await writeItems(deps, {
        clientId: plan.playerId,
        specs: missing,
        context: plan.context,
        constraints: plan.constraints,
        takenNames: [...req.takenNames, ...pooled.map((i) => i.name)],
        random,
        icons: deps.icons.afterItem ? 'behind' : 'paint',
        kind: 'loot',
        playerWords: plan.playerWords.map(([, text]) => text),
        signal: req.signal,
        enemyId: plan.site.enemy?.id,
        clamps: plan.clamps,
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
