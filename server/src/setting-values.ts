import type { Setting } from '@lootsmith/protocol';
import { type ZodType, z } from 'zod';

/** What a server setting's value may be: the schemas `SETTINGS` and the backends' own settings share. */
export const flag = z.union([
  z.boolean(),
  z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true'),
]);
export const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));
export const secret = z.string().min(16, 'must be at least 16 characters');
export const key = z.string().min(8, 'must be at least 8 characters');
export const name = z.string().trim().min(1).max(256);
/** An amount of money in the price list's currency: `25`, `0.50`. */
export const amount = z.coerce
  .number({ error: 'must be an amount such as 25 or 0.50' })
  .positive('must be more than 0')
  .max(1_000_000, 'must be at most 1000000');
export const whole = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

export const setting = <S extends ZodType>(env: string, schema: S, help: string): Setting<S> => ({
  env,
  schema,
  help,
});
