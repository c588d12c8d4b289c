import type { GameDefinition, Item } from '@lootsmith/protocol';

/** The item level the rarity table is read at. */
export const RARITY_LEVEL = 20;
/** How far each rarity should raise a type's main stat over the rarity below. */
const STEP = 1.2;

type Drop = (body: unknown) => Promise<{ status: number; body: unknown }>;

/** One type's main stat at each rarity: every value seen at the table's level, and the typical one. */
export interface RarityRow {
  type: string;
  stat: string;
  cells: Array<{ rarity: string; values: number[]; typical: number | undefined }>;
}

const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.floor((sorted.length - 1) / 2)] as number) : undefined;
};

/**
 * The game server asks for every rarity of every type the game makes, for a player of the table's
 * level, until at least four items of each have dropped at that level (a drop lands up to two levels
 * below the player): the main stat of each type (`item_types[].main_stat`) as players compare it.
 */
export async function rarityTable(drop: Drop, game: GameDefinition): Promise<RarityRow[]> {
  const rows: RarityRow[] = [];
  for (const type of game.item_types.filter((t) => !t.stackable && t.main_stat)) {
    const stat = type.main_stat as string;
    const cells: RarityRow['cells'] = [];
    for (const { id: rarity } of game.rarities) {
      const values: number[] = [];
      for (let ask = 0; ask < 6 && values.length < 4; ask++) {
        const res = await drop({
          client_id: `report-rarity-${type.id}`,
          generation_context: { player_level: RARITY_LEVEL },
          items: Array.from({ length: 8 }, () => ({ type: type.id, rarity })),
        });
        for (const item of (res.body as { items?: Item[] }).items ?? [])
          if (item.level === RARITY_LEVEL) values.push(item.stats.find((s) => s.name === stat)?.value ?? 0);
      }
      cells.push({ rarity, values, typical: median(values) });
    }
    rows.push({ type: type.id, stat, cells });
  }
  return rows;
}

/** Each step up a rarity, typical over typical, and whether every item beat every item below by a fifth. */
function steps(row: RarityRow) {
  return row.cells.slice(1).map((cell, i) => {
    const below = row.cells[i] as RarityRow['cells'][number];
    const ratio = cell.typical && below.typical ? cell.typical / below.typical : undefined;
    const every =
      cell.values.length > 0 &&
      below.values.length > 0 &&
      Math.min(...cell.values) >= STEP * Math.max(...below.values);
    return { ratio, every };
  });
}

/** "all 25 steps ≥ 1.2× (typical); every item a fifth above every item below in 25": the summary's cell. */
export function raritySummary(rows: RarityRow[]): string {
  const all = rows.flatMap(steps);
  const typical = all.filter((s) => s.ratio !== undefined && s.ratio >= STEP).length;
  const every = all.filter((s) => s.every).length;
  return `${typical} of ${all.length} steps ≥ ${STEP}× (typical); every item in ${every} of ${all.length}`;
}

/** The table of one game: a row per type, its main stat's typical value per rarity and each step's ratio. */
export function rarityTableText(
  game: GameDefinition,
  rows: RarityRow[],
  table: (head: string[], rows: Array<Array<string | number>>) => string,
): string {
  const count = rows.reduce((a, r) => a + r.cells.reduce((b, c) => b + c.values.length, 0), 0);
  return `Rarity by main stat: the stat item cards compare for each type (\`item_types[].main_stat\`), its typical (median) value at item level ${RARITY_LEVEL} for each rarity, and in brackets how far each rarity raises it over the one below (goal: ≥ ${STEP}× every step), over ${count} items the game server asked for: ${raritySummary(rows)}.

${table(
  ['type', 'main stat', ...game.rarities.map((r) => r.name)],
  rows.map((row) => {
    const ratios = steps(row);
    return [
      row.type,
      row.stat,
      ...row.cells.map((cell, i) => {
        const ratio = i > 0 ? ratios[i - 1]?.ratio : undefined;
        const typical = cell.typical === undefined ? '–' : String(cell.typical);
        return i === 0 ? typical : `${typical} (${ratio === undefined ? '–' : `×${ratio.toFixed(2)}`})`;
      }),
    ];
  }),
)}`;
}
