import type { GameDefinition } from '@lootsmith/protocol';
import type { ContentGuard } from '../content/guard.ts';
import type { Coordination } from '../coordination/coordination.ts';
import type { LootSupply } from '../drops/generate.ts';
import type { ActivitySink } from '../generation/provenance.ts';
import type { IconService } from '../icons.ts';
import type { Metrics } from '../metrics.ts';
import type { Store } from '../store/store.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { DefaultBudgets } from './reservations.ts';

/** What the services are built from: one server instance's game, store, upstream and settings. */
export interface CoreDeps {
  game: GameDefinition;
  store: Store;
  coordination: Coordination;
  upstream: UpstreamClient;
  icons: IconService;
  metrics?: Metrics;
  textModel?: string;
  /** The server credential: it signs drop grants. */
  serverKey?: string;
  /** Loot pools (`LOOTSMITH_POOLS`): drops take ready items from them before asking the model. */
  pools?: LootSupply;
  /** Screens player text before anything is spent, and model text before it is stored. */
  content?: ContentGuard;
  /** Daily budgets of players the game server set none for (production); unlimited when absent. */
  budgets?: DefaultBudgets;
  /** Records each generated item's provenance for the developer console. */
  activity?: ActivitySink;
}
