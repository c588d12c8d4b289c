import type {
  DropGrantRequest,
  DropGrantResponse,
  GenerateItemsRequest,
  GenerateItemsResponse,
} from '@lootsmith/protocol';
import { assertActsFor, issuedAt, type Principal } from '../auth.ts';
import { knownEnemy, planDrop } from '../game/loot-authority.ts';
import { knownRarity, knownType } from '../game/rules.ts';
import type { PlayerService } from '../players/service.ts';
import { refuse } from '../refusal.ts';
import type { CoreDeps } from '../service/deps.ts';
import { reserve, withReservation } from '../service/reservations.ts';
import { mergeStacks } from '../store/store.ts';
import { generateLoot, type Loot, type LootDeps } from './generate.ts';
import { DropGrantVerifier, signDropGrant } from './grants.ts';
import { lootPlan } from './plan.ts';

/**
 * Loot drops, in one pass down: the plan (enemy, tier, level, limits) is settled once, the budget,
 * drop windows and grant reserved, the loot generated for that plan and granted in one transaction.
 */
export class DropService {
  private readonly grants: DropGrantVerifier;
  private readonly loot: LootDeps;

  constructor(
    private readonly deps: CoreDeps,
    private readonly players: PlayerService,
  ) {
    this.grants = new DropGrantVerifier(deps.serverKey, deps.game.loot_authority.grant_max_ttl_seconds);
    this.loot = { ...deps, materials: players.materials };
  }

  async generate(
    principal: Principal,
    body: GenerateItemsRequest,
    signal?: AbortSignal,
  ): Promise<GenerateItemsResponse> {
    assertActsFor(principal, body.client_id);
    const trusted = principal.kind === 'server';
    if (!trusted && body.items.some((i) => i.rarity))
      throw refuse('forbidden', 'Only the game server may choose rarities; players get rolled ones');
    body.items.forEach((item, i) => {
      if (item.type !== undefined) knownType(this.deps.game, item.type, `body.items.${i}.type`);
      if (item.rarity !== undefined) knownRarity(this.deps.game, item.rarity, `body.items.${i}.rarity`);
    });
    const player = await this.players.forCaller(principal, body.client_id);
    const grant = body.grant === undefined ? undefined : this.grants.check(body.grant);
    const ctx = body.generation_context ?? {};
    const site = planDrop(
      this.deps.game,
      player,
      { playerId: body.client_id, enemy: ctx.enemy, playerLevel: ctx.player_level, items: body.items.length },
      { trusted, grant },
    );
    // The level the game reports for the player: the grant's, or the one the request gives.
    const reported = grant?.level ?? ctx.player_level;
    if (reported !== undefined) this.deps.activity?.level(player.id, reported);
    // The request becomes one plan here: nothing below reads the body.
    const plan = lootPlan(this.deps.game, body, site, trusted);
    const windows = trusted
      ? []
      : [
          { key: `drop:m:${site.tier}:${player.id}`, windowMs: 60_000, max: site.limits.drops_per_minute },
          { key: `drop:h:${site.tier}:${player.id}`, windowMs: 3_600_000, max: site.limits.drops_per_hour },
        ];
    // Every item of a drop counts, materials too, though they need no model call.
    const release = await reserve(this.deps.store, player.id, 'items', plan.wants.length, {
      windows,
      grant: grant && { id: grant.id, playerId: player.id, expiresAt: grant.expiresAt },
      budgets: this.deps.budgets,
      issuedAt: issuedAt(principal),
    });
    const dropped = await withReservation(release, async () => {
      // Screened once the limits let the drop through (a moderation call costs); a refusal is given back.
      if (!trusted) await this.deps.content?.screenPlayer(player.id, plan.playerWords, release.textRefusedAt);
      const takenNames = plan.constraints.ensureUniqueness
        ? await this.deps.store.playerItemNames(player.id)
        : [];
      const dropped = await generateLoot(this.loot, { plan, takenNames, signal, supply: this.deps.pools });
      await this.grant(player.id, dropped, site.recordLevel);
      return dropped;
    });
    const pending = new Set(dropped.pendingIcons);
    const items = [...dropped.items, ...dropped.materials].map((i) =>
      i.icon && pending.has(i.icon.id) ? { ...i, icon: { ...i.icon, status: 'pending' as const } } : i,
    );
    return { items };
  }

  /**
   * Puts the loot in the player's inventory, recording the level served on the player's claim in the
   * same transaction; pooled items go back to their pool if that fails.
   */
  private async grant(playerId: string, loot: Loot, claimedLevel: number | undefined) {
    const stacks = mergeStacks(loot.materials.map((m) => ({ id: m.id, quantity: 1 })));
    await this.deps.store
      .grantLoot(playerId, loot.items, stacks, 'loot', { claimedLevel })
      .catch(async (err) => {
        await loot.giveBack();
        throw err;
      });
  }

  /** A single-use drop grant for one player, enemy and level, for the game server (the server credential) to hand out. */
  issueGrant(playerId: string, body: DropGrantRequest): DropGrantResponse {
    const { game, serverKey } = this.deps;
    if (!serverKey) throw new Error('drop grants need the server credential (LOOTSMITH_SERVER_KEY)');
    const enemy = knownEnemy(game, body.enemy);
    const ttl = Math.min(body.ttl_seconds ?? 60, game.loot_authority.grant_max_ttl_seconds);
    const grant = signDropGrant(serverKey, { playerId, enemy: enemy?.id, level: body.level }, ttl);
    return { grant, expires_at: new Date(Date.now() + ttl * 1000).toISOString() };
  }
}
