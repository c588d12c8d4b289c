import { filtered, type SqlDialect, sql } from '../../store/statement.ts';

type Count = number | string;

export interface PlayerSqlRow {
  id: string;
  level: number | null;
  claimed_level: number | null;
  blocked: number;
  crafting_xp: number;
  daily_items: number | null;
  daily_images: number | null;
  created_at: string;
  stacks: Count;
  requests: number | null;
  drops: number | null;
  crafts: number | null;
  refusals: number | null;
  tokens: Count | null;
  images: number | null;
  spend: Count | null;
  last_at: Count | null;
  reported_level: number | null;
  reported_at: Count | null;
}

const PLAYER_COLUMNS = `p.id, p.level, p.claimed_level, p.blocked, p.crafting_xp, p.daily_items, p.daily_images,
  p.created_at, (SELECT COUNT(*) FROM inventory i WHERE i.player_id = p.id) AS stacks,
  s.requests, s.drops, s.crafts, s.refusals, s.tokens, s.images, s.spend, s.last_at,
  s.level AS reported_level, s.level_at AS reported_at`;

/** The console's players: paged by position (keyset) on the primary key or `player_stats_recent`. */
export function playerStatements(d: SqlDialect) {
  return {
    playersById: filtered<PlayerSqlRow>(
      `SELECT ${PLAYER_COLUMNS} FROM players p LEFT JOIN player_stats s ON s.player_id = p.id
        {where} ORDER BY p.id LIMIT $limit`,
      { prefix: d.startsWith('p.id'), after_id: 'p.id > $after_id' },
    ),
    /** Only players with recorded activity, the most recent first. */
    playersRecent: filtered<PlayerSqlRow>(
      `SELECT ${PLAYER_COLUMNS} FROM player_stats s JOIN players p ON p.id = s.player_id
        {where} ORDER BY s.last_at DESC, s.player_id DESC LIMIT $limit`,
      {
        prefix: d.startsWith('s.player_id'),
        after_id: '(s.last_at, s.player_id) < ($after_at, $after_id)',
      },
    ),
    countPlayers: filtered<{ n: Count }>('SELECT COUNT(*) AS n FROM players {where}', {
      prefix: d.startsWith('id'),
    }),
    playerDetail: sql<PlayerSqlRow>(
      `SELECT ${PLAYER_COLUMNS} FROM players p LEFT JOIN player_stats s ON s.player_id = p.id WHERE p.id = $id`,
    ),
    playerRequests: sql<{
      player_id: string;
      at: Count;
      route: string;
      status: number;
      code: string | null;
      ms: number;
      request_id: string | null;
    }>(
      `SELECT player_id, at, route, status, code, ms, request_id FROM player_requests
        WHERE player_id = $id ORDER BY at DESC LIMIT $limit`,
    ),
  };
}
