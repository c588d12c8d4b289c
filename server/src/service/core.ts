import type { GameDefinition } from '@lootsmith/protocol';
import type { Coordination } from '../coordination/coordination.ts';
import type { IconService } from '../icons.ts';
import type { Metrics } from '../metrics.ts';
import type { LootSupply } from '../pipeline/loot.ts';
import type { Store } from '../store/store.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { CraftingService } from './crafting.ts';
import { DropService } from './drops.ts';
import { EquipmentService } from './equipment.ts';
import { ForwardingService } from './forwarding.ts';
import { PlayerService } from './players.ts';

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
  /** Drops answer before their icons are painted (`icon.status: "pending"`). */
  iconsAfterItem?: boolean;
}

/**
 * What the routes serve, as plain methods that take values and return values, each service apart:
 * players and inventories, drops, crafting, equipment, and the forwarded `/v1` calls. A refusal is
 * thrown as a `Refused` value; only `http/` turns it into an answer.
 */
export class Core {
  readonly players: PlayerService;
  readonly drops: DropService;
  readonly crafting: CraftingService;
  readonly equipment: EquipmentService;
  readonly forwarding: ForwardingService;

  constructor(readonly deps: CoreDeps) {
    this.players = new PlayerService(deps);
    this.drops = new DropService(deps, this.players);
    this.crafting = new CraftingService(deps, this.players);
    this.equipment = new EquipmentService(deps, this.players);
    this.forwarding = new ForwardingService(deps.store, this.players);
  }

  /** Registers the materials' icons so any instance can paint them when first asked. */
  init() {
    return this.players.init();
  }
}
