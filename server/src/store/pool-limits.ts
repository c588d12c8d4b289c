import type { PoolRefusal, PoolSlotRequest } from './store.ts';

export const POOL_BUDGET_WINDOW_MS = 3_600_000;
/** The `rate_limits` row that counts a game's pool generations in the current hour. */
export const poolBudgetKey = (game: string) => `pool:gen:${game}`;
/** The row that counts the pool generations one player's draws asked for in the current hour. */
export const poolShareKey = (game: string, player: string) => `pool:gen:${game}:player:${player}`;

/** How many of the wanted slots fit under every limit, and which limit cut the number short. */
export function poolRoom(
  request: Pick<PoolSlotRequest, 'wants' | 'bucketMax' | 'totalMax' | 'hourlyMax' | 'payer'>,
  used: { bucket: number; total: number; spent: number; share?: number },
): { n: number; refused?: PoolRefusal } {
  let n = request.wants.length;
  let refused: PoolRefusal | undefined;
  const limits: Array<[number, PoolRefusal]> = [
    [request.bucketMax - used.bucket, 'bucket_full'],
    [request.totalMax - used.total, 'total_full'],
    [request.hourlyMax - used.spent, 'budget'],
  ];
  if (request.payer) limits.push([request.payer.max - (used.share ?? 0), 'player_share']);
  for (const [free, why] of limits)
    if (free < n) {
      n = Math.max(0, free);
      refused = why;
    }
  return { n, refused };
}
