import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RARITY_COLORS } from '../../src/core/rarity-colors.ts';
import { errorBody, fakeItem } from '../support/fake-server.ts';
import { type Harness, PHASERS, startHarness } from './harness.ts';

// The suite runs once per Phaser version in the matrix. On 4.0, the oldest 4 (between the newest 4
// and the oldest 3, each run whole), only what touches Phaser's own API: the plugin's install, sprites,
// textures, scene lifecycle and renderers; what runs in the plugin's core alone is the same on every 4.
describe.each(Object.entries(PHASERS))('with Phaser %s', (version, phaser) => {
  const coreAlone = it.skipIf(version === '4.0');
  let harness: Harness;
  let page: Page;

  beforeAll(async () => {
    harness = await startHarness(phaser);
  });
  afterAll(() => harness?.close());
  afterEach(async () => {
    await page?.close();
    expect(harness.takeProblems()).toEqual([]);
  });

  const apiCalls = (prefix: string) => harness.server.seen.filter((s) => s.path.startsWith(prefix)).length;

  describe('LootsmithPlugin in Phaser', () => {
    it('is installed from the game config into every scene, sharing one configuration', async () => {
      page = await harness.open();
      const result = await page.evaluate(async () => {
        const t = window.lootsmithTest;
        const shop = await t.start('shop');
        const arena = t.scene('arena');
        return {
          arena: arena.lootsmith instanceof t.LootsmithPlugin,
          shop: shop.lootsmith instanceof t.LootsmithPlugin,
          distinct: arena.lootsmith !== shop.lootsmith,
          sameClient: arena.lootsmith.client === shop.lootsmith.client,
          version: t.Phaser.VERSION,
        };
      });
      expect(result).toEqual({
        arena: true,
        shop: true,
        distinct: true,
        sameClient: true,
        version: expect.stringMatching(new RegExp(`^${version.replace('.', '\\.')}\\.`)),
      });
    });

    it('drops loot as sprites whose icon textures are loaded, with rarity-coloured glows, and emits each stage', async () => {
      page = await harness.open();
      const result = await page.evaluate(async () => {
        const t = window.lootsmithTest;
        const { lootsmith } = t.scene('arena');
        const events: string[] = [];
        for (const name of ['request', 'progress', 'loot', 'icon', 'error'] as const) {
          lootsmith.on(name, (e) => events.push('stage' in e ? `${name}:${e.stage}` : name));
        }
        const drop = await lootsmith.loot.drop({ x: 160, y: 120, count: 2, enemy: 'goblin' });
        return {
          events,
          items: drop.items.length,
          sprites: drop.sprites.map((s) => {
            const key = s.icon?.texture.key ?? '';
            return {
              key,
              loaded: t.game.textures.exists(key),
              width: t.game.textures.get(key).source[0]?.width,
              sameItem: s.item === drop.items[drop.sprites.indexOf(s)],
              glowTint: s.glow.tintTopLeft,
              inScene: s.scene === t.scene('arena') && s.displayList !== null,
            };
          }),
          colors: drop.items.map((i) => i.rarity),
        };
      });
      expect(result.items).toBe(2);
      for (const sprite of result.sprites) {
        expect(sprite).toMatchObject({ loaded: true, width: 8, sameItem: true, inScene: true });
        expect(sprite.key).toMatch(/^lootsmith:g\d+:icon:icon-\d+$/);
      }
      const { RARITY_COLORS } = await import('../../src/core/rarity-colors.ts');
      expect(result.sprites.map((s) => s.glowTint)).toEqual(
        result.colors.map((rarity) => RARITY_COLORS[rarity]),
      );
      expect(result.events[0]).toBe('request');
      expect(result.events).toContain('progress:sending');
      expect(result.events.filter((e) => e === 'icon')).toHaveLength(2);
      expect(result.events.slice(-2)).toEqual(['loot', 'progress:done']);
      expect(result.events).not.toContain('error');
    });

    coreAlone(
      'drops loot without sprites when no position is given, and lets the game build its own sprites',
      async () => {
        page = await harness.open();
        const result = await page.evaluate(async () => {
          const { lootsmith } = window.lootsmithTest.scene('arena');
          const plain = await lootsmith.loot.drop({ count: 1 });
          const custom = await lootsmith.loot.drop({
            x: 50,
            y: 50,
            sprite: ({ scene, item, x, y }) => scene.add.text(x, y, item.name),
          });
          return { plain: plain.sprites.length, text: custom.sprites[0]?.text, name: custom.items[0]?.name };
        });
        expect(result.plain).toBe(0);
        expect(result.text).toBe(result.name);
      },
    );

    it('resolves icons.texture only once the texture is in the texture manager', async () => {
      page = await harness.open();
      const result = await page.evaluate(async () => {
        const t = window.lootsmithTest;
        const { lootsmith } = t.scene('arena');
        const inventory = await lootsmith.inventory.list();
        const item = inventory.items[0]?.item;
        if (!item) throw new Error('empty inventory');
        const [a, b] = await Promise.all([lootsmith.icons.texture(item), lootsmith.icons.texture(item)]);
        const prompt = await lootsmith.icons.texture('a glowing red potion, game item', {
          width: 64,
          height: 64,
        });
        const failed = await lootsmith.icons.texture({ ...item, icon: null }).catch((e) => e.code);
        return {
          same: a === b,
          itemWidth: t.game.textures.get(a).source[0]?.width,
          promptWidth: t.game.textures.get(prompt).source[0]?.width,
          notMissing: t.game.textures.get(a).key === a,
          failed,
        };
      });
      expect(result).toEqual({
        same: true,
        itemWidth: 8,
        promptWidth: 8,
        notMissing: true,
        failed: 'no_icon',
      });
      expect(apiCalls('/api/v1/icons/icon-1.png')).toBeGreaterThanOrEqual(1);
    });

    it('counts texture users across scenes and removes a texture when the last scene shuts down', async () => {
      page = await harness.open();
      const result = await page.evaluate(async () => {
        const t = window.lootsmithTest;
        const arena = t.scene('arena');
        const shop = await t.start('shop');
        const { items } = await arena.lootsmith.inventory.list();
        const item = items[0]?.item;
        if (!item) throw new Error('empty inventory');
        const key = await arena.lootsmith.icons.texture(item);
        const again = await shop.lootsmith.icons.texture(item);
        await t.stop('arena');
        const afterArena = t.game.textures.exists(key);
        await t.stop('shop');
        return {
          same: key === again,
          afterArena,
          afterShop: t.game.textures.exists(key),
          left: t.lootsmithTextures(),
        };
      });
      expect(result).toEqual({ same: true, afterArena: true, afterShop: false, left: [] });
    });

    it('shuts down cleanly with drop sprites on screen, and drops them again after a restart', async () => {
      page = await harness.open();
      const result = await page.evaluate(async () => {
        const t = window.lootsmithTest;
        const arena = t.scene('arena');
        const first = await arena.lootsmith.loot.drop({ x: 100, y: 100, count: 3 });
        // Let a few frames render the sprites before the scene goes away.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const held = t.lootsmithTextures().length;
        await t.stop('arena');
        const afterStop = t.lootsmithTextures();
        const destroyed = first.sprites.every((s) => s.scene === undefined || s.displayList === null);
        await t.start('arena');
        const second = await arena.lootsmith.loot.drop({ x: 100, y: 100, count: 3 });
        await new Promise((resolve) => setTimeout(resolve, 100));
        return {
          held,
          afterStop,
          destroyed,
          iconsAgain: second.sprites.every((s) => s.icon && t.game.textures.exists(s.icon.texture.key)),
        };
      });
      // Three icons and the shared glow texture.
      expect(result).toEqual({ held: 4, afterStop: [], destroyed: true, iconsAgain: true });
    });

    it('releases a texture early on request, but only for the scene that asks', async () => {
      page = await harness.open();
      const result = await page.evaluate(async () => {
        const t = window.lootsmithTest;
        const arena = t.scene('arena');
        const shop = await t.start('shop');
        const key = await arena.lootsmith.icons.texture('a shield, game item');
        await shop.lootsmith.icons.texture('a shield, game item');
        arena.lootsmith.icons.release(key);
        const whileShopHolds = t.game.textures.exists(key);
        shop.lootsmith.icons.release(key);
        return { whileShopHolds, afterBoth: t.game.textures.exists(key) };
      });
      expect(result).toEqual({ whileShopHolds: true, afterBoth: false });
    });

    it('aborts in-flight requests on scene shutdown, forgets listeners, and works again after a restart', async () => {
      page = await harness.open();
      harness.server.script('/v1/generate/items', { status: 200, hang: true });
      const before = apiCalls('/v1/generate/items');
      await page.evaluate(() => {
        const { lootsmith } = window.lootsmithTest.scene('arena');
        lootsmith.on('loot', () => {});
        (window as unknown as { pendingDrop: Promise<unknown> }).pendingDrop = lootsmith.loot
          .drop({ x: 10, y: 10 })
          .catch((e) => e);
      });
      await expect.poll(() => apiCalls('/v1/generate/items')).toBe(before + 1);
      const result = await page.evaluate(async () => {
        const t = window.lootsmithTest;
        const arena = t.scene('arena');
        await t.stop('arena');
        const error = await (window as unknown as { pendingDrop: Promise<{ code: string; name: string }> })
          .pendingDrop;
        const shutDown = {
          error: { code: error.code, name: error.name },
          listeners: arena.lootsmith.events.eventNames().length,
          pending: arena.lootsmith.client.pending,
          textures: t.lootsmithTextures(),
        };
        await t.start('arena');
        const drop = await arena.lootsmith.loot.drop({ x: 10, y: 10 });
        return { shutDown, afterRestart: drop.sprites.length };
      });
      expect(result.shutDown).toEqual({
        error: { code: 'aborted', name: 'LootsmithError' },
        listeners: 0,
        pending: 0,
        textures: [],
      });
      expect(result.afterRestart).toBe(1);
    });

    coreAlone(
      'rejects with a typed LootsmithError and emits an error event for a game-rule refusal',
      async () => {
        page = await harness.open();
        harness.server.script('/api/v1/crafting/combine', {
          status: 400,
          body: errorBody('insufficient_materials'),
        });
        const result = await page.evaluate(async () => {
          const t = window.lootsmithTest;
          const { lootsmith } = t.scene('arena');
          const seen: unknown[] = [];
          lootsmith.on('error', ({ op, error }) => seen.push({ op, reason: error.reason }));
          const error = await lootsmith.crafting
            .combine({ ingredients: ['iron_ore', 'iron_ore'] })
            .catch((e) => e);
          return {
            typed: error instanceof t.LootsmithError,
            status: error.status,
            reason: error.reason,
            seen,
          };
        });
        expect(result).toEqual({
          typed: true,
          status: 400,
          reason: 'insufficient_materials',
          seen: [{ op: 'combine', reason: 'insufficient_materials' }],
        });
      },
    );

    coreAlone('returns crafting results typed from the protocol and emits craft events', async () => {
      page = await harness.open();
      const result = await page.evaluate(async () => {
        const { lootsmith } = window.lootsmithTest.scene('arena');
        const crafts: string[] = [];
        lootsmith.on('craft', (e) => crafts.push(e.op));
        const combined = await lootsmith.crafting.combine({
          ingredients: ['a', 'b'],
          station: 'forge',
          intent: 'a blade',
        });
        const created = await lootsmith.crafting.createItem({
          station: 'forge',
          materials: [{ id: 'iron_ore', quantity: 2 }],
          type: 'WEAPON',
          description: 'a heavy blade',
          focusAttributes: ['attack'],
        });
        return { crafts, success: combined.success, xp: created.crafting_xp, item: created.item.name };
      });
      expect(result).toMatchObject({ crafts: ['combine', 'createItem'], success: true, xp: 25 });
    });

    coreAlone('wears, takes off and uses items, emitting equipment and use events', async () => {
      page = await harness.open();
      const result = await page.evaluate(async () => {
        const { lootsmith } = window.lootsmithTest.scene('arena');
        const events: string[] = [];
        lootsmith.on('equipment', (e) => events.push(`${e.op}:${e.equipment.slots[0]?.item?.id ?? 'empty'}`));
        lootsmith.on('use', (e) => events.push(`use:${e.result.item.id}`));
        const off = await lootsmith.equipment.unequip('WEAPON');
        const on = await lootsmith.equipment.equip('item-1');
        const listed = await lootsmith.equipment.list();
        const used = await lootsmith.inventory.use({ id: 'potion-9' });
        return { events, off: off.stats, on: on.stats, listed: listed.slots.length, heal: used.effects };
      });
      expect(result).toEqual({
        events: ['unequip:empty', 'equip:item-1', 'use:potion-9'],
        off: {},
        on: { attack: 5 },
        listed: 1,
        heal: [{ name: 'health', value: 12 }],
      });
    });

    it('shows the inventory icons after a reload from IndexedDB, without asking the server again', async () => {
      const cacheName = `reload-${Date.now()}`;
      page = await harness.open({ cacheName });
      const loadIcons = () =>
        page.evaluate(async () => {
          const { lootsmith } = window.lootsmithTest.scene('arena');
          const shown = await lootsmith.inventory.cached();
          const { items } = await lootsmith.inventory.list();
          const cachedFlags: boolean[] = [];
          lootsmith.on('icon', (e) => cachedFlags.push(e.cached));
          await Promise.all(items.map(({ item }) => lootsmith.icons.texture(item)));
          return { hadCachedInventory: shown !== undefined, cachedFlags };
        });
      const iconFetches = () => apiCalls('/api/v1/icons/');
      const first = await loadIcons();
      const fetchedBefore = iconFetches();
      await page.reload();
      await page.evaluate(async (name) => {
        await window.lootsmithTest.ready;
        window.lootsmithTest.configure({ cache: { name } });
      }, cacheName);
      const second = await loadIcons();
      expect(first).toEqual({ hadCachedInventory: false, cachedFlags: [false, false] });
      expect(second).toEqual({ hadCachedInventory: true, cachedFlags: [true, true] });
      expect(iconFetches()).toBe(fetchedBefore);
    });

    it('installs at run time with installScenePlugin, in a second game whose texture keys never collide', async () => {
      page = await harness.open();
      const result = await page.evaluate(async () => {
        const t = window.lootsmithTest;
        const late = await t.startLateGame();
        late.lootsmith.configure({ baseUrl: location.origin, playerId: 'late-player' });
        const first = await t.scene('arena').lootsmith.icons.texture('a crown, game item');
        const second = await late.lootsmith.icons.texture('a crown, game item');
        const removed = new Promise((resolve) => late.events.once('destroy', resolve));
        late.scene.remove();
        await removed;
        return {
          installed: late.lootsmith instanceof t.LootsmithPlugin,
          differentKeys: first !== second,
          lateGameTextures: t.lootsmithTextures(t.lateGame),
          firstGameStillHas: t.game.textures.exists(first),
        };
      });
      expect(result).toEqual({
        installed: true,
        differentKeys: true,
        lateGameTextures: [],
        firstGameStillHas: true,
      });
    });
  });

  describe('a drop whose icon is still being painted', () => {
    it('shows a placeholder in the rarity colour at once, then swaps in the texture and emits iconready', async () => {
      const painting = fakeItem(41);
      const ready = fakeItem(42);
      const url = painting.icon?.url as string;
      harness.server.script('/v1/generate/items', {
        status: 200,
        body: { items: [{ ...painting, icon: { ...painting.icon, status: 'pending' } }, ready] },
      });
      const wait = { status: 202, body: { status: 'pending', retry_after_ms: 300 } };
      harness.server.script(url, wait, wait);
      page = await harness.open();
      const result = await page.evaluate(async () => {
        const t = window.lootsmithTest;
        const { lootsmith } = t.scene('arena');
        const started = performance.now();
        const arrived = new Promise<{ item: string; key: string; at: number; sameSprite: boolean }>(
          (resolve) =>
            lootsmith.once('iconready', (e) =>
              resolve({
                item: e.item.id,
                key: e.key,
                at: performance.now() - started,
                sameSprite: e.sprite === drop.sprites[0],
              }),
            ),
        );
        const drop = await lootsmith.loot.drop({ x: 160, y: 120, count: 2 });
        const [first, second] = drop.sprites;
        const atDrop = {
          took: performance.now() - started,
          pending: first?.pending,
          icon: first?.icon?.texture.key,
          placeholderColor: first?.placeholder?.fillColor,
          placeholderVisible: first?.placeholder?.visible,
          secondLoaded: t.game.textures.exists(second?.icon?.texture.key ?? ''),
        };
        const event = await arrived;
        const key = first?.icon?.texture.key ?? '';
        return {
          atDrop,
          event,
          after: {
            pending: first?.pending,
            placeholder: first?.placeholder === undefined,
            key,
            loaded: t.game.textures.exists(key),
            width: t.game.textures.get(key).source[0]?.width,
            aboveGlow: first ? first.getIndex(first.icon as never) > first.getIndex(first.glow) : false,
          },
        };
      });
      expect(result.atDrop).toMatchObject({
        pending: true,
        icon: undefined,
        placeholderColor: RARITY_COLORS[painting.rarity],
        placeholderVisible: true,
        secondLoaded: true,
      });
      // The drop did not wait for the paint: two waits of at least 300 ms came after it.
      expect(result.event.at - result.atDrop.took).toBeGreaterThanOrEqual(550);
      expect(result.event).toMatchObject({ item: painting.id, sameSprite: true });
      expect(result.after).toMatchObject({
        pending: false,
        placeholder: true,
        loaded: true,
        width: 8,
        aboveGlow: true,
      });
      expect(result.after.key).toBe(result.event.key);
      // One request per wait, and one for the PNG: no polling storm.
      expect(harness.server.calls(url)).toHaveLength(3);
    });
  });

  describe('under the Canvas renderer, which draws no tints', () => {
    it('paints each glow in its rarity colour, and drops come to rest on whole pixels', async () => {
      page = await harness.open({ renderer: 'canvas' });
      const result = await page.evaluate(async () => {
        const t = window.lootsmithTest;
        const { lootsmith } = t.scene('arena');
        const drop = await lootsmith.loot.drop({ x: 150.4, y: 99.6, count: 3, size: 50 });
        // Until the bounce (600 ms of the game's time, a tween of each sprite) is over, however slow the frames.
        const { tweens } = t.scene('arena');
        while (drop.sprites.some((s) => tweens.getTweensOf(s).length > 0))
          await new Promise((resolve) => setTimeout(resolve, 50));
        return {
          canvas: t.game.renderer.type === t.Phaser.CANVAS,
          rarities: drop.items.map((i) => i.rarity),
          sprites: drop.sprites.map((s) => {
            const texture = s.glow.texture as InstanceType<typeof t.Phaser.Textures.CanvasTexture>;
            return {
              key: texture.key,
              centre: [...texture.getContext().getImageData(32, 32, 1, 1).data],
              x: s.x,
              y: s.y,
            };
          }),
        };
      });
      expect(result.canvas).toBe(true);
      for (const [i, sprite] of result.sprites.entries()) {
        const color = RARITY_COLORS[result.rarities[i] as string] ?? RARITY_COLORS.COMMON;
        expect(sprite.key).toMatch(new RegExp(`glow:${color.toString(16)}$`));
        const want = [color >> 16, (color >> 8) & 255, color & 255];
        // Canvas keeps premultiplied alpha: a channel read back may be off by one or two.
        for (const [j, channel] of sprite.centre.slice(0, 3).entries())
          expect(Math.abs(channel - (want[j] as number))).toBeLessThanOrEqual(2);
      }
      expect(result.sprites.map((s) => [s.x, s.y])).toEqual([
        [88, 100],
        [150, 100],
        [213, 100],
      ]);
    });
  });
});
