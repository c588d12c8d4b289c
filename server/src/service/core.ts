import { CraftingService } from '../crafting/service.ts';
import { DropService } from '../drops/service.ts';
import { EquipmentService } from '../players/equipment.ts';
import { PlayerService } from '../players/service.ts';
import type { CoreDeps } from './deps.ts';
import { ForwardingService } from './forwarding.ts';

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
    this.forwarding = new ForwardingService(deps.store, this.players, deps.budgets);
  }

  /** Registers the materials' icons so any instance can paint them when first asked. */
  init() {
    return this.players.init();
  }
}
