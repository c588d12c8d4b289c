/** Runs this long of a secret count as the secret: an echo of part of a key still leaks it. */
const FRAGMENT = 12;
const REDACTED = '[redacted]';
/** The two characters of `text` at `i` as one number (a lone last character too). */
const pair = (text: string, i: number) => text.charCodeAt(i) * 65_536 + (text.charCodeAt(i + 1) || 0);

/**
 * The server's secrets (upstream keys, the server credential, the player-token secret) and the two
 * checks that keep them in: `scrub` for text that came from outside (an upstream's error message, a
 * model's answer), `leaks` as a last look at what is about to leave (a response, a log line).
 */
export class Secrets {
  private readonly values: string[];
  /** The values as bytes, for looking in bytes without converting each value every time. */
  private readonly bytes: Buffer[];
  private readonly fragments = new Map<number, Set<string>>();
  /** The first two characters of every fragment (as one number): most places of a text start none, and skip the slice. */
  private readonly starts = new Set<number>();

  constructor(values: Array<string | undefined>) {
    this.values = [...new Set(values.filter((v): v is string => !!v && v.length >= 8))];
    this.bytes = this.values.map((v) => Buffer.from(v));
    for (const value of this.values) {
      const size = Math.min(FRAGMENT, value.length);
      const set = this.fragments.get(size) ?? new Set<string>();
      for (let i = 0; i + size <= value.length; i++) {
        set.add(value.slice(i, i + size));
        this.starts.add(pair(value, i));
      }
      this.fragments.set(size, set);
    }
  }

  /** `text` with every run of 12 or more characters of a secret (or a whole shorter one) redacted. */
  scrub(text: string): string {
    const hidden: Array<[number, number]> = [];
    for (const [size, set] of this.fragments) {
      for (let i = 0; i + size <= text.length; i++)
        if (this.starts.has(pair(text, i)) && set.has(text.slice(i, i + size))) hidden.push([i, i + size]);
    }
    if (!hidden.length) return text;
    hidden.sort((a, b) => a[0] - b[0]);
    let out = '';
    let at = -1;
    for (const [start, end] of hidden) {
      if (start > at) out += `${text.slice(Math.max(at, 0), start)}${REDACTED}`;
      at = Math.max(at, end);
    }
    return out + text.slice(at);
  }

  /** Text from outside made fit to show a person: each run of control characters a space, secrets scrubbed. */
  clean(text: string): string {
    return this.scrub(text.replace(/[^\P{C}]+/gu, ' '));
  }

  /** Whether `payload` carries a whole secret (cheap enough for every response). */
  leaks(payload: string | Uint8Array): boolean {
    if (typeof payload === 'string') return this.values.some((v) => payload.includes(v));
    const bytes = Buffer.isBuffer(payload)
      ? payload
      : Buffer.from(payload.buffer, payload.byteOffset, payload.length);
    return this.bytes.some((v) => bytes.includes(v));
  }
}
