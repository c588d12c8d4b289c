import {
  ChatCompletionResponse,
  CombineVerdict,
  GeneratedItemBatch,
  jsonSchemaOf,
  ModelList,
} from '@lootsmith/protocol';
import { describe, expect, it } from 'vitest';
import { auth, engine, KEY } from './support.ts';

const LOOT = `Generate 2 items.
Context: location: Frost Giant's Lair; enemy: Frost Giant (tier 4); theme: frost; player level: 30
Item 1: type WEAPON; subtype: axe; rarity LEGENDARY; level 30; stat budget 240; focus: attack
Item 2: type CONSUMABLE; rarity RARE; level 28; stat budget 90
Naming style: epic`;

async function complete(payload: Record<string, unknown>, keys?: Parameters<typeof engine>[0]) {
  const app = await engine(keys);
  return app.inject({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: auth(),
    payload: { client_id: 'p1', ...payload },
  });
}

describe('POST /v1/chat/completions', () => {
  it('answers in the OpenAI chat-completion shape with short in-character text', async () => {
    const res = await complete({
      model: 'lootsmith-writer-1',
      messages: [
        { role: 'system', content: 'You are a grumpy dwarven blacksmith.' },
        { role: 'user', content: 'What swords do you have for sale?' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = ChatCompletionResponse.parse(res.json());
    expect(body.object).toBe('chat.completion');
    expect(body.model).toBe('lootsmith-writer-1');
    expect(body.choices[0]?.finish_reason).toBe('stop');
    const content = body.choices[0]?.message.content ?? '';
    expect(content.length).toBeGreaterThan(20);
    expect(content.length).toBeLessThan(600);
    expect(content.toLowerCase()).toMatch(/sword|blacksmith/);
    expect(body.usage?.total_tokens).toBe(
      (body.usage?.prompt_tokens ?? 0) + (body.usage?.completion_tokens ?? 0),
    );
  });

  it('uses the key default model when model is omitted', async () => {
    const res = await complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(res.json().model).toBe('lootsmith-writer-1');
  });

  it('accepts the extra fields OpenAI SDKs send, and refuses more than one choice', async () => {
    const app = await engine();
    const body = {
      client_id: 'sdk',
      messages: [{ role: 'user', content: 'Hello, smith.' }],
      n: 1,
      user: 'player-7',
      presence_penalty: 0,
      frequency_penalty: 0.5,
      stream_options: { include_usage: true },
    };
    const ok = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: body,
    });
    expect(ok.statusCode).toBe(200);
    const many = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: { ...body, n: 2 },
    });
    expect(many.statusCode).toBe(400);
    expect(many.json().error.message).toContain('n');
  });

  it('truncates at max_tokens with finish_reason "length"', async () => {
    const res = await complete({
      max_tokens: 3,
      messages: [{ role: 'user', content: 'Tell me a long story about dragons.' }],
    });
    const body = res.json();
    expect(body.choices[0].finish_reason).toBe('length');
    expect(body.usage.completion_tokens).toBeLessThanOrEqual(3);
    expect(body.choices[0].message.content.length).toBeLessThanOrEqual(12);
  });

  it('streams server-sent events in the OpenAI convention, ending with [DONE]', async () => {
    const res = await complete({ stream: true, messages: [{ role: 'user', content: 'Greet me.' }] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = res.body.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.replace(/^data: /, '')));
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
    const text = chunks.map((c) => c.choices[0].delta.content ?? '').join('');
    const whole = await complete({ messages: [{ role: 'user', content: 'Greet me.' }] });
    expect(text).toBe(whole.json().choices[0].message.content);
  });

  it('gives valid JSON for response_format json_object', async () => {
    const res = await complete({
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'Say hello as JSON.' }],
    });
    expect(() => JSON.parse(res.json().choices[0].message.content)).not.toThrow();
    const items = await complete({
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: LOOT }],
    });
    expect(GeneratedItemBatch.safeParse(JSON.parse(items.json().choices[0].message.content)).success).toBe(
      true,
    );
  });

  it('follows a schema given in the system message in json_object mode', async () => {
    const schema = {
      type: 'object',
      properties: { greeting: { type: 'string', maxLength: 40 }, mood: { enum: ['calm', 'angry'] } },
      required: ['greeting', 'mood'],
    };
    const res = await complete({
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: `Answer with JSON matching this schema:\n${JSON.stringify(schema)}` },
        { role: 'user', content: 'hello' },
      ],
    });
    const value = JSON.parse(res.json().choices[0].message.content);
    expect(Object.keys(value).sort()).toEqual(['greeting', 'mood']);
    expect(['calm', 'angry']).toContain(value.mood);
  });

  it('gives an instance of a json_schema, themed by the conversation', async () => {
    const res = await complete({
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'items', schema: jsonSchemaOf(GeneratedItemBatch) },
      },
      messages: [
        {
          role: 'system',
          content: `You generate items. Schema:\n${JSON.stringify(jsonSchemaOf(GeneratedItemBatch))}`,
        },
        { role: 'user', content: LOOT },
      ],
    });
    const batch = GeneratedItemBatch.parse(JSON.parse(res.json().choices[0].message.content));
    expect(batch.items).toHaveLength(2);
    const [axe, potion] = batch.items;
    expect(axe).toMatchObject({
      type: 'WEAPON',
      subtype: 'axe',
      rarity: 'LEGENDARY',
      level: 30,
      element: 'frost',
    });
    expect(potion).toMatchObject({ type: 'CONSUMABLE', rarity: 'RARE', level: 28 });
    expect(axe?.stats[0]?.name).toBe('attack');
    const frosty = /frost|rime|glac|winter|ice|snow|cold|boreal|jotun|frozen|hoarfrost|shiver/i;
    expect(`${axe?.name} ${axe?.lore}`).toMatch(frosty);
    // A frost weapon leans to the catalogue's frost effect.
    expect(axe?.effects.map((e) => e.id)).toContain('frost_slow');
  });

  it('lists the models the key may use in the OpenAI list shape', async () => {
    const app = await engine([
      { key: KEY, text: { backend: { base_url: 'http://127.0.0.1:9/v1', model: 'llama-3-8b' } } },
    ]);
    const res = await app.inject({ method: 'GET', url: '/v1/models', headers: auth() });
    const list = ModelList.parse(res.json());
    expect(list.data.map((m) => m.id)).toEqual(['lootsmith-writer-1', 'llama-3-8b', 'lootsmith-painter-1']);
  });

  it('judges a crafting combination through json_schema', async () => {
    const res = await complete({
      response_format: { type: 'json_schema', json_schema: { schema: jsonSchemaOf(CombineVerdict) } },
      messages: [
        {
          role: 'user',
          content:
            'Combine: 2 × Iron Ore (MATERIAL, iron, none); 1 × Ember Essence (MATERIAL, essence, fire)\nStation: forge; tool: hammer\nPlayer intent: a flaming sword\nResult: rarity RARE; level 5; stat budget 60',
        },
      ],
    });
    const verdict = CombineVerdict.parse(JSON.parse(res.json().choices[0].message.content));
    expect(verdict.sensible).toBe(true);
    expect(verdict.item).toMatchObject({
      type: 'WEAPON',
      subtype: 'sword',
      element: 'fire',
      material: 'iron',
      rarity: 'RARE',
      level: 5,
    });
  });
});
