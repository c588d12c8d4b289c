import { describe, expect, it } from 'vitest';
import { paintImage } from '../src/painter/index.ts';
import { ITEM_KINDS, type ItemKind } from '../src/painter/kinds.ts';
import { chooseLook } from '../src/painter/look.ts';
import { ELEMENT_PALETTES } from '../src/painter/palettes.ts';
import { readPrompt } from '../src/painter/prompt.ts';
import { hashString, Rng } from '../src/random.ts';
import { SUBTYPE_NOUNS, TYPE_SUBTYPES } from '../src/writer/lexicon.ts';
import { decodePng, differingPixels } from './support.ts';

/** Icon prompts as the Lootsmith server writes them (name, element material subtype, rarity, style), one per kind. */
const PROMPTS: Record<ItemKind, string> = {
  sword: 'Duskforged Edge, shadow shadowsteel sword, rare',
  dagger: 'Viperfang Stiletto, poison venom-etched iron dagger, uncommon',
  claws: 'Raking Talons, bone claws, rare',
  axe: 'Frostbite, frost rime-forged steel axe, legendary',
  mace: 'Templar Morningstar, holy blessed gold mace, epic',
  flail: 'Grim Flail, iron flail, common',
  hammer: 'Stormbound Sledge, lightning stormsteel hammer, rare',
  spear: 'Dawn Lance, holy sunsilver spear, uncommon',
  trident: "Tidecaller's Trident, frost trident, epic",
  halberd: 'Warden Glaive, steel halberd, rare',
  scythe: 'Soulreaper Scythe, shadow scythe, epic',
  whip: 'Scourge of Cinders, fire leather whip, rare',
  bow: 'Galeborn Recurve, lightning skyiron bow, rare',
  crossbow: 'Siege Arbalest, oak crossbow, uncommon',
  arrow: 'Frost-tipped Arrows, frost arrows, common',
  quiver: "Ranger's Quiver, leather quiver, common",
  staff: 'Crook of Whispers, shadow ebon bone staff, rare',
  wand: 'Pyre Scepter, fire emberstone wand, uncommon',
  shield: 'Bulwark of Valor, steel shield, rare',
  kite_shield: 'Crusader Kite Shield, holy kite shield, epic',
  tower_shield: 'Bulwark of the Void, shadow obsidian tower shield, epic',
  buckler: "Duelist's Buckler, round wooden shield, common",
  helmet: 'Dread Visage, shadow shadowsteel helmet, epic',
  hood: 'Hood of the Void, shadow silk hood, epic',
  crown: 'Dread Crown, shadow shadowsteel helmet, legendary',
  circlet: 'Moonlit Circlet, silver circlet, rare',
  thorn_crown: 'Crown of Thorns, blightwood crown, epic',
  hat: "Wizard's Hat, purple cloth hat, rare",
  armor: 'Radiant Cuirass, holy sunsilver chestplate, epic',
  chainmail: 'Shadowbound Mail, shadow shadowsteel chestplate, rare',
  robe: 'Gloomweave Raiment, shadow silk robe, rare',
  cloak: 'Mantle of Midnight, shadow cloth cloak, epic',
  tunic: 'Hunter Jerkin, leather tunic, common',
  leggings: 'Wanderer Trousers, linen leggings, common',
  greaves: 'Umbral Legguards, shadow shadowsteel greaves, epic',
  tassets: 'Tassets of Dread, shadow shadowsteel greaves, epic',
  boots: 'Wayfarer Treads, leather boots, common',
  sabatons: 'Eclipse Sabatons, shadow shadowsteel boots, epic',
  gloves: 'Silken Grasp Gloves, silk gloves, uncommon',
  gauntlets: 'Iron Grips, iron gauntlets, common',
  bracers: 'Archer Vambraces, leather bracers, uncommon',
  ring: 'Signet of the Dawn, holy gold ring, rare',
  amulet: 'Locket of Mercy, holy gold amulet, rare',
  belt: "Warden's Girdle, leather belt, common",
  totem: 'Spirit Idol, wood totem, rare',
  orb: 'Orb of Storms, lightning thunder crystal orb, epic',
  potion: 'Tonic of Mending, glass potion, common',
  essence: 'Ember Essence, fire emberstone essence, rare',
  dust: 'Arcane Dust, arcane dust, uncommon',
  scroll: 'Tempest Codex Leaf, lightning parchment scroll, uncommon',
  map: "Smuggler's Chart, parchment map, rare",
  bandage: 'Linen Bandage, bandage, common',
  bomb: 'Black Powder Bomb, iron bomb, uncommon',
  food: 'Travel Rations, bread, common',
  book: "Hunter's Journal, leather book, common",
  tome: 'Grimoire of Forgotten Souls, shadow tome, epic',
  ore: 'Glacial Lode, frost glacial iron ore, common',
  ingot: 'Stormsteel Ingot, lightning stormsteel ingot, uncommon',
  gem: 'Heart of the Mountain, ruby gem, rare',
  crystal: 'Frost Shard, frost crystal, rare',
  herb: 'Healing Herb, herb, common',
  mushroom: 'Cave Toadstool, mushroom, common',
  hide: 'Wolf Pelt, hide, common',
  cloth: 'Bolt of Silk, silk cloth, uncommon',
  log: 'Oak Timber, oak log, common',
  coin: 'Ancient Coins, gold coin, common',
  bone: 'Giant Skull, bone, rare',
  feather: 'Phoenix Plume, fire feather, epic',
  key: 'Crypt Key, iron key, rare',
  lockpick: "Thieves' Lockpicks, steel lockpick, uncommon",
  lantern: 'Miner Lantern, iron lantern, common',
  torch: 'Pitch Torch, wood torch, common',
  fishing_rod: 'Angler Fishing Rod, wood fishing rod, common',
  pickaxe: 'Deepdelver Pickaxe, iron pickaxe, common',
  horn: 'War Horn of the North, horn, rare',
  bag: 'Grim Pouch, shadow leather pouch, uncommon',
  chest: "Smuggler's Coffer, wood chest, rare",
  gun: 'Overclocked Smartgun, polymer smartgun, rare',
  rifle: 'Wasteland Carbine, steel rifle, uncommon',
  grenade: 'Pineapple Frag, steel grenade, common',
  ammo: 'Hollow Points, brass ammo, common',
  syringe: 'Combat Stim, glass syringe, uncommon',
  medkit: 'Trauma Medkit, medkit, common',
  chip: 'Cortex Chip, silicon chip, rare',
  implant: 'Reflex Booster, chrome implant, epic',
  terminal: 'Ghost Cyberdeck, black cyberdeck, epic',
  battery: 'Power Cell, battery, common',
  canister: 'Fuel Canister, steel canister, common',
  visor: 'Tactical Visor, visor, rare',
  jacket: 'Street Jacket, leather jacket, uncommon',
  vest: 'Kevlar Vest, kevlar vest, rare',
  wrench: 'Rusty Spanner, iron wrench, common',
  screwdriver: 'Precision Screwdriver, steel screwdriver, common',
  seeds: 'Pumpkin Seeds, seeds, common',
  wheat: 'Golden Wheat, wheat, common',
  carrot: 'Garden Carrot, carrot, common',
  dish: 'Hearty Stew, stew, common',
  can: 'Canned Beans, tin can, common',
  emblem: 'Neural Jack, titanium neural jack, rare, emblem icon',
};

const SIZE = 64;
const paint = (prompt: string, seed?: number) =>
  paintImage({ prompt: `${prompt}, game item, fantasy`, width: SIZE, height: SIZE, steps: 12, seed });

describe('painter kinds', () => {
  it(`reads the most specific kind for each of the ${ITEM_KINDS.length} kinds`, () => {
    expect(ITEM_KINDS.length).toBeGreaterThanOrEqual(70);
    for (const kind of ITEM_KINDS) expect(readPrompt(PROMPTS[kind]).kind, PROMPTS[kind]).toBe(kind);
  });

  it('resolves the reported look-alikes to their own kinds', () => {
    const cases: Array<[string, ItemKind]> = [
      ['Arcane Dust, arcane dust, common', 'dust'],
      ['Ember Essence, a vial of fire, rare', 'essence'],
      ['Iron Sabatons, iron plate boots, rare', 'sabatons'],
      ['Iron Boots, iron boots, common', 'sabatons'],
      ['Leather Boots, leather boots, common', 'boots'],
      ['Umbral Legguards, shadow greaves, epic', 'greaves'],
      ['Tassets of Dread, shadow greaves, epic', 'tassets'],
      ['a trident', 'trident'],
      ['an old brass lantern', 'lantern'],
      ['a fishing rod', 'fishing_rod'],
      ['the crown of thorns', 'thorn_crown'],
      ['a hunting horn', 'horn'],
      ['Healing Herb Pouch, leather pouch', 'bag'],
      ['Sword of the Ember Essence', 'sword'],
    ];
    for (const [prompt, kind] of cases) expect(readPrompt(prompt).kind, prompt).toBe(kind);
  });

  it('paints every kind as a valid PNG, the same bytes for the same prompt and seed', () => {
    for (const kind of ITEM_KINDS) {
      const a = paint(PROMPTS[kind], 7);
      expect(a.equals(paint(PROMPTS[kind], 7)), kind).toBe(true);
      const png = decodePng(a);
      expect([png.width, png.height]).toEqual([SIZE, SIZE]);
      const filled = png.rgba.filter((v, i) => i % 4 === 3 && v > 127).length;
      expect(filled, kind).toBeGreaterThan(SIZE * SIZE * 0.06);
    }
  });

  it('never gives two different names of one kind the same pixels, with or without one seed', () => {
    const names = ['Umbral', 'Dread', 'Eclipse', 'Hollow', 'Iron', 'Oathbound'];
    for (const kind of ITEM_KINDS) {
      const noun = kind.replace('_', ' ');
      for (const seed of [undefined, 42]) {
        const icons = names.map((name) => decodePng(paint(`${name} ${noun}, ${noun}, rare`, seed)));
        icons.forEach((icon, i) => {
          for (let j = 0; j < i; j++)
            expect(
              differingPixels(icon, icons[j] as typeof icon),
              `${kind}: ${names[i]} vs ${names[j]}`,
            ).toBeGreaterThan(0);
        });
      }
    }
    // Hundreds of paintings: 12 s on a loaded CI core, over the unit suites' 20 s on a busier one.
  }, 60_000);

  it('varies one kind visibly with the name, not by a stray pixel', () => {
    const names = ['Umbral Legguards', 'Warden Greaves', 'Greaves of Valor', 'Runed Greaves'];
    const icons = names.map((name) => decodePng(paint(`${name}, steel greaves, rare`)));
    icons.forEach((icon, i) => {
      for (let j = 0; j < i; j++)
        expect(differingPixels(icon, icons[j] as typeof icon)).toBeGreaterThan(SIZE * SIZE * 0.05);
    });
  });

  it('colours one element with several palettes', () => {
    for (const [element, palettes] of Object.entries(ELEMENT_PALETTES)) {
      expect(palettes.length, element).toBeGreaterThanOrEqual(3);
      expect(new Set(palettes.map((p) => p.ramp.join())).size, element).toBe(palettes.length);
      const used = new Set<string>();
      for (let i = 0; i < 24; i++) {
        const reading = readPrompt(`Item ${i}, ${element} sword`);
        used.add(String(chooseLook('sword', reading, new Rng(hashString(`Item ${i}`))).ramp?.join()));
      }
      expect(used.size, element).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('painter and writer agree', () => {
  it('has a silhouette for every subtype the writer produces and every noun it names them by', () => {
    for (const subtypes of Object.values(TYPE_SUBTYPES)) {
      for (const subtype of subtypes) {
        const kind = readPrompt(`Thing, leather ${subtype}, rare`).kind;
        expect(kind, subtype).toBeDefined();
        const key = Object.keys(SUBTYPE_NOUNS)
          .filter((k) => subtype.includes(k))
          .sort((a, b) => b.length - a.length)[0];
        for (const noun of SUBTYPE_NOUNS[key ?? ''] ?? []) {
          // The name alone must name a kind, and one of the same family as the subtype's.
          const named = readPrompt(noun).kind;
          expect(named, `${noun} (${subtype})`).toBeDefined();
          const both = readPrompt(`Old ${noun}, leather ${subtype}, rare`).kind as ItemKind;
          expect([kind, named], `${noun} (${subtype}) → ${both}`).toContain(both);
        }
      }
    }
  });
});
