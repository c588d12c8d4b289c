import type { Item, Recipe } from '@lootsmith/protocol';
import type { PlayerRecord } from './store.ts';

/** Row shapes and their mapping to records, shared by the SQLite and PostgreSQL stores. */
export interface PlayerRow {
  id: string;
  crafting_xp: number;
  blocked: number;
  daily_items: number | null;
  daily_images: number | null;
  level: number | null;
  claimed_level: number | null;
}

export const toPlayer = ({
  id,
  crafting_xp,
  blocked,
  daily_items,
  daily_images,
  level,
  claimed_level,
}: PlayerRow): PlayerRecord => ({
  id,
  crafting_xp,
  blocked: blocked === 1,
  daily_items,
  daily_images,
  level,
  claimed_level,
});

export interface RecipeRow {
  key: string;
  template: string;
  ingredients: string;
  station: string | null;
  tool: string | null;
  created_at: string;
}

export const RECIPES_OF_PLAYER = `SELECT r.key, r.template, r.ingredients, r.station, r.tool, d.created_at
  FROM discoveries d JOIN recipes r ON r.key = d.recipe_key WHERE d.player_id = $1 ORDER BY d.created_at`;

export const toRecipe = (r: RecipeRow): Recipe => ({
  key: r.key,
  ingredients: JSON.parse(r.ingredients),
  crafting_station: r.station,
  crafting_tool: r.tool,
  result_name: (JSON.parse(r.template) as Item).name,
  discovered_at: r.created_at,
});

/** Worn items the player still owns ($1: the player). */
export const EQUIPMENT_OF_PLAYER = `SELECT e.slot, e.item_id FROM equipment e
  JOIN inventory i ON i.player_id = e.player_id AND i.item_id = e.item_id
  WHERE e.player_id = $1 ORDER BY e.slot`;

export const now = () => new Date().toISOString();
