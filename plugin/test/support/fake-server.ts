import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  CombineRequest,
  type CombineResponse,
  CreateItemRequest,
  type CreateItemResponse,
  type EquipmentResponse,
  EquipRequest,
  type ErrorCode,
  GenerateItemsRequest,
  ImageGenerationRequest,
  type InventoryResponse,
  type Item,
  errorBody as protocolErrorBody,
  SessionRequest,
  UnequipRequest,
  UseItemRequest,
  type UseItemResponse,
} from '@lootsmith/protocol';
import { listenOnLoopback } from '@lootsmith/test-support/listen';
import { solidPng } from '@lootsmith/test-support/png';
import type { ZodType } from 'zod';

/** A scripted answer that replaces the normal one for the next matching request. */
export interface Scripted {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answers (until the client gives up or the server closes). */
  hang?: boolean;
  /** Holds the normal answer back until `release()` is called. */
  held?: boolean;
}

export interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export const PNG = solidPng(8, [220, 40, 40]);

export function fakeItem(n: number, withIcon = true): Item {
  return {
    id: `item-${n}`,
    name: `Blade ${n}`,
    type: 'WEAPON',
    subtype: 'sword',
    rarity: (['COMMON', 'RARE', 'LEGENDARY'] as const)[n % 3] as Item['rarity'],
    level: 3,
    element: 'fire',
    material: 'iron',
    description: 'A test blade of some renown.',
    lore: 'Forged in a unit test, long ago.',
    stats: [{ name: 'attack', value: 5 }],
    effects: [],
    value: 10,
    icon: withIcon ? { id: `icon-${n}`, url: `/api/v1/icons/icon-${n}.png`, prompt: `blade ${n}` } : null,
    created_at: '2026-01-01T00:00:00.000Z',
  };
}

/**
 * A small stand-in for the Lootsmith server: schema-checked requests, schema-valid answers,
 * and a script of failures (`fail('/v1/generate/items', { status: 502 })`).
 */
export async function startFakeServer() {
  const seen: Seen[] = [];
  const script = new Map<string, Scripted[]>();
  const held: Array<() => void> = [];
  const tokens = new Set<string>();
  let counter = 0;
  let staticFiles: Record<string, { type: string; body: Buffer | string; cache?: boolean }> = {};

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, code: ErrorCode) =>
    send(res, status, protocolErrorBody(code, `${code} (fake)`));

  function valid<T>(schema: ZodType<T>, body: unknown, res: ServerResponse): T | undefined {
    const parsed = schema.safeParse(body);
    if (!parsed.success) error(res, 400, 'invalid_request');
    return parsed.success ? parsed.data : undefined;
  }

  function answer(req: IncomingMessage, res: ServerResponse, path: string, body: unknown) {
    const icon = path.match(/^\/api\/v1\/icons\/(.+)\.png$/);
    if (req.method === 'GET' && icon) {
      res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
      return res.end(PNG);
    }
    if (req.method === 'POST' && path === '/api/v1/session') {
      const session = valid(SessionRequest, body, res);
      if (!session) return;
      const token = `token-${++counter}`;
      tokens.add(token);
      return send(res, 200, { token, player_id: session.player_id, expires_at: '2099-01-01T00:00:00Z' });
    }
    const auth = req.headers.authorization?.replace(/^Bearer /, '');
    if (!auth || !tokens.has(auth)) return error(res, 401, 'unauthorized');
    if (req.method === 'POST' && path === '/v1/generate/items') {
      const request = valid(GenerateItemsRequest, body, res);
      if (!request) return;
      if (request.items.some((i) => i.rarity)) return error(res, 403, 'forbidden');
      return send(res, 200, { items: request.items.map(() => fakeItem(++counter)) });
    }
    if (req.method === 'POST' && path === '/api/v1/crafting/combine') {
      const request = valid(CombineRequest, body, res);
      if (!request) return;
      const result: CombineResponse = {
        success: true,
        result_item: fakeItem(++counter),
        consumed_items: request.ingredients.map((i) => i.item_id),
        message: 'Combined.',
        recipe_discovered: true,
        crafting_xp_earned: 10,
      };
      return send(res, 200, result);
    }
    const create = path.match(/^\/api\/v1\/player\/([^/]+)\/create-item$/);
    if (req.method === 'POST' && create) {
      const request = valid(CreateItemRequest, body, res);
      if (!request) return;
      const result: CreateItemResponse = {
        item: fakeItem(++counter),
        consumed_materials: request.materials,
        crafting_xp: 25,
        cooldown_until: '2026-01-01T00:00:00Z',
      };
      return send(res, 200, result);
    }
    const inventory = path.match(/^\/api\/v1\/player\/([^/]+)\/inventory$/);
    if (req.method === 'GET' && inventory) {
      const result: InventoryResponse = {
        player_id: decodeURIComponent(inventory[1] as string),
        items: [
          { item: fakeItem(1), quantity: 1 },
          { item: fakeItem(2), quantity: 3 },
        ],
        crafting_level: 1,
        crafting_xp: 0,
        recipes: [],
      };
      return send(res, 200, result);
    }
    const worn = path.match(/^\/api\/v1\/player\/([^/]+)\/equipment(\/equip|\/unequip)?$/);
    if (worn) {
      const change = worn[2] === '/equip' ? valid(EquipRequest, body, res) : undefined;
      const off = worn[2] === '/unequip' ? valid(UnequipRequest, body, res) : undefined;
      if (worn[2] && !change && !off) return;
      const sword = fakeItem(1);
      const wearing = change?.item_id === sword.id || (!change && !off);
      const result: EquipmentResponse = {
        player_id: decodeURIComponent(worn[1] as string),
        slots: [{ slot: 'WEAPON', item: wearing ? sword : null }],
        stats: wearing ? { attack: 5 } : {},
      };
      return send(res, 200, result);
    }
    if (req.method === 'POST' && /^\/api\/v1\/player\/[^/]+\/use-item$/.test(path)) {
      const request = valid(UseItemRequest, body, res);
      if (!request) return;
      const potion = { ...fakeItem(7), id: request.item_id, type: 'CONSUMABLE' as const };
      const result: UseItemResponse = {
        item: potion,
        effects: [{ name: 'health', value: 12 }],
        remaining: 0,
      };
      return send(res, 200, result);
    }
    if (req.method === 'POST' && path === '/v1/image/generations') {
      if (!valid(ImageGenerationRequest, body, res)) return;
      return send(res, 200, { image: PNG.toString('base64') });
    }
    error(res, 404, 'not_found');
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] as string;
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-headers': '*',
          'access-control-allow-methods': 'GET, POST',
        });
        return res.end();
      }
      const file = staticFiles[path === '/' ? '/index.html' : path];
      if (req.method === 'GET' && file) {
        res.writeHead(200, {
          'content-type': file.type,
          ...(file.cache ? { 'cache-control': 'max-age=3600' } : {}),
        });
        return res.end(file.body);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? JSON.parse(text) : undefined;
      seen.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      const key = req.headers['idempotency-key'];
      // The real server's rule: a malformed key is refused before anything else.
      if (key !== undefined && !/^[\w.:-]{8,128}$/.test(String(key)))
        return error(res, 400, 'invalid_request');
      const next = script.get(path)?.shift();
      if (next?.hang) return;
      if (next?.held) return void held.push(() => answer(req, res, path, body));
      if (next) return send(res, next.status, next.body ?? {}, next.headers);
      answer(req, res, path, body);
    });
  });
  const { url, close } = await listenOnLoopback(server);

  return {
    url,
    seen,
    /** Requests to `path` (API calls only). */
    calls: (path: string) => seen.filter((s) => s.path === path),
    /** Queues answers for the next requests to `path`, in order. */
    script(path: string, ...answers: Scripted[]) {
      script.set(path, [...(script.get(path) ?? []), ...answers]);
    },
    /** Answers every held request normally. */
    release() {
      for (const answerNow of held.splice(0)) answerNow();
    },
    get heldCount() {
      return held.length;
    },
    /** Forgets every issued token, as a server restart with new secrets would. */
    revokeTokens: () => tokens.clear(),
    serve(files: typeof staticFiles) {
      staticFiles = files;
    },
    close,
  };
}

export type FakeServer = Awaited<ReturnType<typeof startFakeServer>>;

/** The ErrorBody of a scripted failure (a game-rule code carries its `reason` too). */
export const errorBody = (code: ErrorCode) => protocolErrorBody(code, `${code} (scripted)`);
