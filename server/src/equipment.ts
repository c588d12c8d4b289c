import type {
  EquipmentResponse,
  EquipRequest,
  Item,
  ItemType,
  UseItemRequest,
  UseItemResponse,
} from '@lootsmith/protocol';
import { assertActsFor, type Principal } from './auth.ts';
import { equipmentSlots, isConsumable, statTotals } from './game/equipment.ts';
import { ApiError, reasonError } from './http/errors.ts';
import type { Lootsmith } from './lootsmith.ts';
import { InsufficientError } from './store/store.ts';

const notOwned = (playerId: string, itemId: string) =>
  reasonError(400, 'not_owned', `Player ${playerId} does not own item ${itemId}`, { item_id: itemId });

/**
 * Equipment and consumables as plain methods: the game's rules decide what may be worn where and
 * what may be used; every refusal is checked before, and again inside, the one transaction that
 * changes anything, so a refused action changes nothing.
 */
export class Equipment {
  readonly slots: ItemType[];

  constructor(private readonly lootsmith: Lootsmith) {
    this.slots = equipmentSlots(lootsmith.deps.game);
  }

  private get store() {
    return this.lootsmith.deps.store;
  }

  async view(principal: Principal, playerId: string): Promise<EquipmentResponse> {
    assertActsFor(principal, playerId);
    await this.lootsmith.player(playerId);
    const worn = await this.store.equipment(playerId);
    const items = await this.lootsmith.resolve(worn.map((w) => w.item_id));
    const bySlot = new Map(worn.map((w) => [w.slot, items.get(w.item_id)]));
    const slots = this.slots.map((slot) => ({ slot, item: bySlot.get(slot) ?? null }));
    return {
      player_id: playerId,
      slots,
      stats: statTotals(slots.flatMap((s) => (s.item ? [s.item] : []))),
    };
  }

  async equip(principal: Principal, playerId: string, body: EquipRequest): Promise<EquipmentResponse> {
    assertActsFor(principal, playerId);
    await this.lootsmith.player(playerId);
    const item = await this.owned(playerId, body.item_id);
    if (!this.slots.includes(item.type))
      throw reasonError(400, 'not_equippable', `${item.name} (${item.type}) cannot be worn`, {
        item_id: item.id,
        slots: this.slots,
      });
    if (body.slot && body.slot !== item.type)
      throw reasonError(400, 'wrong_slot', `${item.name} goes in the ${item.type} slot, not ${body.slot}`, {
        item_id: item.id,
        slot: item.type,
      });
    try {
      await this.store.equip(playerId, item.type, item.id);
    } catch (err) {
      throw err instanceof InsufficientError ? notOwned(playerId, item.id) : err;
    }
    return this.view(principal, playerId);
  }

  async unequip(principal: Principal, playerId: string, slot: ItemType): Promise<EquipmentResponse> {
    assertActsFor(principal, playerId);
    await this.lootsmith.player(playerId);
    if (!this.slots.includes(slot))
      throw new ApiError(400, 'unknown_slot', `This game has no ${slot} slot`, {
        details: { slots: this.slots },
      });
    await this.store.unequip(playerId, slot);
    return this.view(principal, playerId);
  }

  /** Spends one consumable; its stats are the effects the game applies. */
  async use(principal: Principal, playerId: string, body: UseItemRequest): Promise<UseItemResponse> {
    assertActsFor(principal, playerId);
    await this.lootsmith.player(playerId);
    const item = await this.owned(playerId, body.item_id);
    if (!isConsumable(item))
      throw reasonError(400, 'not_consumable', `${item.name} (${item.type}) cannot be used up`, {
        item_id: item.id,
      });
    try {
      await this.store.changeStacks(playerId, [{ item_id: item.id, quantity: -1 }], 'use');
    } catch (err) {
      throw err instanceof InsufficientError ? notOwned(playerId, item.id) : err;
    }
    const left = (await this.store.stacks(playerId)).find((s) => s.item_id === item.id)?.quantity ?? 0;
    return { item, effects: item.stats, remaining: left };
  }

  /** The item, when the player holds at least one; 400 `not_owned` otherwise (unknown ids too). */
  private async owned(playerId: string, itemId: string): Promise<Item> {
    const stack = (await this.store.stacks(playerId)).find((s) => s.item_id === itemId);
    const item = stack && (await this.lootsmith.resolve([itemId])).get(itemId);
    if (!item) throw notOwned(playerId, itemId);
    return item;
  }
}
