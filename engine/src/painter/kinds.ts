import { ICON_SILHOUETTES, type IconSilhouette } from '@lootsmith/protocol';

/** Every item silhouette the painter draws, with the words that name it. */
const KIND_SYNONYMS: Record<IconSilhouette, string> = {
  sword:
    'sword swords longsword greatsword broadsword blade blades katana sabre saber scimitar rapier claymore falchion cutlass edge',
  dagger: 'dagger daggers knife dirk stiletto kris shiv katar fang',
  claws: 'claw claws talon talons',
  axe: 'axe axes hatchet battleaxe greataxe tomahawk cleaver reaver splitter',
  mace: 'mace morningstar club cudgel crusher',
  flail: 'flail flails',
  hammer: 'hammer warhammer maul mallet sledge',
  spear: 'spear spears lance pike javelin polearm partisan',
  trident: 'trident',
  halberd: 'halberd glaive bardiche poleaxe',
  scythe: 'scythe sickle reaper',
  whip: 'whip lash scourge',
  bow: 'bow longbow shortbow recurve warbow',
  crossbow: 'crossbow arbalest',
  arrow: 'arrow arrows bolts',
  quiver: 'quiver',
  staff: 'staff stave quarterstaff crook',
  wand: 'wand rod sceptre scepter',
  shield: 'shield bulwark aegis ward heater',
  kite_shield: 'kite',
  tower_shield: 'pavise',
  buckler: 'buckler targe',
  helmet: 'helmet helm greathelm visage bascinet',
  hood: 'hood cowl',
  crown: 'crown diadem tiara',
  circlet: 'circlet',
  thorn_crown: 'thorns',
  hat: 'hat',
  armor: 'armor armour chestplate breastplate cuirass brigandine',
  chainmail: 'chainmail mail hauberk',
  robe: 'robe robes raiment vestments gown',
  cloak: 'cloak cape mantle shroud',
  tunic: 'tunic jerkin doublet shirt',
  leggings: 'leggings pants trousers breeches legs',
  greaves: 'greaves legguards legplates cuisses',
  tassets: 'tassets tasset faulds',
  boots: 'boots boot shoes sandals treads striders',
  sabatons: 'sabatons sabaton warboots',
  gloves: 'gloves glove mittens handwraps',
  gauntlets: 'gauntlets gauntlet handguards grips fists',
  bracers: 'bracers bracer vambraces armguards wristguards',
  ring: 'ring signet band loop',
  amulet: 'amulet necklace pendant talisman charm locket medallion torc',
  belt: 'belt girdle sash',
  totem: 'totem idol fetish effigy',
  orb: 'orb sphere globe eye',
  potion: 'potion potions flask elixir tonic cordial draught brew philter bottle water consumable',
  essence: 'essence essences vial mote wisp ember spirit soul',
  dust: 'dust powder salt salts sand pigment',
  scroll: 'scroll parchment letter writ',
  map: 'map chart',
  bandage: 'bandage bandages gauze dressing poultice',
  bomb: 'bomb explosive keg',
  food: 'food bread loaf meat ham apple ration rations cheese fish pie steak drumstick',
  book: 'book journal manual diary',
  tome: 'tome grimoire spellbook codex',
  ore: 'ore nugget lode chunk rock',
  ingot: 'ingot ingots bar bullion',
  gem: 'gem gemstone jewel ruby sapphire emerald diamond amethyst topaz opal heart',
  crystal: 'crystal crystals shard shards prism geode',
  herb: 'herb herbs flower leaf leaves plant root petal blossom',
  mushroom: 'mushroom mushrooms fungus toadstool',
  hide: 'hide pelt fur leather scraps skin',
  cloth: 'cloth silk fabric linen wool textile',
  log: 'log logs wood plank planks timber lumber branch',
  coin: 'coin coins',
  bone: 'bone bones skull',
  feather: 'feather feathers plume quill',
  key: 'key',
  lockpick: 'lockpick lockpicks',
  lantern: 'lantern lamp',
  torch: 'torch',
  fishing_rod: 'fishingrod',
  pickaxe: 'pickaxe pick mattock',
  horn: 'horn bugle warhorn',
  bag: 'bag pouch sack satchel purse backpack knapsack container',
  chest: 'chest coffer lockbox crate strongbox trunk casket',
  gun: 'gun guns pistol pistols revolver revolvers blaster blasters handgun sidearm smartgun smartguns derringer raygun phaser',
  rifle: 'rifle rifles carbine carbines shotgun shotguns scattergun sniper railgun musket',
  grenade: 'grenade grenades frag',
  ammo: 'ammo ammunition bullet bullets rounds cartridge cartridges shells magazine',
  syringe: 'syringe syringes stim stims stimpak stimpack injector autoinjector hypo hypospray needle serum',
  medkit: 'medkit medkits medpack medpac firstaid',
  chip: 'chip chips microchip chipset processor circuit circuits wafer datachip',
  implant:
    'implant implants cyberware augment augmentation bionic bionics cybernetic cybernetics neuralware wetware ocular',
  terminal: 'terminal terminals cyberdeck cyberdecks deck decks laptop computer console keyboard datapad',
  battery: 'battery batteries cell cells powercell capacitor accumulator',
  canister: 'canister canisters tank tanks jerrycan cylinder barrel drum',
  visor: 'visor visors goggles glasses shades spectacles eyepiece',
  jacket: 'jacket jackets coat coats trenchcoat duster parka hoodie anorak windbreaker blazer',
  vest: 'vest vests waistcoat flak kevlar',
  wrench: 'wrench wrenches spanner spanners',
  screwdriver: 'screwdriver screwdrivers',
  seeds: 'seeds seed seedling packet',
  wheat: 'wheat grain grains barley oats rye sheaf corn crop crops hay rice',
  carrot: 'carrot carrots vegetable vegetables veggie turnip beet beetroot radish potato potatoes onion',
  dish: 'dish dishes bowl stew soup meal porridge curry broth chowder noodles',
  can: 'can cans tin tins canned',
  /** A clean generic icon in the prompt's colours, for what no other silhouette draws. */
  emblem: 'emblem badge insignia token',
};

export type ItemKind = IconSilhouette;
export const ITEM_KINDS: readonly ItemKind[] = ICON_SILHOUETTES;

const KIND_WORDS = new Map<string, ItemKind>();
for (const kind of ITEM_KINDS) for (const word of KIND_SYNONYMS[kind].split(' ')) KIND_WORDS.set(word, kind);

/** Names of more than one word, matched before single words. */
const PHRASES: Array<[RegExp, ItemKind]> = [
  [/\bcrowns? of thorns?\b|\bthorn(ed)? crown\b/, 'thorn_crown'],
  [/\bfishing (rod|pole)\b/, 'fishing_rod'],
  [/\btower shield\b/, 'tower_shield'],
  [/\bkite shield\b/, 'kite_shield'],
  [/\bround\b.*\bshield\b/, 'buckler'],
  [/\bchain ?(mail|shirt)\b/, 'chainmail'],
  [/\bchest\s*(armou?r|plate|piece|guard)\b/, 'armor'],
  [/\bplate (boots|shoes)\b/, 'sabatons'],
  [/\bplate (legs|leggings)\b/, 'greaves'],
  [/\bplate gloves\b/, 'gauntlets'],
  [/\bcodex leaf\b/, 'scroll'],
  [/\block ?picks?\b|\bthieves'? tools\b/, 'lockpick'],
  [/\bwizard'?s? hat\b/, 'hat'],
  [/\bfirst[- ]aid\b|\bmed(ical)? ?(kit|pack)\b/, 'medkit'],
  [/\bcircuit ?board\b/, 'chip'],
  [/\bneural (jack|link|port)\b/, 'implant'],
  [/\btin cans?\b/, 'can'],
];

/** A more specific kind and the generic kind it refines: a name's "Bulwark" gives way to "tower shield". */
const GENERIC: Partial<Record<ItemKind, ItemKind>> = {
  kite_shield: 'shield',
  tower_shield: 'shield',
  buckler: 'shield',
  sabatons: 'boots',
  gauntlets: 'gloves',
  greaves: 'leggings',
  tassets: 'leggings',
  hood: 'helmet',
  crown: 'helmet',
  circlet: 'helmet',
  thorn_crown: 'crown',
  hat: 'helmet',
  chainmail: 'armor',
  robe: 'armor',
  tunic: 'armor',
  cloak: 'armor',
  tome: 'book',
  crystal: 'gem',
  halberd: 'spear',
  trident: 'spear',
  crossbow: 'bow',
  flail: 'mace',
  claws: 'dagger',
  essence: 'potion',
  rifle: 'gun',
  grenade: 'bomb',
  jacket: 'armor',
  vest: 'armor',
  syringe: 'potion',
  medkit: 'bandage',
  dish: 'food',
  can: 'food',
  carrot: 'food',
};

/** Metal words that turn a soft kind into its plate form: iron boots are sabatons. */
const PLATED: Partial<Record<ItemKind, ItemKind>> = {
  boots: 'sabatons',
  gloves: 'gauntlets',
  leggings: 'greaves',
};
const METAL_WORDS = new Set([
  'plate',
  'plated',
  'iron',
  'steel',
  'mithril',
  'adamantite',
  'bronze',
  'armored',
]);

function isRefinement(specific: ItemKind, generic: ItemKind): boolean {
  for (let k = GENERIC[specific]; k; k = GENERIC[k]) if (k === generic) return true;
  return false;
}

/** The kind a piece of text names: a phrase first, else its last kind word (English puts the head noun last). */
function kindIn(text: string): ItemKind | undefined {
  for (const [pattern, kind] of PHRASES) if (pattern.test(text)) return kind;
  const words = text.match(/[a-z]+/g) ?? [];
  for (let i = words.length - 1; i >= 0; i--) {
    const kind = KIND_WORDS.get(words[i] as string);
    if (kind) return kind;
  }
  return undefined;
}

/**
 * The most specific kind a prompt names. The subject (first segment) decides; a later segment that
 * refines it ("Bulwark, … tower shield") wins, and metal words plate soft armour.
 */
export function kindOf(prompt: string): ItemKind | undefined {
  const segments = prompt.toLowerCase().split(',');
  const subject = segments[0] ?? '';
  const head = subject.split(/\bof\b/)[0] ?? subject;
  let kind = PHRASES.find(([pattern]) => pattern.test(subject))?.[1] ?? kindIn(head) ?? kindIn(subject);
  for (const segment of segments.slice(1)) {
    const other = kindIn(segment);
    if (!other) continue;
    if (!kind) kind = other;
    else if (isRefinement(other, kind)) kind = other;
    if (kind) break;
  }
  const plated = kind && PLATED[kind];
  const described = `${subject} ${segments[1] ?? ''}`.match(/[a-z]+/g) ?? [];
  if (plated && described.some((w) => METAL_WORDS.has(w))) kind = plated;
  return kind;
}

/**
 * The silhouette a prompt names outright in a tag of its own, "ring icon" or "emblem icon": what a
 * game chose for the item's type, which no word of the name overrides.
 */
export function declaredKind(prompt: string): ItemKind | undefined {
  for (const segment of prompt.toLowerCase().split(',').slice(1)) {
    const words = /^\s*([a-z][a-z ]*?)\s+icon\s*$/.exec(segment)?.[1];
    const kind = words?.replace(/\s+/g, '_');
    if (kind && (ITEM_KINDS as string[]).includes(kind)) return kind as ItemKind;
  }
  return undefined;
}
