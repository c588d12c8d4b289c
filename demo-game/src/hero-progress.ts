const XP_PER_LEVEL = 60;
/** The highest player_level a loot request may carry. */
const MAX_LEVEL = 100;

/** The hero's fighting level, from XP for kills; kept per player in localStorage. */
export class HeroProgress {
  readonly #key: string;
  #xp: number;

  constructor(playerId: string) {
    this.#key = `lootsmith-demo:hero-xp:${playerId}`;
    this.#xp = Number(localStorage.getItem(this.#key)) || 0;
  }

  get level() {
    return Math.min(MAX_LEVEL, 1 + Math.floor(this.#xp / XP_PER_LEVEL));
  }

  /** XP into the current level, as a fraction. */
  get progress() {
    return (this.#xp % XP_PER_LEVEL) / XP_PER_LEVEL;
  }

  /** Adds XP for a kill; returns true on a level-up. */
  gain(xp: number): boolean {
    const before = this.level;
    this.#xp += xp;
    localStorage.setItem(this.#key, String(this.#xp));
    return this.level > before;
  }

  /** Takes away up to `xp` (never below none); returns how much was lost. */
  lose(xp: number): number {
    const lost = Math.min(xp, this.#xp);
    this.#xp -= lost;
    localStorage.setItem(this.#key, String(this.#xp));
    return lost;
  }
}
