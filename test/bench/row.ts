/** One line of `docs/BENCHMARKS.md`: a measured figure held against its goal. */
export interface BenchRow {
  /** What was measured, e.g. "paint 512×512 icon (median)". */
  name: string;
  value: number;
  unit: string;
  /** The goal as text, e.g. "≤ 15 ms"; empty when the figure has none. */
  goal: string;
  /** Whether the figure meets its goal (true when there is no goal). */
  ok: boolean;
  /** How the figure was measured, for a reader who wants to repeat it. */
  how: string;
}
