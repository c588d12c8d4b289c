/** Every item silhouette the painter draws, with the words that name it. */
declare const KIND_SYNONYMS: {
    readonly sword: "sword swords longsword greatsword broadsword blade blades katana sabre saber scimitar rapier claymore falchion cutlass edge";
    readonly dagger: "dagger daggers knife dirk stiletto kris shiv katar fang";
    readonly claws: "claw claws talon talons";
    readonly axe: "axe axes hatchet battleaxe greataxe tomahawk cleaver reaver splitter";
    readonly mace: "mace morningstar club cudgel crusher";
    readonly flail: "flail flails";
    readonly hammer: "hammer warhammer maul mallet sledge";
    readonly spear: "spear spears lance pike javelin polearm partisan";
    readonly trident: "trident";
    readonly halberd: "halberd glaive bardiche poleaxe";
    readonly scythe: "scythe sickle reaper";
    readonly whip: "whip lash scourge";
    readonly bow: "bow longbow shortbow recurve warbow";
    readonly crossbow: "crossbow arbalest";
    readonly arrow: "arrow arrows bolts";
    readonly quiver: "quiver";
    readonly staff: "staff stave quarterstaff crook";
    readonly wand: "wand rod sceptre scepter";
    readonly shield: "shield bulwark aegis ward heater";
    readonly kite_shield: "kite";
    readonly tower_shield: "pavise";
    readonly buckler: "buckler targe";
    readonly helmet: "helmet helm greathelm visage bascinet";
    readonly hood: "hood cowl";
    readonly crown: "crown diadem tiara";
    readonly circlet: "circlet";
    readonly thorn_crown: "thorns";
    readonly hat: "hat";
    readonly armor: "armor armour chestplate breastplate cuirass brigandine";
    readonly chainmail: "chainmail mail hauberk";
    readonly robe: "robe robes raiment vestments gown";
    readonly cloak: "cloak cape mantle shroud";
    readonly tunic: "tunic vest jerkin doublet jacket coat shirt";
    readonly leggings: "leggings pants trousers breeches legs";
    readonly greaves: "greaves legguards legplates cuisses";
    readonly tassets: "tassets tasset faulds";
    readonly boots: "boots boot shoes sandals treads striders";
    readonly sabatons: "sabatons sabaton warboots";
    readonly gloves: "gloves glove mittens handwraps";
    readonly gauntlets: "gauntlets gauntlet handguards grips fists";
    readonly bracers: "bracers bracer vambraces armguards wristguards";
    readonly ring: "ring signet band loop";
    readonly amulet: "amulet necklace pendant talisman charm locket medallion torc";
    readonly belt: "belt girdle sash";
    readonly totem: "totem idol fetish effigy";
    readonly orb: "orb sphere globe eye";
    readonly potion: "potion potions flask elixir tonic cordial draught brew philter bottle water consumable";
    readonly essence: "essence essences vial mote wisp ember spirit soul";
    readonly dust: "dust powder salt salts sand pigment";
    readonly scroll: "scroll parchment letter writ";
    readonly map: "map chart";
    readonly bandage: "bandage bandages gauze dressing poultice";
    readonly bomb: "bomb grenade explosive keg";
    readonly food: "food bread loaf meat ham apple ration rations cheese fish pie steak drumstick";
    readonly book: "book journal manual diary";
    readonly tome: "tome grimoire spellbook codex";
    readonly ore: "ore nugget lode chunk rock";
    readonly ingot: "ingot ingots bar bullion";
    readonly gem: "gem gemstone jewel ruby sapphire emerald diamond amethyst topaz opal heart";
    readonly crystal: "crystal crystals shard shards prism geode";
    readonly herb: "herb herbs flower leaf leaves plant root petal blossom";
    readonly mushroom: "mushroom mushrooms fungus toadstool";
    readonly hide: "hide pelt fur leather scraps skin";
    readonly cloth: "cloth silk fabric linen wool textile";
    readonly log: "log logs wood plank planks timber lumber branch";
    readonly coin: "coin coins";
    readonly bone: "bone bones skull";
    readonly feather: "feather feathers plume quill";
    readonly key: "key";
    readonly lockpick: "lockpick lockpicks";
    readonly lantern: "lantern lamp";
    readonly torch: "torch";
    readonly fishing_rod: "fishingrod";
    readonly pickaxe: "pickaxe pick mattock";
    readonly horn: "horn bugle warhorn";
    readonly bag: "bag pouch sack satchel purse backpack knapsack container";
    readonly chest: "chest coffer lockbox crate strongbox trunk casket";
    /** A clean generic icon in the prompt's colours, for what no other silhouette draws. */
    readonly emblem: "emblem badge insignia token";
};
export type ItemKind = keyof typeof KIND_SYNONYMS;
export declare const ITEM_KINDS: ItemKind[];
/**
 * The most specific kind a prompt names. The subject (first segment) decides; a later segment that
 * refines it ("Bulwark, … tower shield") wins, and metal words plate soft armour.
 */
export declare function kindOf(prompt: string): ItemKind | undefined;
/**
 * The silhouette a prompt names outright in a tag of its own, "ring icon" or "emblem icon": what a
 * game chose for the item's type, which no word of the name overrides.
 */
export declare function declaredKind(prompt: string): ItemKind | undefined;
export {};
