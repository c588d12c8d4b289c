import { readFileSync } from 'node:fs';
import {
  ApiError,
  type GameCheckResult,
  type GameDefinition,
  type GameState,
  type Item,
  type PlaygroundCombine,
  type PlaygroundCombineResult,
  type PlaygroundDrop,
  type PlaygroundDropResult,
} from '@lootsmith/protocol';
import type { ContentGuard } from '../content/guard.ts';
import type { Coordination } from '../coordination/coordination.ts';
import { DEFAULT_GAME_FILE, GameFileError, parseGame } from '../game/definition.ts';
import { dropLimits, knownEnemy } from '../game/loot-authority.ts';
import { materialItems } from '../game/materials.ts';
import { clampLevel, knownType, rarityIds, rarityWeights } from '../game/rules.ts';
import type { IconService } from '../icons.ts';
import { CombinePlanner } from '../pipeline/crafting.ts';
import { generateLoot, type LootDeps } from '../pipeline/loot.ts';
import { lootPlan } from '../service/drop-plan.ts';
import type { Store } from '../store/store.ts';
import type { UpstreamClient } from '../upstream/client.ts';

/** The client id of the playground's model calls: no player's. */
export const PLAYGROUND_CLIENT = 'lootsmith-console';
/** What is read, as the console shows it; only a game file's own problems are issues, others are thrown. */
function readGame(
  source: string,
  raw: unknown,
): { game: GameDefinition } | { issues: GameCheckResult['issues'] } {
  try {
    return { game: parseGame(source, raw) };
  } catch (err) {
    if (!(err instanceof GameFileError)) throw err;
    return { issues: err.problems.map((p) => ({ path: p.path || '(root)', message: p.message })) };
  }
}

export interface PlaygroundDeps {
  game: GameDefinition;
  /** Where the game definition was loaded from; undefined for the shipped one. */
  gameFile?: string;
  store: Pick<Store, 'getItems' | 'recipe'>;
  coordination: Coordination;
  upstream: UpstreamClient;
  icons: IconService;
  materials: Map<string, Item>;
  textModel?: string;
  /** The game's content checks: what a model writes here is screened as in the game. */
  content?: ContentGuard;
}

/**
 * The console's playground: a drop or a combine as a player would get it, granting nothing and
 * counting against no one (no reservation, no inventory, no provenance), with the loaded game
 * definition or one the developer is trying out.
 */
export class Playground {
  constructor(private readonly deps: PlaygroundDeps) {}

  /** The definition in use, and whether the file on disk still says the same (or is now broken). */
  gameState(): GameState {
    const { game } = this.deps;
    const file = this.deps.gameFile ?? DEFAULT_GAME_FILE;
    const state = (file_state: GameState['file_state'], issues: GameState['issues'] = []): GameState => ({
      file: this.deps.gameFile ?? null,
      definition: game,
      file_state,
      issues,
      rarities: rarityIds(game),
      item_types: game.item_types.map((t) => t.id),
    });
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      return state('unreadable', [{ path: '(file)', message: (err as Error).message }]);
    }
    const read = readGame(file, raw);
    if ('issues' in read) return state('invalid', read.issues);
    return state(JSON.stringify(read.game) === JSON.stringify(game) ? 'loaded' : 'changed');
  }

  check(definition: unknown): GameCheckResult {
    const read = readGame('definition', definition);
    return 'issues' in read ? { valid: false, issues: read.issues } : { valid: true, issues: [] };
  }

  /** The loaded game, or a candidate definition (refused with its issues when invalid). */
  private game(candidate: unknown): { game: GameDefinition; materials: Map<string, Item> } {
    if (candidate === undefined) return { game: this.deps.game, materials: this.deps.materials };
    const read = readGame('definition', candidate);
    if ('issues' in read)
      throw new ApiError(400, 'invalid_request', 'body.definition is not a valid game definition', {
        details: read.issues,
      });
    return { game: read.game, materials: materialItems(read.game, this.deps.icons) };
  }

  private loot(game: GameDefinition, materials: Map<string, Item>): LootDeps {
    const { upstream, icons, textModel, content } = this.deps;
    // No `activity`: no provenance or figures (a refusal of a model's text is recorded, as the
    // console's); icons are painted before the answer, as the console shows them.
    return { game, materials, upstream, icons, textModel, content, iconsAfterItem: false };
  }

  async drop(req: PlaygroundDrop, signal?: AbortSignal): Promise<PlaygroundDropResult> {
    const { game, materials } = this.game(req.definition);
    if (req.type !== undefined) knownType(game, req.type, 'body.type');
    const enemy = knownEnemy(game, req.enemy);
    const tier = enemy?.tier ?? 1;
    const playerLevel = clampLevel(game, req.player_level);
    const body = {
      client_id: PLAYGROUND_CLIENT,
      generation_context: {
        enemy: req.enemy,
        location: req.location || undefined,
        player_level: playerLevel,
      },
      items: Array.from({ length: req.count }, () => (req.type ? { type: req.type } : {})),
    };
    const site = { enemy, tier, playerLevel, limits: dropLimits(game, tier) };
    const loot = await generateLoot(this.loot(game, materials), {
      plan: lootPlan(game, body, site, false),
      takenNames: [],
      signal,
    });
    const weights = rarityWeights(game, tier, playerLevel);
    const total = weights.reduce((a, w) => a + w, 0) || 1;
    return {
      site: { enemy: enemy?.id ?? null, tier, player_level: playerLevel },
      odds: Object.fromEntries(rarityIds(game).map((r, i) => [r, (weights[i] ?? 0) / total])),
      items: [...loot.items, ...loot.materials],
    };
  }

  async combine(req: PlaygroundCombine, signal?: AbortSignal): Promise<PlaygroundCombineResult> {
    const { game, materials } = this.game(req.definition);
    const { store, coordination } = this.deps;
    const planner = new CombinePlanner({
      ...this.loot(game, materials),
      coordination,
      recipe: (key) => store.recipe(key),
      async resolve(ids) {
        const found = new Map<string, Item>();
        for (const id of ids) {
          const material = materials.get(id);
          if (material) found.set(id, material);
        }
        for (const item of await store.getItems(ids.filter((id) => !found.has(id)))) found.set(item.id, item);
        return found;
      },
    });
    const setup = await planner.setup(
      {
        player_id: PLAYGROUND_CLIENT,
        ingredients: req.ingredients,
        crafting_station: req.crafting_station,
        crafting_tool: req.crafting_tool,
        description: req.description,
      },
      { xp: req.crafting_level * game.xp_per_level, level: req.player_level ?? null },
    );
    const plan = await planner.plan(setup, signal);
    return plan.kind === 'craft'
      ? { success: true, item: plan.item, message: `Would craft ${plan.item.name}.`, suggestions: [] }
      : { success: false, item: null, message: plan.message, suggestions: plan.suggestions };
  }
}
