import { CombineVerdict, type GeneratedItem, GeneratedItemBatch, jsonSchemaOf } from '@lootsmith/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeCompletion } from '../src/writer/index.ts';

const itemSchema = jsonSchemaOf(GeneratedItemBatch);
const verdictSchema = jsonSchemaOf(CombineVerdict);

function items(user: string, seed?: number) {
  const { content } = writeCompletion({
    messages: [{ role: 'user', content: user }],
    response_format: { type: 'json_schema', json_schema: { schema: itemSchema } },
    seed,
  });
  return GeneratedItemBatch.parse(JSON.parse(content)).items;
}

function verdict(user: string, system?: string) {
  const { content } = writeCompletion({
    messages: [
      ...(system ? [{ role: 'system' as const, content: system }] : []),
      { role: 'user', content: user },
    ],
    response_format: { type: 'json_schema', json_schema: { schema: verdictSchema } },
  });
  return CombineVerdict.parse(JSON.parse(content));
}

function firstItem(user: string, seed?: number): GeneratedItem {
  const [item] = items(user, seed);
  if (!item) throw new Error('no item written');
  return item;
}

const statSum = (item: { stats: Array<{ value: number }> }) =>
  item.stats.reduce((sum, s) => sum + s.value, 0);

describe('procedural writer', () => {
  it('is deterministic: same messages and seed give the same bytes; another seed differs', () => {
    const request = {
      messages: [
        { role: 'user' as const, content: 'Generate 1 items.\nItem 1: type WEAPON; rarity RARE; level 10' },
      ],
      response_format: { type: 'json_object' as const },
    };
    expect(writeCompletion({ ...request, seed: 5 }).content).toBe(
      writeCompletion({ ...request, seed: 5 }).content,
    );
    expect(writeCompletion(request).content).toBe(writeCompletion(request).content);
    expect(writeCompletion({ ...request, seed: 6 }).content).not.toBe(
      writeCompletion({ ...request, seed: 5 }).content,
    );
  });

  it('keeps stats about, and never above, the stat budget, favouring the focus', () => {
    for (let seed = 0; seed < 50; seed++) {
      const item = firstItem(
        'Generate 1 items.\nItem 1: type ACCESSORY; rarity EPIC; level 20; stat budget 150; focus: luck',
        seed,
      );
      expect(statSum(item)).toBeLessThanOrEqual(150);
      expect(statSum(item)).toBeGreaterThanOrEqual(130);
      expect(item.stats[0]?.name).toBe('luck');
      expect(Math.max(...item.stats.map((s) => s.value))).toBe(item.stats[0]?.value);
    }
  });

  it('makes a level 30 LEGENDARY stronger than a level 2 COMMON without budgets given', () => {
    for (let seed = 0; seed < 20; seed++) {
      const strong = firstItem('Generate 1 items.\nItem 1: type WEAPON; rarity LEGENDARY; level 30', seed);
      const weak = firstItem('Generate 1 items.\nItem 1: type WEAPON; rarity COMMON; level 2', seed);
      expect(statSum(strong)).toBeGreaterThan(statSum(weak) * 3);
      expect(strong.effects.length).toBeGreaterThan(weak.effects.length);
      expect(strong.value).toBeGreaterThan(weak.value);
    }
  });

  it("raises each type's main stat a fifth a rarity when no line gives its range, at several levels", () => {
    // The writer's own fantasy game: the first stat each type leans to is its main stat.
    const main = {
      WEAPON: 'attack',
      SHIELD: 'defense',
      BOOTS: 'speed',
      ACCESSORY: 'magic',
      CONSUMABLE: 'health',
    };
    for (const level of [1, 10, 40])
      for (const [type, stat] of Object.entries(main)) {
        let below: number[] = [];
        for (const rarity of ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY', 'MYTHIC']) {
          const line = `type ${type}; rarity ${rarity}; level ${level}`;
          const values = items(
            `Generate 3 items.\nItem 1: ${line}\nItem 2: ${line}\nItem 3: ${line}`,
            level,
          ).map((item) => item.stats.find((s) => s.name === stat)?.value ?? 0);
          if (below.length)
            expect(Math.min(...values), `${type} ${rarity} ${level}`).toBeGreaterThanOrEqual(
              1.2 * Math.max(...below),
            );
          below = values;
        }
      }
  });

  it('themes by context: frost lair → frost element and names; fire → fire', () => {
    const frost = items(
      "Generate 3 items.\nContext: location: Frost Giant's Lair; enemy: Frost Giant (tier 4); theme: frost; player level: 30\nItem 1: type WEAPON; rarity EPIC; level 30\nItem 2: type HELMET; rarity RARE; level 30\nItem 3: type BOOTS; rarity LEGENDARY; level 30",
    );
    expect(frost.every((i) => i.element === 'frost')).toBe(true);
    const words = frost.map((i) => `${i.name} ${i.lore}`).join(' ');
    expect(words).toMatch(/frost|rime|glac|winter|ice|frozen|hoarfrost|boreal/i);
    const fire = items(
      'Generate 1 items.\nContext: location: Molten Forge; enemy: Fire Drake (tier 3); theme: fire; player level: 12\nItem 1: type WEAPON; rarity EPIC; level 12',
    );
    expect(fire[0]?.element).toBe('fire');
  });

  it('keeps names plain at temperature 0 and bolder at 1.5', () => {
    const ask = (temperature: number, seed: number) => {
      const { content } = writeCompletion({
        messages: [
          {
            role: 'user',
            content:
              'Generate 1 items.\nContext: theme: fire\nItem 1: type WEAPON; subtype: sword; rarity UNCOMMON; level 5',
          },
        ],
        response_format: { type: 'json_schema', json_schema: { schema: itemSchema } },
        temperature,
        seed,
      });
      return GeneratedItemBatch.parse(JSON.parse(content)).items[0]?.name ?? '';
    };
    const plain = Array.from({ length: 30 }, (_, seed) => ask(0, seed));
    const bold = Array.from({ length: 30 }, (_, seed) => ask(1.5, seed));
    expect(plain.every((n) => n.split(' ').length === 2)).toBe(true);
    expect(bold.some((n) => / of |, /.test(n))).toBe(true);
  });

  it('varies names over many drops in the same context', () => {
    const names = new Set<string>();
    for (let seed = 0; seed < 100; seed++) {
      names.add(
        firstItem(
          "Generate 1 items.\nContext: location: Frost Giant's Lair; theme: frost\nItem 1: type WEAPON; subtype: axe; rarity RARE; level 10",
          seed,
        ).name,
      );
    }
    expect(names.size).toBeGreaterThanOrEqual(70);
  });

  it('keeps the cues of the first message when the pipeline re-asks', () => {
    const first =
      'Generate 1 items.\nContext: theme: frost\nItem 1: type SHIELD; rarity EPIC; level 20; stat budget 100; focus: defense, health';
    const { content } = writeCompletion({
      messages: [
        { role: 'user', content: first },
        { role: 'assistant', content: '{"items": []}' },
        {
          role: 'user',
          content: 'That answer was rejected:\n- items: too small\nAnswer again with corrected JSON only.',
        },
      ],
      response_format: { type: 'json_schema', json_schema: { schema: itemSchema } },
    });
    const [item] = GeneratedItemBatch.parse(JSON.parse(content)).items;
    expect(item).toMatchObject({ type: 'SHIELD', rarity: 'EPIC', level: 20, element: 'frost' });
    expect(item?.stats[0]?.name).toBe('defense');
  });

  it('forges a create-item request from its materials and the player request', () => {
    const item = firstItem(
      'Generate 1 item.\nMaterials: 3 × Iron Ore (MATERIAL, iron, none); 1 × Venom Gland (MATERIAL, gland, poison)\nContext: station: Forge; player request: a wicked dagger\nItem 1: type WEAPON; rarity RARE; level 8; stat budget 70; focus: crit_chance',
    );
    expect(item).toMatchObject({ type: 'WEAPON', subtype: 'dagger', material: 'iron', element: 'poison' });
    expect(item.stats[0]?.name).toBe('crit_chance');
  });

  it('crafts an iron fire sword from iron ore and fire essence', () => {
    const v = verdict(
      'Combine: 2 × Iron Ore (MATERIAL, iron, none); 1 × Ember Essence (MATERIAL, essence, fire)\nStation: forge; tool: hammer\nPlayer intent: a flaming sword\nResult: rarity RARE; level 5; stat budget 60',
    );
    expect(v.sensible).toBe(true);
    expect(v.item).toMatchObject({ subtype: 'sword', element: 'fire', material: 'iron' });
    expect(statSum(v.item ?? { stats: [] })).toBeLessThanOrEqual(60);
  });

  it('improves an item combined with a material: its kind, stats and effects kept, what the material brings strengthened', () => {
    const axe =
      '1 × "Emberbite Axe" (WEAPON, "axe", "iron", fire) {"rarity":"UNCOMMON","level":20,"stats":{"attack":31,"speed":20},"effects":[{"id":"burn","params":{"damage":3,"seconds":2}}]}';
    // A game the request names: its own words are judged by what went in, not by the writer's lexicon.
    const ask = (intent: string) =>
      verdict(
        `Combine: ${axe}; 1 × "Ember Essence" (MATERIAL, "essence", "ember", fire)\nStation: "Forge" (makes WEAPON)\nPlayer intent: ${JSON.stringify(intent)}\nResult: rarity: UNCOMMON; level: 21; stat budget: 62; main stat: 31 to 33`,
        'Game: "Hearthfall"; theme: "fantasy"',
      );
    const v = ask('burn hotter and glow green');
    expect(v.sensible).toBe(true);
    expect(v.item).toMatchObject({ type: 'WEAPON', subtype: 'axe', element: 'fire', color: 'green' });
    const item = v.item as GeneratedItem;
    // Its stats, each at least what it was, the main stat (attack) in the range the result line gives.
    expect(item.stats.map((s) => s.name)).toEqual(['attack', 'speed']);
    const [attack, speed] = item.stats.map((s) => s.value) as [number, number];
    expect(attack).toBeGreaterThanOrEqual(31);
    expect(attack).toBeLessThanOrEqual(33);
    expect(speed).toBeGreaterThanOrEqual(20);
    expect(item.effects[0]).toEqual({ id: 'burn', params: { damage: 4, seconds: 2 } });
    // Asked for a change, the axe is not held to what it carried.
    const changed = ask('remove the burn and make it plain');
    expect(changed.item).toMatchObject({ type: 'WEAPON', subtype: 'axe' });
  });

  it.each([
    [
      'fire + frost',
      '1 × Ember Essence (MATERIAL, essence, fire); 1 × Frost Shard (MATERIAL, crystal, frost)',
    ],
    ['holy + shadow', '1 × Holy Water (MATERIAL, water, holy); 1 × Shadow Silk (MATERIAL, silk, shadow)'],
    ['poison + holy', '1 × Venom Gland (MATERIAL, gland, poison); 1 × Holy Water (MATERIAL, water, holy)'],
    ['only consumables', '2 × Health Potion (CONSUMABLE, potion, none); 1 × Bread (CONSUMABLE, food, none)'],
  ])('judges %s senseless, with 2–3 concrete suggestions', (_, combine) => {
    const v = verdict(
      `Combine: ${combine}\nStation: forge; tool: none\nPlayer intent: something strong\nResult: rarity RARE; level 5; stat budget 60`,
    );
    expect(v.sensible).toBe(false);
    expect(v.item).toBeNull();
    expect(v.message.length).toBeGreaterThan(10);
    expect(v.suggestions.length).toBeGreaterThanOrEqual(2);
    expect(v.suggestions.length).toBeLessThanOrEqual(3);
  });

  it('fills any schema of the z.toJSONSchema subset validly: enums, bounds, lengths, nullable, $ref/$defs', () => {
    const Stat = z.object({ name: z.enum(['str', 'dex']), value: z.int().min(-5).max(5) });
    const Monster = z.object({
      name: z.string().min(3).max(12),
      kind: z.literal('monster'),
      hp: z.number().min(10).max(20),
      level: z.int().gt(0).lt(4),
      tags: z.array(z.string().min(2).max(8)).min(2).max(3),
      stats: z.array(Stat).max(2),
      boss: z.boolean(),
      nickname: z.string().nullable(),
      loot: z.union([z.object({ gold: z.int().multipleOf(5).min(5).max(100) }), z.null()]),
    });
    const registry = z.registry<{ id: string }>();
    registry.add(Stat, { id: 'Stat' });
    const Lair = z.object({
      monsters: z.array(Monster).min(1).max(3),
      boss_stat: Stat,
      mood: z.enum(['grim', 'merry']).optional(),
    });
    const schema = z.toJSONSchema(Lair, { metadata: registry }) as Record<string, unknown>;
    expect(JSON.stringify(schema)).toContain('$ref');
    for (let seed = 0; seed < 30; seed++) {
      const { content } = writeCompletion({
        messages: [{ role: 'user', content: 'a lair of monsters' }],
        response_format: { type: 'json_schema', json_schema: { schema } },
        seed,
      });
      expect(Lair.safeParse(JSON.parse(content)).error).toBeUndefined();
    }
  });

  it('fills tuples, records, patterns and string formats', () => {
    const Odd = z.object({
      pair: z.tuple([z.string().min(1), z.int().min(3).max(4)]),
      tags: z.record(z.string(), z.number()),
      slug: z.string().regex(/^[a-z0-9_]+$/),
      email: z.email(),
      id: z.uuid(),
      when: z.iso.datetime(),
      site: z.url(),
    });
    const schema = z.toJSONSchema(Odd) as Record<string, unknown>;
    for (let seed = 0; seed < 10; seed++) {
      const { content } = writeCompletion({
        messages: [{ role: 'user', content: 'odd things' }],
        response_format: { type: 'json_schema', json_schema: { schema } },
        seed,
      });
      expect(Odd.safeParse(JSON.parse(content)).error).toBeUndefined();
    }
  });

  it('fills recursive schemas without running forever', () => {
    type Node = { name: string; children: Node[] };
    const Tree: z.ZodType<Node> = z.object({
      name: z.string(),
      get children() {
        return z.array(Tree).max(2);
      },
    });
    const schema = z.toJSONSchema(Tree) as Record<string, unknown>;
    const { content } = writeCompletion({
      messages: [{ role: 'user', content: 'tree' }],
      response_format: { type: 'json_schema', json_schema: { schema } },
    });
    expect(Tree.safeParse(JSON.parse(content)).success).toBe(true);
  });

  it('answers what was asked, in the persona of the system message, and honours stop', () => {
    const system = {
      role: 'system' as const,
      content: 'You are a grumpy dwarven blacksmith in the town of Ironhold.',
    };
    const trade = writeCompletion({
      messages: [system, { role: 'user', content: 'How much for that axe?' }],
    }).content;
    expect(trade).toMatch(/axe/i);
    expect(trade).toMatch(/gold|coin/i);
    const hello = writeCompletion({ messages: [system, { role: 'user', content: 'Hello!' }] }).content;
    expect(hello).toContain('grumpy dwarven blacksmith');
    const stopped = writeCompletion({ messages: [system, { role: 'user', content: 'Hello!' }], stop: ['.'] });
    expect(stopped.content).not.toContain('.');
    expect(hello.startsWith(stopped.content)).toBe(true);
  });

  it('counts tokens and truncates with finish_reason length', () => {
    const full = writeCompletion({
      messages: [{ role: 'user', content: 'Tell me about the frost giants.' }],
    });
    expect(full.finish_reason).toBe('stop');
    const cut = writeCompletion({
      messages: [{ role: 'user', content: 'Tell me about the frost giants.' }],
      max_tokens: 2,
    });
    expect(cut.finish_reason).toBe('length');
    expect(full.content.startsWith(cut.content)).toBe(true);
  });
});
