import { type FakeUpstream, startFakeUpstream } from '@lootsmith/test-support/fake-upstream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UpstreamClient } from '../src/upstream/client.ts';

let fake: FakeUpstream;
let client: UpstreamClient;
beforeAll(async () => {
  fake = await startFakeUpstream();
  const v1 = {
    api: 'v1' as const,
    url: fake.url,
    key: 'sk_test_0123456789',
    concurrency: 4,
    timeoutMs: 5_000,
  };
  client = UpstreamClient.open({ chat: v1, image: v1, retries: 2 });
});
afterAll(async () => {
  await client.close();
  await fake.close();
});

it('starts no new attempt for a caller who left during the back-off', async () => {
  let calls = 0;
  fake.hostile = () => {
    calls++;
    return { status: 503, body: '{}', headers: { 'retry-after': '1' } };
  };
  const leave = new AbortController();
  setTimeout(() => leave.abort(), 200);
  const started = Date.now();
  await expect(client.image({ client_id: 'ana', prompt: 'a shield' }, leave.signal)).rejects.toMatchObject({
    code: 'aborted',
  });
  expect(Date.now() - started).toBeLessThan(800);
  // Long enough for a second attempt to have been made, had the back-off not been cut short.
  await new Promise((r) => setTimeout(r, 1_200));
  expect(calls).toBe(1);
});
