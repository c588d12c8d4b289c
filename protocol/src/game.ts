import { z } from 'zod';

/**
 * A game's rules and its vocabulary as data: what a developer writes (`GameFile`, every field
 * described: the JSON Schema `game-file.schema.json` is generated from it) and what the server runs
 * on once the defaults are filled in (`GameDefinition`, served at `GET /api/v1/game`).
 */

/** Ids of enemies, stations and materials: what requests and a game's code name them by. */
const Id = z.string().regex(/^[a-z0-9_]{1,64}$/, 'lower-case letters, digits and _ only');
/** Ids of the vocabulary items carry: types, slots, stats, elements, rarities, item fields. */
const WordId = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,31}$/, 'a letter, then letters, digits and _ (at most 32 characters)');
const Name = z.string().trim().min(1).max(64);
const Word = z.string().trim().min(2).max(40);

/** The rarities of docs/SPEC.md 2.6: a game that names none has these, from the most common up. */
export const SPEC_RARITIES = ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY', 'MYTHIC'] as const;

/** The element of an item that has none; every game has it, and no game may declare it. */
export const NO_ELEMENT = 'none';

export const RarityDefinition = z.strictObject({
  id: WordId.describe('What items carry in `rarity` ("RARE"). The list runs from the most common up.'),
  name: Name.optional().describe('How players read it; default: the id in title case ("Rare")'),
});

export const StatDefinition = z.strictObject({
  id: WordId.describe('What an item carries in `stats[].name` ("attack", "shielding")'),
  name: Name.optional().describe('How players read it; default: the id with spaces ("crit chance")'),
  kind: z
    .enum(['flat', 'percent'])
    .default('flat')
    .describe('flat: points ("+12 attack"); percent: a share ("+5% crit chance"). Writers word it so.'),
  types: z
    .array(WordId)
    .min(1)
    .optional()
    .describe('Item types (ids of `item_types`) that may carry it; default: every type'),
  description: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('What it does in play, in one line: models and the writer read it'),
});

export const ElementDefinition = z.strictObject({
  id: WordId.describe(
    'What items carry in `element` ("fire", "plasma"). Every game also has "none", which no file declares.',
  ),
  name: Name.optional().describe('How players read it; default: the id in title case'),
  resist: WordId.optional().describe(
    'The stat (an id of `stats`) that resists it, if the game has one: the writer gives it to items of this element',
  ),
  opposes: z
    .array(WordId)
    .default([])
    .describe('Elements it cancels out: a craft that mixes them is refused'),
  words: z
    .array(Word)
    .default([])
    .describe(
      'Words that reveal it in a place, an enemy or a request ("volcano", "ember"); the offline writer reads them',
    ),
});

export const ItemTypeDefinition = z.strictObject({
  id: WordId.describe('What items carry in `type` ("WEAPON", "IMPLANT")'),
  name: Name.optional().describe('How players read it; default: the id in lower case ("implant")'),
  slot: WordId.optional().describe(
    'The equipment slot it is worn in ("MAIN_HAND"); several types may share one. Without a slot it is carried, not worn.',
  ),
  consumable: z
    .boolean()
    .default(false)
    .describe('Used up: `use-item` spends one and answers its stats as effects for the game to apply'),
  stackable: z
    .boolean()
    .default(false)
    .describe(
      "The type of the game's crafting materials: they stack by id, and a drop of this type gives one of `materials`, never a generated item",
    ),
  strikes: z
    .boolean()
    .default(false)
    .describe('It hits things: only affixes of striking types may act on a hit'),
  main_stat: WordId.optional().describe(
    'The stat item cards compare for it ("defense" for a shield): each rarity raises it by at least a fifth over the rarity below, at the same level. Default: the first of its primary_stats, else the first stat it may carry',
  ),
  subtypes: z
    .array(Word)
    .default([])
    .describe(
      'What an item of the type can be ("sword", "plasma cutter"); the writer picks among them. Default: the offline writer\'s own words for the id, else its name.',
    ),
  icon: z
    .string()
    .regex(/^[a-z_]{2,32}$/, 'a silhouette of the offline painter, in lower case')
    .optional()
    .describe(
      'The offline painter\'s silhouette for it ("ring", "potion", …, see docs/GAME-FILE.md), or "emblem" for a clean generic icon; default: read from each item\'s name',
    ),
});

export const ItemFieldDefinition = z.strictObject({
  id: WordId.describe(
    'The key items carry it under ("durability"); not one of the item\'s own fields (name, stats, …)',
  ),
  type: z.enum(['integer', 'number', 'string', 'boolean']).describe('Its JSON type'),
  description: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('What it means in play: models and the writer read it'),
  minimum: z.number().optional().describe('For a number: its least value'),
  maximum: z.number().optional().describe('For a number: its greatest value'),
  values: z
    .array(z.string().trim().min(1).max(64))
    .min(1)
    .max(64)
    .optional()
    .describe('For a string: the values it may take'),
  max_length: z
    .int()
    .min(1)
    .max(400)
    .default(64)
    .describe('For a string without `values`: its longest length'),
  types: z
    .array(WordId)
    .min(1)
    .optional()
    .describe(
      'Item types that carry it: every generated item of these types has it. Default: every type but stackable ones.',
    ),
});

/** One number of an effect: its unit, and the range an item's value is clamped to. */
export const EffectParamDefinition = z.strictObject({
  unit: z
    .string()
    .trim()
    .min(1)
    .max(16)
    .optional()
    .describe('What the number counts ("%", "s", "damage"): how item cards word it'),
  min: z.number().min(0).describe('Its least value on any item'),
  max: z.number().min(0).describe('Its greatest value on any item'),
  per_rarity: z
    .number()
    .min(0)
    .optional()
    .describe(
      "How far its ceiling rises per rarity step above the most common: an item's value is at most min + per_rarity × step + per_level × level, never above max. Without per_rarity and per_level the ceiling is max.",
    ),
  per_level: z.number().min(0).optional().describe('How far its ceiling rises per item level'),
});

/** An effect the game implements: items carry its id and numbers, and the game applies them. */
export const EffectDefinition = z.strictObject({
  id: Id.describe('What items carry in `effects[].id` ("life_steal"); the game\'s code acts on it'),
  name: Name.describe('How players read it ("Life Steal")'),
  text: z
    .string()
    .trim()
    .min(4)
    .max(160)
    .describe(
      'What it does in play, in one line, with its params in braces ("Heals you for {percent}% of the damage you deal"): item cards show it with the item\'s numbers',
    ),
  types: z
    .array(WordId)
    .min(1)
    .describe('Item types (ids of `item_types`) that may carry it ("WEAPON", "GLOVES")'),
  elements: z
    .array(WordId)
    .optional()
    .describe(
      'Elements (ids of `elements`) it belongs to ("burn": fire): no item of an element that opposes one of them carries it; default: the elements its id or name names',
    ),
  params: z
    .record(Id, EffectParamDefinition)
    .default({})
    .describe(
      'Its numbers by name ("percent", "seconds"), each with the range an item\'s value is clamped to',
    ),
});

/** Words the offline writer builds names and text from, for a game whose theme it does not know. */
export const WriterWords = z.strictObject({
  tone: z
    .string()
    .trim()
    .max(120)
    .optional()
    .describe('How names and text should sound ("terse, technical, a little grim")'),
  prefixes: z.array(Word).max(200).default([]).describe('Words that open a name ("Salvaged", "Overclocked")'),
  suffixes: z
    .array(z.string().trim().min(2).max(40))
    .max(200)
    .default([])
    .describe('Phrases that close a name ("of the Outer Belt")'),
  materials: z
    .array(Word)
    .max(200)
    .default([])
    .describe('What items are made of ("titanium", "carbon weave")'),
  adjectives: z.array(Word).max(200).default([]).describe('How an item looks ("scorched", "humming")'),
  lore: z
    .array(z.string().trim().min(8).max(160))
    .max(200)
    .default([])
    .describe(
      'Clauses of history about an item, written with {it}, {its}, {them}, {is}, {has} and {verb}s in braces so they agree with the noun ("{it} still {hums} with a dead ship\'s power")',
    ),
});

/** What a player may ask of one enemy tier: items per drop, and drops in a minute and in an hour. */
export const DropLimits = z.strictObject({
  max_items: z.int().min(1).max(8).describe('Most items one drop holds'),
  drops_per_minute: z.int().min(1).describe('Drops a player may ask for in a minute'),
  drops_per_hour: z.int().min(1).describe('Drops a player may ask for in an hour'),
});
export type DropLimits = z.infer<typeof DropLimits>;

const LootAuthorityFile = z.strictObject({
  mode: z
    .enum(['open', 'grant'])
    .default('open')
    .describe(
      'open: players ask for drops themselves, within the limits, and their level claims are checked against what the server recorded; grant: every player drop carries a grant signed by the game server (docs/SECURITY.md)',
    ),
  drop_limits: z
    .array(DropLimits)
    .min(1)
    .optional()
    .describe(
      'Limits by enemy tier: drop_limits[i] belongs to tier i+1 (one entry serves every tier). Default: 2 items per drop and 20 drops a minute at tier 1, fewer drops of more items each tier up.',
    ),
  first_level_max: z
    .int()
    .min(1)
    .max(100)
    .default(5)
    .describe("The highest level a player's first claim is served at, when the game server has set no level"),
  level_step: z
    .int()
    .min(0)
    .max(100)
    .default(1)
    .describe('How far above the highest level served before a claim may go'),
  grant_max_ttl_seconds: z.int().min(5).max(3600).default(300).describe('Longest lifetime of a drop grant'),
});

const LootPoolsFile = z.strictObject({
  locations: z
    .array(z.string().trim().min(1).max(64))
    .max(64)
    .default([])
    .describe(
      "Locations (rooms, zones) that get loot pools of their own; a drop anywhere else uses the enemy's",
    ),
  // Warming ahead: where players go next, and which enemy tiers a player level meets.
  rooms: z
    .array(
      z.strictObject({
        name: Name.describe('The location a drop names (generation_context.location), in any case'),
        enemies: z.array(Id).max(64).default([]).describe('Ids of the enemies met there'),
        next_to: z
          .array(Name)
          .max(16)
          .default([])
          .describe('Names of the rooms a player walks into from it (each way is listed once, either side)'),
      }),
    )
    .max(200)
    .default([])
    .describe(
      "The game's map, for warming pools ahead: the pools of a room's neighbours' enemies are filled while players are in it; the first room is where players start (default none: pools warm the tier-1 enemies at start)",
    ),
  tier_levels: z
    .array(z.int().min(1).max(100))
    .min(1)
    .optional()
    .describe(
      'The player level from which each enemy tier is met: tier_levels[i] belongs to tier i+1, rising. Pools warm the enemies of the tiers a player is about to meet. Default none: no warming by tier',
    ),
});

const Weights = z.record(WordId, z.number().min(0));

const ImageForwardFile = z.strictObject({
  max_size: z.int().min(16).max(768).default(512).describe("Largest width and height of a player's image"),
  max_steps: z.int().min(1).max(50).default(15).describe("Most steps a player's image is painted with"),
});

const ChatForwardFile = z.strictObject({
  max_tokens: z
    .int()
    .min(16)
    .max(32_768)
    .default(1024)
    .describe("Most tokens a player's raw chat completion may ask for (and is given when it asks none)"),
});

/** A word or phrase of a game's own allow or deny list: letters, digits, spaces, ' and -. */
const FilterWord = z
  .string()
  .trim()
  .min(2)
  .max(64)
  .regex(/^[\p{L}\p{N}' -]+$/u, "letters, digits, spaces, ' and - only");

const ContentFilterFile = z.strictObject({
  allow: z
    .array(FilterWord)
    .max(1000)
    .default([])
    .describe('Words of the game\'s world the profanity list would refuse ("bastard sword")'),
  deny: z.array(FilterWord).max(1000).default([]).describe('Words the game refuses on top of the list'),
  restrict_after: z
    .strictObject({
      refusals: z.int().min(1).max(1000).default(5).describe("Refusals of a player's own text…"),
      hours: z
        .int()
        .min(1)
        .max(24 * 30)
        .default(24)
        .describe("…within this many hours restrict the player's free text for the rest of them"),
    })
    .prefault({})
    .describe('When a player whose text is refused again and again loses free text for a while'),
});

const CraftingFile = z.strictObject({
  levels_per_crafting_level: z
    .number()
    .min(0)
    .max(10)
    .default(0.5)
    .describe("A crafted item's level is its best ingredient's plus this many per crafting level…"),
  max_levels_above_player: z
    .int()
    .min(0)
    .max(100)
    .default(2)
    .describe("…but never more than this many levels above the player's level (nor above max_item_level)"),
  rarity_step_quantity: z
    .int()
    .min(1)
    .default(5)
    .describe('The result is one rarity above its best ingredient for this many ingredients in all…'),
  rarity_step_crafting_levels: z
    .int()
    .min(0)
    .default(5)
    .describe('…and one more for each this many crafting levels (0: skill does not raise rarity)…'),
  max_rarity: WordId.optional().describe('…up to this rarity; default: the second rarest'),
  xp_factor_by_rarity: Weights.optional().describe(
    "Crafting XP is the route's XP (combine.xp, create_item.xp) times the factor of the result's rarity; default: 1 for the most common, more for each rarity up",
  ),
});

const StatBudgetFile = z.strictObject({
  base: z.number().positive().default(6).describe('Stat points of a level-0 item of the most common rarity'),
  per_level: z.number().positive().default(2).describe('Stat points added per item level'),
  rarity_multiplier: z
    .record(WordId, z.number().positive())
    .optional()
    .describe(
      '(base + per_level × level) is multiplied by this, per rarity; default: 1, then ×1.3 each rarity up',
    ),
  tolerance: z
    .number()
    .min(1)
    .default(1.1)
    .describe('How far above the budget a generated item may go before it is re-asked'),
});

const ItemLimitsFile = z.strictObject({
  value_per_budget_point: z
    .number()
    .positive()
    .default(25)
    .describe('Most gold an item is worth, per point of its stat budget'),
  affixes_by_rarity: z
    .record(WordId, z.int().min(0).max(4))
    .optional()
    .describe(
      'Most effects (of `effects`) an item of each rarity carries; default: 1, 1, 2, 3, 4, 4… from the most common up',
    ),
  on_hit_types: z
    .array(WordId)
    .optional()
    .describe(
      'Older files: the types whose affixes may act on a hit. Prefer `strikes` on item_types; when given, this list decides.',
    ),
});

const MaterialFile = z.strictObject({
  id: Id.describe('The id requests and inventories name it by ("iron_ore")'),
  name: Name.describe('How players read it'),
  description: z
    .string()
    .trim()
    .min(1)
    .max(400)
    .optional()
    .describe('One line about it; default: "<name>, a crafting material."'),
  rarity: WordId.optional().describe('Its rarity; default: the most common'),
  element: WordId.optional().describe(
    'Its element (an id of `elements`), if it carries one; crafting passes it on',
  ),
  type: WordId.optional().describe('Its item type, a stackable one; default: the first stackable type'),
});

const EnemyFile = z.strictObject({
  id: Id.describe('The id drops name it by ("cave_troll")'),
  name: Name.describe('How the writer names it'),
  tier: z
    .int()
    .min(1)
    .max(100)
    .default(1)
    .describe('How strong it is: picks loot_tables[tier-1] and loot_authority.drop_limits[tier-1]'),
  element: WordId.optional().describe('Its element (an id of `elements`): its drops mostly carry it'),
});

const StationFile = z.strictObject({
  id: Id.describe('The id crafting requests name it by ("forge")'),
  name: Name.describe('How players and the writer name it'),
  min_level: z.int().min(0).max(100).default(0).describe('Crafting level needed to use it at all'),
  types: z
    .array(WordId)
    .min(1)
    .optional()
    .describe('Item types it makes; default: every type that is not stackable'),
  tools: z.array(z.string().trim().min(1).max(64)).default([]).describe('Tools a request may name at it'),
});

/** A colour as a game file writes it: `#rrggbb` (either case; what reads it reads it in lower case). */
const HexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb');

/** The game's own art for its icons: what every backend is told, and what is enforced on every icon. */
export const ArtFile = z.strictObject({
  palette: z
    .array(HexColour)
    .min(2)
    .max(64)
    .optional()
    .describe(
      "The game's palette (2–64 colours, #rrggbb): every opaque pixel of every icon is one of them; default: any colour",
    ),
  pixel_size: z
    .int()
    .min(16)
    .max(64)
    .nullable()
    .default(null)
    .describe(
      'Icons are drawn on an N×N pixel grid and scaled up to icon_size by nearest neighbour (each cell one colour, alpha hard); null: smooth art',
    ),
  outline: HexColour.nullable()
    .default(null)
    .describe('A one-cell outline in this colour around every icon’s subject; null: none'),
  style: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Style words every backend is told ("16-bit pixel art, top lit, bold shapes"); default: icon_style',
    ),
  avoid: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Words every backend is told to avoid ("photorealistic, gradients, text"): a negative prompt where the backend takes one',
    ),
  references: z
    .array(z.string().trim().min(1).max(300))
    .max(8)
    .default([])
    .describe(
      "Up to 8 PNG, JPEG or WebP files of the game's own icons, paths relative to the game file: given to backends that take reference images",
    ),
});

/** What a developer writes: everything a small game need not decide has a default. */
export const GameFile = z
  .strictObject({
    $schema: z
      .string()
      .optional()
      .describe('The JSON Schema of this file, for editors: "game-file.schema.json"'),
    name: Name.describe("The game's name"),
    theme: z
      .string()
      .trim()
      .min(1)
      .max(120)
      .optional()
      .describe(
        'What the game is, for models and the writer ("dark fantasy dungeon crawler"); default: "role-playing game"',
      ),
    icon_style: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .default('game item, fantasy')
      .describe(
        'Style tags after every icon prompt (docs/SPEC.md 2.3): "game item, fantasy", "game item, sci-fi, clean"',
      ),
    icon_size: z
      .int()
      .min(16)
      .max(512)
      .default(128)
      .describe(
        'Side in pixels of the square PNG every icon is made into, whatever a backend paints (128 covers a 64 px slot at 2×)',
      ),
    art: ArtFile.prefault({}).describe(
      "Icons in the game's own art: its palette, pixel grid, outline, style words and reference icons (docs/GAME-FILE.md); without it, each backend's own look",
    ),
    currency: z
      .string()
      .trim()
      .min(1)
      .max(24)
      .optional()
      .describe(
        'What items are worth in ("gold", "credits"); a game without one gives every item a value of 0, and item cards show none',
      ),
    icon_palette: z
      .array(z.string().trim().min(2).max(24))
      .max(4)
      .default([])
      .describe('Colour words every icon is painted in ("teal", "orange"), most important first'),
    rarities: z
      .array(RarityDefinition)
      .min(1)
      .max(12)
      .optional()
      .describe(
        'The rarity ladder, most common first; default: COMMON, UNCOMMON, RARE, EPIC, LEGENDARY, MYTHIC',
      ),
    stats: z
      .array(StatDefinition)
      .min(1)
      .max(64)
      .optional()
      .describe("What items' stats may be; default: the shipped fantasy game's"),
    elements: z
      .array(ElementDefinition)
      .max(32)
      .optional()
      .describe(
        'The elements or damage types items may carry besides "none"; default: the shipped fantasy game\'s',
      ),
    item_types: z
      .array(ItemTypeDefinition)
      .min(1)
      .max(64)
      .optional()
      .describe(
        "What items may be, and which are worn (and where), used up or stacked; default: the shipped fantasy game's",
      ),
    effects: z
      .array(EffectDefinition)
      .max(64)
      .optional()
      .describe(
        "The effects the game implements beyond stats (life steal, burn on hit, …): items carry only these, with numbers within their ranges; default: the shipped fantasy game's, for the item types the file has",
      ),
    item_fields: z
      .array(ItemFieldDefinition)
      .max(16)
      .default([])
      .describe(
        "Fields of the game's own that generated items carry (durability, weight, required_class, …)",
      ),
    writer: WriterWords.optional().describe(
      'Words for the offline writer when the game is not a fantasy one; a hosted model writes any theme without them',
    ),
    tiers: z
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe('How many enemy tiers the game has; default: the highest tier its enemies or tables name'),
    materials: z
      .array(MaterialFile)
      .min(1)
      .max(500)
      .describe('Crafting materials: they stack and are never generated'),
    enemies: z
      .array(EnemyFile)
      .max(1000)
      .default([])
      .describe('Enemies drops may name; a drop naming none counts as tier 1'),
    loot_tables: z
      .array(Weights)
      .min(1)
      .optional()
      .describe(
        'Rarity weights by enemy tier: loot_tables[i] belongs to tier i+1 (one table serves every tier); a rarity left out never drops. Default: mostly the commonest rarities at tier 1, rarer ones each tier up.',
      ),
    level_luck: z
      .number()
      .min(0)
      .max(0.1)
      .default(0.01)
      .describe(
        "Each player level above 1 moves this share of each rarity's weight one rarity up (at most half)",
      ),
    loot_types: z
      .array(WordId)
      .min(1)
      .optional()
      .describe('Item types a drop rolls among when it names none; default: every type'),
    stat_budget: StatBudgetFile.prefault({}).describe(
      'Stat points an item may carry: (base + per_level × level) × rarity_multiplier of its rarity',
    ),
    item_limits: ItemLimitsFile.prefault({}).describe(
      'Bounds on what a model writes beyond stats; every generated item is checked against them',
    ),
    primary_stats: z
      .record(WordId, z.array(WordId).min(1))
      .prefault({})
      .describe(
        'Stats each item type leans to, first most ("WEAPON": ["attack", "crit_chance"]); the first is the type\'s main stat unless item_types names one',
      ),
    max_item_level: z.int().min(1).max(100).default(60).describe('The highest item level'),
    drop_level_over: z
      .int()
      .min(0)
      .max(100)
      .default(0)
      .describe(
        "How many levels above the player's level a dropped item may be (an enemy's tier raises a drop's level up to this bound); 0: never above the player",
      ),
    stations: z.array(StationFile).min(1).max(100).describe('Crafting stations'),
    xp_per_level: z
      .int()
      .positive()
      .default(100)
      .describe('Crafting level is crafting XP ÷ this, rounded down'),
    create_item: z
      .strictObject({
        min_level_by_rarity: Weights.optional().describe(
          'Crafting level needed to create an item of each rarity; default: 0, 1, 2, 4, 6… from the most common up',
        ),
        xp: z.int().min(0).default(40).describe('Crafting XP for a created item (times its rarity factor)'),
        per_hour: z
          .int()
          .min(1)
          .default(5)
          .describe('Create-items one player may ask for per hour (docs/SPEC.md 4.3.1: 5)'),
      })
      .prefault({})
      .describe(
        'Creating an item from materials (POST /api/v1/player/{id}/create-item); its rarity gates hold on every crafting route',
      ),
    combine: z
      .strictObject({
        xp: z.int().min(0).default(15).describe('Crafting XP for a combination (times its rarity factor)'),
        discovery_xp: z.int().min(0).default(35).describe('Extra XP the first time a recipe is found'),
        per_minute: z
          .int()
          .min(1)
          .default(10)
          .describe('Combines one player may send to the model per minute…'),
        per_hour: z.int().min(1).default(120).describe('…and per hour'),
      })
      .prefault({})
      .describe('Combining items (POST /api/v1/crafting/combine)'),
    crafting: CraftingFile.prefault({}).describe('How crafting turns ingredients and skill into a result'),
    starting_materials: z
      .array(
        z.strictObject({
          id: Id.describe('A material id'),
          quantity: z.int().min(1).max(999).describe('How many'),
        }),
      )
      .default([])
      .describe('What a new player starts with'),
    loot_authority: LootAuthorityFile.prefault({}).describe(
      'How far a player token is believed when it asks for loot',
    ),
    loot_pools: LootPoolsFile.prefault({}).describe(
      'What loot pools (LOOTSMITH_POOLS=1) are split by beyond enemy, level band and item type',
    ),
    image_forward: ImageForwardFile.prefault({}).describe(
      'What a player may ask of the image forward (POST /v1/image/generations); the server credential is not bound by it',
    ),
    chat_forward: ChatForwardFile.prefault({}).describe(
      'What a player may ask of the raw chat forward (POST /v1/chat/completions, on with LOOTSMITH_ALLOW_CHAT=1): the configured model only; the server credential is not bound by it',
    ),
    content_filter: ContentFilterFile.prefault({}).describe(
      "The game's own words for its text filter (a maintained profanity and slur list is always on)",
    ),
    default_budgets: z
      .strictObject({
        daily_items: z.int().min(0).default(500).describe('Items a player may be given a day'),
        daily_images: z.int().min(0).default(200).describe('Images a player may have painted a day'),
      })
      .prefault({})
      .describe(
        "Daily budgets of a player the game server set none for, in production (elsewhere unlimited); PATCH /api/v1/player/{id} sets a player's own",
      ),
  })
  .describe('A Lootsmith game definition (docs/GAME-FILE.md)');
export type GameFile = z.input<typeof GameFile>;

/** A game's rules as data, its defaults filled in: the server runs on it, and serves it at `GET /api/v1/game`. */
export const GameDefinition = GameFile.omit({ $schema: true })
  .extend({
    rarities: z.array(RarityDefinition.required()),
    stats: z.array(StatDefinition.required({ id: true, name: true, kind: true })),
    elements: z.array(ElementDefinition.required({ id: true, name: true })),
    item_types: z.array(ItemTypeDefinition.required({ id: true, name: true })),
    item_fields: z.array(ItemFieldDefinition.required({ id: true, types: true })),
    effects: z.array(EffectDefinition.required({ params: true })),
    theme: z.string(),
    tiers: z.int().min(1),
    materials: z.array(MaterialFile.required({ description: true, rarity: true, type: true })),
    loot_tables: z.array(Weights),
    loot_types: z.array(WordId),
    stat_budget: StatBudgetFile.required({ rarity_multiplier: true }),
    item_limits: ItemLimitsFile.required({ affixes_by_rarity: true }),
    stations: z.array(StationFile.required({ types: true })),
    create_item: z.strictObject({
      min_level_by_rarity: Weights,
      xp: z.int().min(0),
      per_hour: z.int().min(1),
    }),
    crafting: CraftingFile.required({ max_rarity: true, xp_factor_by_rarity: true }),
    loot_authority: LootAuthorityFile.required({ drop_limits: true }),
  })
  .describe('A game definition with its defaults filled in');
export type GameDefinition = z.output<typeof GameDefinition>;

export type RarityDefinition = GameDefinition['rarities'][number];
export type StatDefinition = GameDefinition['stats'][number];
export type ElementDefinition = GameDefinition['elements'][number];
export type ItemTypeDefinition = GameDefinition['item_types'][number];
export type ItemFieldDefinition = GameDefinition['item_fields'][number];
export type EffectDefinition = GameDefinition['effects'][number];
export type EffectParamDefinition = EffectDefinition['params'][string];
export type WriterWords = z.output<typeof WriterWords>;
export type LootAuthority = GameDefinition['loot_authority'];
export type CraftingRules = GameDefinition['crafting'];
export type ImageForward = GameDefinition['image_forward'];
export type ContentFilter = GameDefinition['content_filter'];
export type IconArt = GameDefinition['art'];

/** Bounds z.int() writes for every integer; a reader of the schema learns nothing from them. */
const SAFE = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

function withoutSafeBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeBounds);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !((key === 'minimum' || key === 'maximum') && SAFE.has(value as number)))
      .map(([key, value]) => [key, withoutSafeBounds(value)]),
  );
}

/**
 * The JSON Schema of a game file (draft-07, which editors read), every field described: shipped as
 * `game-file.schema.json` beside the example games, which name it in `$schema`.
 */
export function gameFileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(GameFile, { io: 'input', target: 'draft-7', unrepresentable: 'any' });
  return { ...(withoutSafeBounds(schema) as Record<string, unknown>), title: 'Lootsmith game definition' };
}
