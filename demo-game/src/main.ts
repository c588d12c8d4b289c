import { lootsmithScenePlugin } from '@lootsmith/plugin';
import Phaser from 'phaser';
import { installDemoHook } from './demo-hook.ts';
import { HeroProgress } from './hero-progress.ts';
import { playerId } from './player-id.ts';
import { PlayerState } from './player-state.ts';
import { BootScene } from './scenes/BootScene.ts';
import { DungeonScene } from './scenes/DungeonScene.ts';
import { Toasts } from './ui/Toasts.ts';
import { MAP_COLS, MAP_ROWS, TILE } from './world/dungeon-map.ts';
import './style.css';

const uiRoot = document.getElementById('ui') as HTMLElement;
const state = new PlayerState();
const toasts = new Toasts();
const player = playerId();
uiRoot.append(toasts.root);

const game = new Phaser.Game({
  type: Phaser.WEBGL,
  parent: 'game',
  width: MAP_COLS * TILE,
  height: MAP_ROWS * TILE,
  backgroundColor: '#0b0a10',
  pixelArt: true,
  // After a focus change Phaser caps frame time for `panicMax` frames; in a slow (software-rendered)
  // browser the default 120 frames is many seconds of slow motion.
  fps: { panicMax: 10 },
  scale: { mode: Phaser.Scale.FIT, autoCenter: Phaser.Scale.CENTER_BOTH },
  plugins: { scene: [{ ...lootsmithScenePlugin }] },
  scene: [
    new BootScene(state, toasts, player),
    new DungeonScene(state, new HeroProgress(player), toasts, uiRoot),
  ],
});

installDemoHook(game, state, toasts, player);
