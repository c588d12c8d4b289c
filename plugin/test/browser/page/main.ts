import * as Phaser from 'phaser';
import {
  type LootsmithConfig,
  LootsmithError,
  LootsmithPlugin,
  lootsmithScenePlugin,
} from '../../../src/index.ts';

/** Scenes the tests drive; `arena` runs at boot, `shop` runs when started. */
class Arena extends Phaser.Scene {
  constructor() {
    super('arena');
  }
}
class Shop extends Phaser.Scene {
  constructor() {
    super('shop');
  }
}
/** A scene of a second game that installs the plugin at run time instead of in the game config. */
class Late extends Phaser.Scene {
  constructor() {
    super('late');
  }
  create() {
    this.plugins.installScenePlugin('Lootsmith', LootsmithPlugin, 'lootsmith', this);
  }
}

const canvas = new URLSearchParams(location.search).get('renderer') === 'canvas';
const settings = {
  type: canvas ? Phaser.CANVAS : Phaser.WEBGL,
  width: 320,
  height: 240,
  banner: false,
  audio: { noAudio: true },
};

function whenCreated(scene: Phaser.Scene): Promise<Phaser.Scene> {
  if (scene.sys.settings.status === Phaser.Scenes.RUNNING) return Promise.resolve(scene);
  return new Promise((resolve) => scene.events.once(Phaser.Scenes.Events.CREATE, () => resolve(scene)));
}

const game = new Phaser.Game({
  ...settings,
  plugins: { scene: [lootsmithScenePlugin] },
  scene: [Arena, Shop],
});
let lateGame: Phaser.Game | undefined;

const hook = {
  game,
  Phaser,
  LootsmithError,
  LootsmithPlugin,
  ready: new Promise<void>((resolve) => game.events.once(Phaser.Core.Events.READY, () => resolve())),
  scene: (key: string) => game.scene.getScene(key) as Phaser.Scene,
  configure(config: Partial<LootsmithConfig> = {}) {
    LootsmithPlugin.configure(game, {
      baseUrl: location.origin,
      playerId: 'browser-player',
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      ...config,
    });
  },
  start(key: string) {
    game.scene.start(key);
    return whenCreated(hook.scene(key));
  },
  stop(key: string) {
    const scene = hook.scene(key);
    const stopped = new Promise((resolve) => scene.events.once(Phaser.Scenes.Events.SHUTDOWN, resolve));
    game.scene.stop(key);
    return stopped;
  },
  /** Keys of textures Lootsmith added, as the game's TextureManager sees them. */
  lootsmithTextures: (g: Phaser.Game = game) =>
    g.textures.getTextureKeys().filter((k) => k.startsWith('lootsmith:')),
  async startLateGame() {
    lateGame = new Phaser.Game({ ...settings, scene: [Late] });
    await new Promise<void>((resolve) => lateGame?.events.once(Phaser.Core.Events.READY, () => resolve()));
    return whenCreated(lateGame.scene.getScene('late') as Phaser.Scene);
  },
  get lateGame() {
    return lateGame;
  },
};

declare global {
  interface Window {
    lootsmithTest: typeof hook;
  }
}
window.lootsmithTest = hook;
