import type { DropLimits, GameDefinition } from '@lootsmith/protocol';
import type { VerifiedDropGrant } from '../drops/grants.ts';
import { refuse } from '../refusal.ts';
import type { PlayerRecord } from '../store/store.ts';
import { clampLevel, findEnemy } from './rules.ts';

export type GameEnemy = GameDefinition['enemies'][number];

/**
 * Where and for whom a drop happens, settled once before anything is reserved: generation and the
 * loot pools take it as it is.
 */
export interface DropSite {
  /** The game's enemy; undefined when the drop names none, or one only the game server knows (tier 1). */
  enemy: GameEnemy | undefined;
  tier: number;
  playerLevel: number;
  /** The drop limits of the enemy's tier. */
  limits: DropLimits;
}

export interface DropPlan extends DropSite {
  /** A level to record as served on the player's claim, with the drop's grant. */
  recordLevel?: number;
}

const unknownEnemy = (game: GameDefinition, name: string) => {
  const enemies = game.enemies.map((e) => e.id);
  return refuse('unknown_enemy', `The game has no enemy "${name}"; its enemies: ${enemies.join(', ')}`, {
    enemies,
  });
};

/** The enemy a request names, if it names one; refused `unknown_enemy` when the game has no such enemy. */
export function knownEnemy(game: GameDefinition, name: string | undefined) {
  const enemy = findEnemy(game, name);
  if (name && !enemy) throw unknownEnemy(game, name);
  return enemy;
}

/** The limits of an enemy tier; tiers past the end of the list use its last entry. */
export function dropLimits(game: GameDefinition, tier: number): DropLimits {
  const limits = game.loot_authority.drop_limits;
  return limits[Math.min(tier, limits.length) - 1] ?? (limits[0] as DropLimits);
}

/**
 * The level a player's own claim is served at: never above the level the game server set, and
 * without one, never more than `level_step` above the highest level served before (the first claim
 * at most `first_level_max`). `record` is the level to remember once the drop succeeds.
 */
export function servedLevel(
  game: GameDefinition,
  player: PlayerRecord,
  claim: number | undefined,
): { level: number; record?: number } {
  if (player.level !== null) return { level: Math.min(claim ?? player.level, player.level) };
  const known = player.claimed_level;
  if (claim === undefined) return { level: known ?? 1 };
  const { first_level_max, level_step } = game.loot_authority;
  const level = Math.min(claim, known === null ? first_level_max : known + level_step);
  return { level, record: level };
}

/** What a drop request claims: for whom, against which enemy, at which level, how many items. */
export interface DropClaim {
  playerId: string;
  /** The enemy as the request names it. */
  enemy?: string;
  playerLevel?: number;
  items: number;
}

export interface DropCaller {
  /** The server credential: the game server itself, believed as it asks. */
  trusted: boolean;
  /** A grant the request carried, checked against the server credential (not yet spent). */
  grant?: VerifiedDropGrant;
}

const mismatch = (what: string) =>
  refuse('grant_mismatch', `The request names another ${what} than its drop grant`);

/**
 * Settles what a drop may be before anything is reserved or generated: the enemy exists, the item
 * count fits its tier, the level is the grant's or a checked claim, and in `grant` mode a player
 * has a grant. Throws the refusal; changes nothing.
 */
export function planDrop(
  game: GameDefinition,
  player: PlayerRecord,
  claim: DropClaim,
  { trusted, grant }: DropCaller,
): DropPlan {
  if (grant && grant.playerId !== claim.playerId)
    throw refuse('grant_invalid', 'This drop grant belongs to another player');
  if (!grant && !trusted && game.loot_authority.mode === 'grant')
    throw refuse(
      'grant_required',
      'This game hands out loot only with a drop grant from its game server (body.grant)',
    );
  const asked = findEnemy(game, claim.enemy);
  const enemy = grant ? findEnemy(game, grant.enemy) : asked;
  if (grant && claim.enemy && asked?.id !== enemy?.id) throw mismatch('enemy');
  if (grant && claim.playerLevel !== undefined && claim.playerLevel !== grant.level) throw mismatch('level');
  // The game server may name enemies the definition lacks (tier 1); a player may not.
  const named = grant ? grant.enemy : claim.enemy;
  if (!trusted && named && !enemy) throw unknownEnemy(game, named);
  const tier = enemy?.tier ?? 1;
  const limits = dropLimits(game, tier);
  if (!trusted && claim.items > limits.max_items)
    throw refuse(
      'too_many_items',
      `A tier ${tier} drop has at most ${limits.max_items} item${limits.max_items > 1 ? 's' : ''}, not ${claim.items}`,
    );
  const level: { level: number; record?: number } =
    trusted && !grant
      ? { level: claim.playerLevel ?? 1 }
      : grant
        ? { level: grant.level }
        : servedLevel(game, player, claim.playerLevel);
  return { enemy, tier, limits, playerLevel: clampLevel(game, level.level), recordLevel: level.record };
}
