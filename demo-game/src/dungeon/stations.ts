import Phaser from 'phaser';
import type { PlayerState } from '../player-state.ts';
import { touchFirst } from '../ui/touch.ts';
import { STATIONS, type StationId, TILE } from '../world/dungeon-map.ts';
import { placeStations } from '../world/dungeon-view.ts';

/** How close to a station the hero must stand to use it, in pixels. */
const STATION_REACH = 52;

/**
 * The crafting stations in the hall, named by the game's rules: the one the hero stands at shows
 * "E — use the Forge" above it in place of its name (which the hero would cover).
 */
export class Stations {
  readonly #state: PlayerState;
  readonly #labels: Map<StationId, Phaser.GameObjects.Text>;
  readonly #prompt: Phaser.GameObjects.Text;

  constructor(scene: Phaser.Scene, state: PlayerState) {
    this.#state = state;
    this.#labels = placeStations(scene, (id) => this.#name(id));
    this.#prompt = scene.add
      .text(0, 0, '', {
        fontFamily: 'Georgia, serif',
        fontSize: '13px',
        color: '#f4d58d',
        backgroundColor: '#0b0a10cc',
        padding: { x: 6, y: 3 },
      })
      .setOrigin(0.5, 1)
      .setDepth(30_000)
      .setVisible(false);
  }

  /** The station the hero stands at, if any (the nearest). */
  nearest(hero: { x: number; y: number }) {
    return STATIONS.map((s) => ({
      ...s,
      d: Phaser.Math.Distance.Between(hero.x, hero.y, s.x * TILE, (s.y + 0.6) * TILE),
    }))
      .filter((s) => s.d <= STATION_REACH)
      .sort((a, b) => a.d - b.d)[0];
  }

  /** Where the hero stands to use a station. */
  front(id: StationId) {
    const spot = STATIONS.find((s) => s.id === id);
    return spot && { x: spot.x * TILE, y: (spot.y + 1) * TILE };
  }

  /** Shows the prompt over the station `hero` stands at; none while a panel is open. */
  prompt(hero: { x: number; y: number } | undefined) {
    const near = hero && this.nearest(hero);
    for (const [id, label] of this.#labels) label.setVisible(id !== near?.id);
    this.#prompt.setVisible(near !== undefined);
    if (!near) return;
    this.#prompt
      .setText(touchFirst() ? `Tap to use the ${this.#name(near.id)}` : `E — use the ${this.#name(near.id)}`)
      .setPosition(near.x * TILE, near.y * TILE - 26);
  }

  /** The prompt as shown, and which station names it hides. */
  get shown() {
    const prompt = this.#prompt;
    const namesHidden = [...this.#labels].filter(([, label]) => !label.visible).map(([id]) => id);
    return { visible: prompt.visible, text: prompt.text, x: prompt.x, y: prompt.y, namesHidden };
  }

  #name(id: StationId) {
    return this.#state.game?.stations.find((s) => s.id === id)?.name ?? id;
  }
}
