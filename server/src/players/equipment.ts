import type {
  EquipmentResponse,
  EquipRequest,
  GameDefinition,
  Item,
  UseItemRequest,
  UseItemResponse,
} from '@lootsmith/protocol';
import type { Principal } from '../auth.ts';
import { equipmentSlots, isConsumable, slotOf, statTotals } from '../game/slots.ts';
import { refuse } from '../refusal.ts';
import type { CoreDeps } from '../service/deps.ts';
import { InsufficientError, type Store } from '../store/store.ts';
import type { PlayerService } from './service.ts';

const notOwned = (playerId: string, itemId: string) =>
  refuse('not_owned', `Player ${playerId} does not own item ${itemId}`, { item_id: itemId });

/** A store write that needs an owned item, with the store's shortfall as `not_owned`. */
const owning = (playerId: string, itemId: string, write: Promise<void>) =>
  write.catch((err: unknown) => {
    throw err instanceof InsufficientError ? notOwned(playerId, itemId) : err;
  });

/**
 * Equipment and consumables as plain methods: the game's rules decide what may be worn where and
 * what may be used; every refusal is checked before, and again inside, the one transaction that
 * changes anything, so a refused action changes nothing.
 */
export class EquipmentService {
  readonly slots: string[];
  private readonly store: Pick<Store, 'changeStacks' | 'equip' | 'equipment' | 'stacks' | 'unequip'>;
  private readonly game: GameDefinition;

  constructor(
    deps: Pick<CoreDeps, 'game' | 'store'>,
    private readonly players: PlayerService,
  ) {
    this.game = deps.game;
    this.slots = equipmentSlots(deps.game);
    this.store = deps.store;
  }

  async view(principal: Principal, playerId: string): Promise<EquipmentResponse> {
    await this.players.forCaller(principal, playerId);
    const worn = await this.store.equipment(playerId);
    const items = await this.players.resolve(worn.map((w) => w.item_id));
    const bySlot = new Map(worn.map((w) => [w.slot, items.get(w.item_id)]));
    const slots = this.slots.map((slot) => ({ slot, item: bySlot.get(slot) ?? null }));
    return {
      player_id: playerId,
      slots,
      stats: statTotals(slots.flatMap((s) => (s.item ? [s.item] : []))),
    };
  }

  async equip(principal: Principal, playerId: string, body: EquipRequest): Promise<EquipmentResponse> {
    // A slot the game lacks is a malformed request, as a value outside an enum is.
    if (body.slot !== undefined && !this.slots.includes(body.slot))
      throw refuse(
        'invalid_request',
        `body.slot: the game has no ${body.slot} slot; its slots: ${this.slots.join(', ')}`,
      );
    await this.players.forCaller(principal, playerId);
    const item = await this.owned(playerId, body.item_id);
    const slot = slotOf(this.game, item.type);
    if (!slot)
      throw refuse('not_equippable', `${item.name} (${item.type}) cannot be worn`, {
        item_id: item.id,
        slots: this.slots,
      });
    if (body.slot && body.slot !== slot)
      throw refuse('wrong_slot', `${item.name} goes in the ${slot} slot, not ${body.slot}`, {
        item_id: item.id,
        slot,
      });
    await owning(playerId, item.id, this.store.equip(playerId, slot, item.id));
    return this.view(principal, playerId);
  }

  async unequip(principal: Principal, playerId: string, slot: string): Promise<EquipmentResponse> {
    await this.players.forCaller(principal, playerId);
    if (!this.slots.includes(slot))
      throw refuse('unknown_slot', `This game has no ${slot} slot; its slots: ${this.slots.join(', ')}`, {
        slots: this.slots,
      });
    await this.store.unequip(playerId, slot);
    return this.view(principal, playerId);
  }

  /** Spends one consumable; its stats are the effects the game applies. */
  async use(principal: Principal, playerId: string, body: UseItemRequest): Promise<UseItemResponse> {
    await this.players.forCaller(principal, playerId);
    const item = await this.owned(playerId, body.item_id);
    if (!isConsumable(this.game, item))
      throw refuse('not_consumable', `${item.name} (${item.type}) cannot be used up`, { item_id: item.id });
    await owning(
      playerId,
      item.id,
      this.store.changeStacks(playerId, [{ item_id: item.id, quantity: -1 }], 'use'),
    );
    const left = (await this.store.stacks(playerId)).find((s) => s.item_id === item.id)?.quantity ?? 0;
    return { item, effects: item.stats, remaining: left };
  }

  /** The item, when the player holds at least one; refused `not_owned` otherwise (unknown ids too). */
  private async owned(playerId: string, itemId: string): Promise<Item> {
    const stack = (await this.store.stacks(playerId)).find((s) => s.item_id === itemId);
    const item = stack && (await this.players.resolve([itemId])).get(itemId);
    if (!item) throw notOwned(playerId, itemId);
    return item;
  }
}
