import type { ChatCompletionRequest } from '@lootsmith/protocol';
import type { Attempt } from '../http.ts';

/** What Lootsmith asks of an image backend, whatever its API. */
export interface ImageAsk {
  client_id: string;
  prompt: string;
  negative_prompt?: string;
  /** The size the caller wants; a backend may paint at its own size, Lootsmith resizes. */
  width: number;
  height: number;
  steps?: number;
  seed?: number;
  /** Only the spec's /v1 service takes a model from the request; the others use the configured one
   * (a player must not switch a shared GPU's checkpoint, or pick a dearer model). */
  model?: string;
  /** A game icon: models that paint scenes are asked for one object on a plain background. */
  icon?: boolean;
  /** The game's `art.avoid` words: the negative prompt where the API takes one, else said in the prompt. */
  avoid?: string;
  /** The game's `art.references`, read at start-up: given to APIs that take reference images. */
  references?: readonly ReferenceImage[];
}

/** One of a game's own icons (`art.references`), as read from its file. */
export interface ReferenceImage {
  /** The file name, for multipart uploads and logs (never the full path). */
  name: string;
  type: 'image/png' | 'image/jpeg' | 'image/webp';
  bytes: Buffer;
}

/** What one image is billed as: its model, size (`1024x1024`) and quality, when the API takes one. */
export interface Billed {
  model?: string;
  size: string;
  quality?: string;
}

/** An image as a backend sent it: its bytes, and its base64 text when it came as one. */
export interface Painted {
  bytes: Buffer;
  base64?: string;
}

export interface ImageBackend {
  readonly api: string;
  /** Answers the spec's own image: a PNG or JPEG that, once checked, may be passed on as it came. */
  readonly answersAsSpec?: boolean;
  paint(ask: ImageAsk, attempt: Attempt): Promise<Painted>;
  /** What an ask is billed as when its API prices by more than its model (OpenAI: size and quality). */
  bills?(ask: ImageAsk): Billed;
  close(): Promise<void>;
}

export interface ChatBackend {
  readonly api: string;
  /** The structured output it was found to accept, when it learns that from refusals. */
  readonly learnt?: { readonly structured: string };
  /** One completion; the JSON the backend answered, in the OpenAI chat completion shape. */
  complete(body: ChatCompletionRequest, attempt: Attempt): Promise<unknown>;
  close(): Promise<void>;
}

/** Wording that makes a scene-painting model paint an item alone, which Lootsmith can cut out. */
export const ICON_CUE = 'single object, centered, isolated on a plain white background';
export const ICON_AVOID =
  'text, watermark, signature, frame, border, hands, people, scenery, busy background, cropped';

/** The negative prompt of an ask, with the game's avoid words and the icon's own avoidances added. */
export const avoidOf = (ask: ImageAsk) =>
  [ask.negative_prompt, ask.avoid, ask.icon ? ICON_AVOID : undefined].filter(Boolean).join(', ') || undefined;

/** The prompt of an ask, with the icon cue added. */
export const wordingOf = (ask: ImageAsk) => (ask.icon ? `${ask.prompt}, ${ICON_CUE}` : ask.prompt);

/** Largest image answer read from a backend that paints up to 2048² (a PNG in base64, with room). */
export const PAINT_LIMIT = 24 * 1024 * 1024;
/** Largest chat completion read. */
export const CHAT_LIMIT = 4 * 1024 * 1024;

/** The square side a backend painting at `side` uses for an ask, keeping its aspect, in multiples of 8. */
export function paintSize(ask: ImageAsk, side: number): { width: number; height: number } {
  const scale = side / Math.max(ask.width, ask.height);
  const round = (n: number) => Math.max(64, Math.round((n * scale) / 8) * 8);
  return { width: round(ask.width), height: round(ask.height) };
}
