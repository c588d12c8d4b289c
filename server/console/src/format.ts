const numbers = new Intl.NumberFormat('en');
export const n = (value: number) => numbers.format(value);
export const ms = (value: number | null) =>
  value === null
    ? '–'
    : value >= 1000
      ? `${(value / 1000).toFixed(value >= 10_000 ? 0 : 1)} s`
      : `${Math.round(value)} ms`;
/** Money in its currency: cents, or three significant digits for what a single call costs ($0.000345). */
export const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en', {
    style: 'currency',
    currency,
    ...(amount ? { maximumSignificantDigits: 3, roundingPriority: 'morePrecision' as const } : {}),
  }).format(amount);

export const percent = (value: number | null) =>
  value === null ? '–' : `${(value * 100).toFixed(value < 0.1 ? 1 : 0)}%`;

export function when(iso: string | null): string {
  if (!iso) return '–';
  const t = Date.parse(iso);
  const ago = (Date.now() - t) / 1000;
  if (ago < 60) return 'just now';
  if (ago < 3600) return `${Math.floor(ago / 60)} min ago`;
  if (ago < 86_400) return `${Math.floor(ago / 3600)} h ago`;
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ');
}

export const time = (iso: string) => new Date(iso).toISOString().slice(0, 19).replace('T', ' ');
