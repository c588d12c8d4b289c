import { createHash, timingSafeEqual } from 'node:crypto';
import { CreditAccount } from './credits.ts';
import type { EngineKey } from './keys.ts';
import { UsageLedger } from './usage.ts';

/** A key with its live state: balance and usage. */
export interface Account {
  key: EngineKey;
  credits: CreditAccount;
  usage: UsageLedger;
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** The engine's keys, looked up by a digest so the comparison takes the same time for every key. */
export class AccountBook {
  private readonly byDigest = new Map<string, { digest: Buffer; account: Account }>();

  constructor(keys: readonly EngineKey[]) {
    for (const key of keys) {
      const d = digest(key.key);
      this.byDigest.set(d.toString('hex'), {
        digest: d,
        account: { key, credits: new CreditAccount(key.credits), usage: new UsageLedger() },
      });
    }
  }

  find(secret: string): Account | undefined {
    const d = digest(secret);
    const entry = this.byDigest.get(d.toString('hex'));
    return entry && timingSafeEqual(entry.digest, d) ? entry.account : undefined;
  }
}
