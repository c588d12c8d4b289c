import { randomUUID } from 'node:crypto';
import {
  type GameDefinition,
  GeneratedItemBatch,
  type GenerateItemsRequest,
  type Item,
  type ItemType,
} from '@lootsmith/protocol';
import { pickWeighted, type Random, seededRandom } from '../game/random.ts';
import { checkItem, clampLevel, findEnemy, rollRarity, statBudget } from '../game/rules.ts';
import type { IconService } from '../icons.ts';
import type { Metrics } from '../metrics.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { askJson } from './ask-json.ts';
import { contextLine, type ItemSpec, itemLine, systemPrompt } from './prompts.ts';

export const newItemId = () => `itm_${randomUUID().replaceAll('-', '')}`;

export interface LootDeps {
  game: GameDefinition;
  /** Materials by id: a drop that rolls MATERIAL gives one of these rather than a generated item. */
  materials: Map<string, Item>;
  upstream: UpstreamClient;
  icons: IconService;
  metrics?: Metrics;
  textModel?: string;
}

export interface LootRequest {
  body: GenerateItemsRequest;
  /** Only the server credential may choose rarities; players get rolled ones. */
  trusted: boolean;
  /** Names the player already owns, for `ensure_uniqueness`. */
  takenNames: string[];
  seed?: string;
  signal?: AbortSignal;
}

/** A material from the game definition, favouring the enemy's element (frost giants drop frost shards). */
function rollMaterial(deps: LootDeps, element: string | undefined, random: Random): Item {
  const all = [...deps.materials.values()];
  const weights = all.map(
    (m) => (m.element === element ? 6 : m.element === 'none' ? 2 : 1) * (m.rarity === 'COMMON' ? 2 : 1),
  );
  return all[pickWeighted(weights, random)] as Item;
}

export interface Loot {
  /** Generated items, new to the store. */
  items: Item[];
  /** Materials that dropped, one each, in the order of the request. */
  materials: Item[];
}

/** Rolls what the request leaves open, asks the model for the items, checks them, paints their icons. */
export async function generateLoot(deps: LootDeps, req: LootRequest): Promise<Loot> {
  const { game } = deps;
  const ctx = req.body.generation_context ?? {};
  const random = seededRandom(req.seed ?? randomUUID());
  const playerLevel = clampLevel(game, ctx.player_level ?? 1);
  const enemy = findEnemy(game, ctx.enemy);
  const tier = enemy?.tier ?? 1;
  let specs: ItemSpec[] = req.body.items.map((wanted) => {
    const rarity = req.trusted && wanted.rarity ? wanted.rarity : rollRarity(game, tier, playerLevel, random);
    const type: ItemType =
      wanted.type ?? (game.loot_types[Math.floor(random.next() * game.loot_types.length)] as ItemType);
    const level = clampLevel(game, playerLevel + Math.floor(random.next() * 3) - 1 + (tier - 1));
    return {
      type,
      subtype: wanted.subtype,
      rarity,
      level,
      budget: statBudget(game, rarity, level),
      focus: wanted.focus,
    };
  });
  const wantsMaterial = (s: ItemSpec) => s.type === 'MATERIAL' && !s.subtype && !s.focus;
  // A player's theme does not steer material odds: only the enemy's element (or the game server's theme).
  const element = enemy?.element ?? (req.trusted ? ctx.theme : undefined);
  const materials = specs.filter(wantsMaterial).map(() => rollMaterial(deps, element, random));
  specs = specs.filter((s) => !wantsMaterial(s));
  if (!specs.length) return { items: [], materials };
  const constraints = req.body.constraints ?? {};
  const taken = new Set(req.takenNames.map((n) => n.toLowerCase()));
  const user = [
    `Generate ${specs.length} item${specs.length > 1 ? 's' : ''}.`,
    contextLine({
      location: ctx.location,
      enemy: enemy
        ? `${enemy.name} (tier ${enemy.tier}${enemy.element ? `, ${enemy.element}` : ''})`
        : ctx.enemy,
      theme: ctx.theme ?? enemy?.element,
      'player level': playerLevel,
    }),
    ...specs.map((s, i) => itemLine(i + 1, s)),
    constraints.naming_style ? `Naming style: ${constraints.naming_style}` : '',
    constraints.power_budget ? `Power budget: ${constraints.power_budget}` : '',
  ]
    .filter(Boolean)
    .join('\n');

  const batch = await askJson({
    upstream: deps.upstream,
    clientId: req.body.client_id,
    system: systemPrompt(
      game,
      'Write loot for the drop described by the user, one item per "Item N" line, in order.',
    ),
    user,
    schema: GeneratedItemBatch,
    schemaName: 'item_batch',
    seed: Math.floor(random.next() * 2 ** 32),
    model: deps.textModel,
    metrics: deps.metrics,
    kind: 'loot',
    signal: req.signal,
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
  });

  const created_at = new Date().toISOString();
  const icons = await deps.icons.ensureAll(
    batch.items.map((generated) => deps.icons.promptFor(generated)),
    req.body.client_id,
    req.signal,
  );
  const items = batch.items.map((generated, i) => ({
    ...generated,
    id: newItemId(),
    icon: icons[i] as Item['icon'],
    created_at,
  }));
  deps.metrics?.generations.inc({ kind: 'loot', outcome: 'ok' });
  return { items, materials };
}
