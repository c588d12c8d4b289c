import { lootsmithScenePlugin } from '@lootsmith/plugin';
import Phaser from 'phaser';
import { HeroProgress } from './hero-progress.ts';
import { playerId } from './player-id.ts';
import { PlayerState } from './player-state.ts';
import { BootScene } from './scenes/BootScene.ts';
import { DungeonScene } from './scenes/DungeonScene.ts';
import { Toasts } from './ui/Toasts.ts';
import './style.css';

const uiRoot = document.getElementById('ui') as HTMLElement;
const state = new PlayerState();
const toasts = new Toasts();
const player = playerId();
uiRoot.append(toasts.root);

const game = new Phaser.Game({
  type: Phaser.WEBGL,
  parent: 'game',
  backgroundColor: '#0b0a10',
  pixelArt: true,
  // After a focus change Phaser caps frame time for `panicMax` frames; in a slow (software-rendered)
  // browser the default 120 frames is many seconds of slow motion.
  fps: { panicMax: 10 },
  // The canvas fills the window at any size and the camera follows the hero, so a phone in portrait
  // shows the dungeon as large as a desktop does, only less of it at once.
  scale: { mode: Phaser.Scale.RESIZE, width: '100%', height: '100%' },
  plugins: { scene: [{ ...lootsmithScenePlugin }] },
  scene: [
    new BootScene(state, toasts, player),
    new DungeonScene(state, new HeroProgress(player), toasts, uiRoot),
  ],
});

// The end-to-end tests read the game through a hook that development and test builds (`vite build
// --mode test`) install; a production build leaves out the branch, and with it the hook's module.
if (import.meta.env.MODE === 'development' || import.meta.env.MODE === 'test')
  void import('./demo-hook.ts').then(({ installDemoHook }) => installDemoHook(game, state, toasts, player));
