/** Tokens are counted the way most BPE tokenizers average out on English: about four characters each. */
export const CHARS_PER_TOKEN = 4;

export function countTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function truncateToTokens(text: string, maxTokens: number): { text: string; truncated: boolean } {
  const limit = maxTokens * CHARS_PER_TOKEN;
  if (text.length <= limit) return { text, truncated: false };
  return { text: text.slice(0, limit), truncated: true };
}
