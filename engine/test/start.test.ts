import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEngine } from '../src/index.ts';
import { loadKeysFile, resolveKeys } from '../src/keys.ts';

describe('startEngine', () => {
  it('listens on 127.0.0.1 with a generated key and serves over HTTP', async () => {
    const engine = await startEngine();
    try {
      expect(engine.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(engine.key.length).toBeGreaterThanOrEqual(16);
      const res = await fetch(`${engine.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${engine.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'p', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(200);
      const bad = await fetch(`${engine.url}/v1/models`, {
        headers: { authorization: 'Bearer nope-nope-nope' },
      });
      expect(bad.status).toBe(401);
    } finally {
      await engine.close();
    }
  });

  it('uses the given key, or the given keys', async () => {
    const one = await startEngine({ key: 'my-own-key-123' });
    const many = await startEngine({
      keys: [{ key: 'first-key-123', credits: 1 }, { key: 'second-key-123' }],
    });
    try {
      expect(one.key).toBe('my-own-key-123');
      expect(many.key).toBe('first-key-123');
      const res = await fetch(`${many.url}/v1/usage`, {
        headers: { authorization: 'Bearer second-key-123' },
      });
      expect(((await res.json()) as { credits_remaining: unknown }).credits_remaining).toBeNull();
    } finally {
      await one.close();
      await many.close();
    }
  });
});

describe('keys file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engine-keys-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('reads an object with keys, or a bare array', () => {
    expect(
      loadKeysFile(file('a.json', JSON.stringify({ keys: [{ key: 'development-key', credits: 10 }] }))),
    ).toHaveLength(1);
    expect(
      loadKeysFile(file('b.json', JSON.stringify([{ key: 'k1-000000' }, { key: 'k2-000000' }]))),
    ).toHaveLength(2);
  });

  it('loads the example in the README', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');
    const example = /## Keys file\n\n```json\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const keys = resolveKeys(loadKeysFile(file('doc.json', example)));
    expect(keys.map((k) => [k.name, k.textModel])).toEqual([
      ['development', 'lootsmith-writer-1'],
      ['production', 'qwen2.5-7b-instruct'],
    ]);
  });

  it('names the file and the field that is wrong', () => {
    expect(() => loadKeysFile(file('c.json', '{oops'))).toThrow(/c\.json/);
    expect(() =>
      loadKeysFile(file('d.json', JSON.stringify({ keys: [{ key: 'development-key', credits: -1 }] }))),
    ).toThrow(/keys\.0\.credits/);
    expect(() =>
      loadKeysFile(
        file('e.json', JSON.stringify({ keys: [{ key: 'development-key', image: { width: 4000 } }] })),
      ),
    ).toThrow(/image\.width/);
  });
});
