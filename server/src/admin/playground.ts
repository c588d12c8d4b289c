import { readFileSync } from 'node:fs';
import {
  type GameCheckResult,
  type GameDefinition,
  type GameState,
  type Item,
  type ItemIcon,
  NO_ELEMENT,
  type PlaygroundCombine,
  type PlaygroundCombineResult,
  type PlaygroundDrop,
  type PlaygroundDropResult,
  type PlaygroundSheetResult,
} from '@lootsmith/protocol';
import type { ContentGuard } from '../content/guard.ts';
import type { Coordination } from '../coordination/coordination.ts';
import { CombinePlanner } from '../crafting/generate.ts';
import { generateLoot, type LootDeps } from '../drops/generate.ts';
import { lootPlan } from '../drops/plan.ts';
import { DEFAULT_GAME_FILE, GameFileError, parseGame } from '../game/definition.ts';
import { dropLimits, knownEnemy } from '../game/loot-authority.ts';
import { materialItems } from '../game/materials.ts';
import { loadArtReferences } from '../game/references.ts';
import { clampLevel, knownType, rarityIds, rarityWeights } from '../game/rules.ts';
import { IconService } from '../icons.ts';
import { refuse } from '../refusal.ts';
import type { Store } from '../store/store.ts';
import type { ReferenceImage } from '../upstream/backends/types.ts';
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

/** Most item types a sheet paints (a game file has at most 64). */
const SHEET_TYPES = 64;

/** The definition a playground call runs with, and what paints its icons. */
interface Trial {
  game: GameDefinition;
  materials: Map<string, Item>;
  icons: IconService;
}

const invalidCandidate = (issues: GameCheckResult['issues']) =>
  refuse('invalid_request', 'body.definition is not a valid game definition', issues);

const titleCase = (words: string) => words.replace(/(^|\s)\p{Ll}/gu, (c) => c.toUpperCase());

/** What a sheet's items are made of: the writer's first material word, else the first material's. */
const firstMaterial = (game: GameDefinition) =>
  game.writer?.materials[0] ?? game.materials[0]?.name.toLowerCase().split(/\s+/)[0] ?? 'plain';

export interface PlaygroundDeps {
  game: GameDefinition;
  /** Where the game definition was loaded from; undefined for the shipped one. */
  gameFile?: string;
  store: Pick<Store, 'getItems' | 'recipe' | 'icon' | 'putIcon'>;
  coordination: Coordination;
  upstream: UpstreamClient;
  /** The loaded game's icons (its art and references); a candidate definition gets its own. */
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

  /** Whether a definition would load: its schema and rules, then its references as start-up reads them. */
  async check(definition: unknown): Promise<GameCheckResult> {
    const read = readGame('definition', definition);
    if ('issues' in read) return { valid: false, issues: read.issues };
    const refs = await this.readReferences(read.game);
    return 'issues' in refs ? { valid: false, issues: refs.issues } : { valid: true, issues: [] };
  }

  /** A candidate's `art.references` read as at start-up, relative to the loaded game file's folder. */
  private async readReferences(
    game: GameDefinition,
  ): Promise<{ references: ReferenceImage[] } | { issues: GameCheckResult['issues'] }> {
    try {
      return { references: await loadArtReferences(this.deps.gameFile ?? DEFAULT_GAME_FILE, game) };
    } catch (err) {
      if (!(err instanceof GameFileError)) throw err;
      return { issues: err.problems.map((p) => ({ path: p.path || '(root)', message: p.message })) };
    }
  }

  /**
   * The loaded game, or a candidate definition (refused with its issues when invalid). A candidate
   * paints in its own art: an IconService of its own over the same store and backends, its
   * `art.references` read as at start-up, relative to the loaded game file's folder.
   */
  private async game(candidate: unknown): Promise<Trial> {
    const { deps } = this;
    if (candidate === undefined) return { game: deps.game, materials: deps.materials, icons: deps.icons };
    const read = readGame('definition', candidate);
    if ('issues' in read) throw invalidCandidate(read.issues);
    const { game } = read;
    const refs = await this.readReferences(game);
    if ('issues' in refs) throw invalidCandidate(refs.issues);
    const { store, coordination, upstream } = deps;
    const icons = new IconService(store, coordination, upstream, game, undefined, false, refs.references);
    return { game, materials: materialItems(game, icons), icons };
  }

  private loot({ game, materials, icons }: Trial): LootDeps {
    const { upstream, textModel, content } = this.deps;
    // No `activity`: no provenance or figures (a refusal of a model's text is recorded, as the
    // console's); icons are painted before the answer, as the console shows them.
    return { game, materials, upstream, icons, textModel, content };
  }

  /**
   * One icon per item type (at most 64), painted now by the configured image backend in the
   * definition's art, as the console's own calls. Icons are content-addressed like every other (the
   * id hashes the prompt and the art), so storing them gives no player anything it did not ask for.
   */
  async sheet(candidate: unknown, signal?: AbortSignal): Promise<PlaygroundSheetResult> {
    const { game, materials, icons } = await this.game(candidate);
    const tiles = game.item_types.slice(0, SHEET_TYPES).map((t) => {
      // A stackable type drops the game's materials: its first one, as players see it.
      const material = t.stackable ? [...materials.values()].find((m) => m.type === t.id) : undefined;
      const name = material?.name ?? titleCase(t.name);
      const prompt =
        material?.icon?.prompt ??
        icons.promptFor({
          name,
          type: t.id,
          subtype: t.subtypes[0] ?? t.name,
          material: firstMaterial(game),
          element: NO_ELEMENT,
          rarity: rarityIds(game)[0] as string,
        });
      return { type: t.id, name, prompt };
    });
    const painted = await icons.ensureAll(
      tiles.map((t) => t.prompt),
      PLAYGROUND_CLIENT,
      signal,
    );
    return {
      icon_size: game.icon_size,
      icons: tiles.map((t, i) => ({ type: t.type, name: t.name, icon: painted[i] as ItemIcon })),
    };
  }

  async drop(req: PlaygroundDrop, signal?: AbortSignal): Promise<PlaygroundDropResult> {
    const trial = await this.game(req.definition);
    const { game } = trial;
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
    const loot = await generateLoot(this.loot(trial), {
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
    const trial = await this.game(req.definition);
    const { game, materials } = trial;
    const { store, coordination } = this.deps;
    const planner = new CombinePlanner({
      ...this.loot(trial),
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
