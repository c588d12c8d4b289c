import { paintImage, writeCompletion } from '@lootsmith/engine';
import { CombineVerdict, GeneratedItemBatch, jsonSchemaOf } from '@lootsmith/protocol';
import type { BenchRow } from './row.ts';

const PROMPTS = [
  'Frostbite, legendary frost axe, game item, fantasy',
  'red health potion, game item, fantasy',
  'steel chest armour, game item, realistic',
  'golden ring, game item, cartoon',
  'dwarf warrior, character portrait, fantasy',
  'fireball, skill icon, fantasy',
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Median wall time of one paint, after a warm-up, over the prompts in turn with distinct seeds. */
function paintMedian(size: number, steps: number, runs: number): number {
  for (let i = 0; i < 5; i++)
    paintImage({ prompt: PROMPTS[i % PROMPTS.length] as string, width: size, height: size, steps });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    paintImage({ prompt: PROMPTS[i % PROMPTS.length] as string, width: size, height: size, steps, seed: i });
    times.push(performance.now() - start);
  }
  return median(times);
}

const LOOT = `Generate 2 items.
Context: location: Frost Giant's Lair; enemy: Frost Giant (tier 4); theme: frost; player level: 30
Item 1: type WEAPON; subtype: axe; rarity LEGENDARY; level 30; stat budget 240; focus: attack
Item 2: type CONSUMABLE; rarity RARE; level 28; stat budget 90
Naming style: epic`;

/** The item pipeline's request for one seed: schema in the system message and in response_format. */
function itemRequests() {
  const schema = jsonSchemaOf(GeneratedItemBatch);
  const system = `You generate game items as JSON matching this JSON Schema:\n${JSON.stringify(schema)}`;
  return (seed: number) => ({
    messages: [
      { role: 'system' as const, content: system },
      { role: 'user' as const, content: LOOT },
    ],
    response_format: { type: 'json_schema' as const, json_schema: { name: 'items', schema } },
    seed,
  });
}

/** JSON item completions per second, the way the item pipeline asks: schema in system message and response_format. */
function completionsPerSecond(seconds: number): number {
  const request = itemRequests();
  for (let i = 0; i < 200; i++) writeCompletion(request(i));
  let count = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) writeCompletion(request(count++));
  }
  return count / ((performance.now() - start) / 1000);
}

function verdictsPerSecond(seconds: number): number {
  const schema = jsonSchemaOf(CombineVerdict);
  const user =
    'Combine: 2 × Iron Ore (MATERIAL, iron, none); 1 × Ember Essence (MATERIAL, essence, fire)\nStation: forge; tool: hammer\nPlayer intent: a flaming sword\nResult: rarity RARE; level 5; stat budget 60';
  let count = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) {
      writeCompletion({
        messages: [{ role: 'user', content: user }],
        response_format: { type: 'json_schema', json_schema: { schema } },
        seed: count++,
      });
    }
  }
  return count / ((performance.now() - start) / 1000);
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** Engine figures: median paint time per size and the writer's JSON completion rate, all in-process on one core. */
export async function benchEngine(): Promise<BenchRow[]> {
  const how =
    'in-process paintImage (PNG bytes out), 6 prompts (items, portrait, skill icon), distinct seeds, median';
  const p256 = paintMedian(256, 5, 60);
  const p512 = paintMedian(512, 5, 60);
  const p768 = paintMedian(768, 5, 40);
  const p512hq = paintMedian(512, 50, 20);
  const items = completionsPerSecond(2);
  const verdicts = verdictsPerSecond(1);
  return [
    { name: 'paint 256×256, 5 steps (median)', value: round(p256), unit: 'ms', goal: '', ok: true, how },
    {
      name: 'paint 512×512, 5 steps (median)',
      value: round(p512),
      unit: 'ms',
      goal: '≤ 15 ms',
      ok: p512 <= 15,
      how,
    },
    {
      name: 'paint 768×768, 5 steps (median)',
      value: round(p768),
      unit: 'ms',
      goal: '≤ 30 ms',
      ok: p768 <= 30,
      how,
    },
    { name: 'paint 512×512, 50 steps (median)', value: round(p512hq), unit: 'ms', goal: '', ok: true, how },
    {
      name: 'JSON item completions (2 items, json_schema)',
      value: Math.round(items),
      unit: 'per s',
      goal: '≥ 5000 per s',
      ok: items >= 5000,
      how: 'in-process writeCompletion with the item pipeline\'s system schema and "Item N:" prompt, 2 s, one core',
    },
    {
      name: 'crafting verdicts (json_schema)',
      value: Math.round(verdicts),
      unit: 'per s',
      goal: '',
      ok: true,
      how: 'in-process writeCompletion with the CombineVerdict schema, 1 s, one core',
    },
  ];
}

/** CPU time (user + system) per JSON item completion over `count` of them: steadier than a rate on a shared machine. */
function cpuPerCompletion(count: number): number {
  const request = itemRequests();
  for (let i = 0; i < 2000; i++) writeCompletion(request(i));
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) writeCompletion(request(100_000 + i));
  const cpu = process.cpuUsage(start);
  return (cpu.user + cpu.system) / count;
}

// `… engine.ts items`: only the JSON item completions, as a rate and as CPU time, three times each.
if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'items') {
    const rates = [0, 1, 2].map(() => completionsPerSecond(2));
    const cpu = [0, 1, 2].map(() => cpuPerCompletion(20_000));
    console.log(
      `JSON item completions: ${rates.map(Math.round).join(', ')} per s (median ${Math.round(median(rates))})`,
    );
    console.log(
      `CPU per completion: ${cpu.map((c) => round(c)).join(', ')} µs (median ${round(median(cpu))})`,
    );
  } else
    for (const row of await benchEngine())
      console.log(`${row.ok ? 'ok ' : 'BAD'} ${row.name}: ${row.value} ${row.unit} ${row.goal}`);
}
