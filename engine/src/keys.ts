import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { IMAGE_LIMITS } from '@lootsmith/protocol';
import { z } from 'zod';
import { PAINTER_MODEL, WRITER_MODEL } from './models.ts';

const Size = z.int().min(IMAGE_LIMITS.minSize).max(IMAGE_LIMITS.maxSize);

/** An OpenAI-compatible chat server (llama.cpp, Ollama, vLLM…) a key may use instead of the writer. */
export const TextBackendConfig = z.strictObject({
  base_url: z.url(),
  model: z.string().min(1),
  api_key: z.string().optional(),
  timeout_ms: z.int().positive().default(30_000),
});
export type TextBackendConfig = z.infer<typeof TextBackendConfig>;

export const EngineKeySchema = z.strictObject({
  key: z.string().min(8).max(256),
  /** Shown in usage instead of the secret, e.g. "development". */
  name: z.string().min(1).max(64).optional(),
  permissions: z.array(z.enum(['image', 'chat'])).default(['image', 'chat']),
  /** Remaining credits; null means unlimited. */
  credits: z.number().min(0).nullable().default(null),
  restricted_clients: z.array(z.string()).default([]),
  text: z
    .strictObject({
      model: z.string().min(1).optional(),
      temperature: z.number().min(0).max(2).default(0.8),
      max_tokens: z.int().min(1).max(32_768).default(1024),
      backend: TextBackendConfig.optional(),
      /** What answers when the backend fails: the procedural writer, or nothing (502). */
      fallback: z.enum(['procedural', 'none']).default('procedural'),
    })
    .default({ temperature: 0.8, max_tokens: 1024, fallback: 'procedural' }),
  image: z
    .strictObject({
      model: z.literal(PAINTER_MODEL).default(PAINTER_MODEL),
      width: Size.default(IMAGE_LIMITS.defaultSize),
      height: Size.default(IMAGE_LIMITS.defaultSize),
      steps: z.int().min(1).max(IMAGE_LIMITS.maxSteps).default(IMAGE_LIMITS.defaultSteps),
      negative_prompt: z.string().max(2000).optional(),
    })
    .default({
      model: PAINTER_MODEL,
      width: IMAGE_LIMITS.defaultSize,
      height: IMAGE_LIMITS.defaultSize,
      steps: IMAGE_LIMITS.defaultSteps,
    }),
});
/** A key as written in a keys file: everything but `key` has a default. */
export type EngineKeyConfig = z.input<typeof EngineKeySchema>;
export type EngineKey = z.infer<typeof EngineKeySchema> & { name: string; textModel: string };

export const KeysFile = z.union([
  z.array(EngineKeySchema).min(1),
  z.strictObject({ keys: z.array(EngineKeySchema).min(1) }),
]);

export function resolveKeys(configs: readonly EngineKeyConfig[]): EngineKey[] {
  const seen = new Set<string>();
  return configs.map((config, index) => {
    const parsed = EngineKeySchema.parse(config);
    if (seen.has(parsed.key)) throw new Error(`keys[${index}].key: duplicate key`);
    seen.add(parsed.key);
    return {
      ...parsed,
      name: parsed.name ?? `key-${index + 1}`,
      textModel: parsed.text.model ?? parsed.text.backend?.model ?? WRITER_MODEL,
    };
  });
}

/** Reads a keys file; the error message names the file and the offending field. */
export function loadKeysFile(path: string): EngineKeyConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`keys file ${path}: ${(error as Error).message}`);
  }
  const result = KeysFile.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`keys file ${path}: ${issue?.path.join('.') || 'root'}: ${issue?.message}`);
  }
  return Array.isArray(result.data) ? result.data : result.data.keys;
}

export function generateKey(): string {
  return `ls_${randomBytes(24).toString('base64url')}`;
}

/** The one all-powerful key used when no keys file is given. */
export function unlimitedKey(key: string): EngineKeyConfig {
  return { key, name: 'default', permissions: ['image', 'chat'], credits: null };
}
