import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { SCRIPT_CODE_MAX_BYTES } from '@moonrelay/contract/constants';

/**
 * A local stand-in for the ScriptBlox API (`<url>/api`), answering in its documented shapes
 * (shared/reference/roblox-and-catalogue.md), for the API and browser tests:
 *
 * - `GET /api/script/fetch?page&max`: `{ result: { totalPages, nextPage, max, scripts } }`, newest first;
 * - `GET /api/script/search?q&page&max`: `{ result: { totalPages, scripts } }` (no nextPage, as search answers);
 * - `GET /api/script/trending`: `{ result: { scripts } }`, the six most viewed;
 * - `GET /api/script/{id}`: `{ script: { ...fields, script } }` (without the code for the long script, so
 *   the raw endpoint is needed), `GET /api/script/raw/{id}`: the code as text;
 * - `GET /images/...`: a small PNG.
 *
 * Entries alternate the two spellings (`isUniversal`/`universal`, `isPatched`/`patched`,
 * `key`/`keySystem`, `game._id`/`game.gameId`) and relative (`/images/...`) and absolute images.
 * Search terms drive the failure cases: `slow` answers after `slowMs`, `malformed` answers broken
 * JSON, `ratelimited` answers 429 with Retry-After: 1, and a term matching nothing an empty page.
 * `setDown(true)` drops every connection (unreachable); `rateLimitNext(n)` answers the next n calls 429.
 * `setFailing('500')` answers every API call 500; `setFailing('hang')` holds every API call until
 * `releaseHeld()` answers them normally (`waitForHeld(n)` resolves once n are held).
 */

export interface FakeCatalogueScript {
  _id: string;
  title: string;
  code: string;
  gameId: number | null;
  gameName: string;
  views: number;
  verified: boolean;
  universal: boolean;
  patched: boolean;
  keySystem: boolean;
  createdAt: string;
  /** A path under /images/ or an absolute URL. */
  imageUrl: string;
}

export interface CatalogueHit {
  path: string;
  query: Record<string, string>;
  /** performance.now() when the request arrived. */
  at: number;
}

const GAMES = [
  { id: 2753915549, name: 'Blox Fruits' },
  { id: 8737899170, name: 'Pet Simulator 99' },
  { id: 4924922222, name: 'Brookhaven RP' },
  { id: 286090429, name: 'Arsenal' },
  { id: 606849621, name: 'Jailbreak' },
];
const FEATURES = ['Auto Farm', 'ESP', 'Teleports', 'Speed Hub', 'Auto Collect', 'Aimbot', 'Fly GUI', 'Hitbox'];

const scriptId = (n: number) => `64f0c0de${n.toString(16).padStart(16, '0')}`;

/** A long script (over 10 000 characters) that prints a marker when it runs. */
export const LONG_SCRIPT_MARKER = 'mega hub loaded';
function longCode(): string {
  const lines = [
    '-- Mega Hub: a long catalogue script (kept by Moonrelay and fetched by a loader).',
    'local total = 0',
  ];
  for (let i = 1; i <= 400; i += 1) lines.push(`total = total + ${i} -- step ${String(i).padStart(3, '0')} of the hub`);
  lines.push(`print("${LONG_SCRIPT_MARKER}", total)`);
  return lines.join('\n');
}

function buildCatalogue(): FakeCatalogueScript[] {
  const base = Date.parse('2026-03-01T12:00:00.000Z');
  const scripts: FakeCatalogueScript[] = [];
  for (let n = 0; n < 45; n += 1) {
    const game = GAMES[n % GAMES.length]!;
    const universal = n % 7 === 3;
    scripts.push({
      _id: scriptId(n + 1),
      title: `${universal ? 'Universal' : game.name} ${FEATURES[n % FEATURES.length]} v${(n % 4) + 1}`,
      code: `print("${FEATURES[n % FEATURES.length]} ${n + 1} ready")`,
      gameId: universal ? null : game.id,
      gameName: universal ? 'Universal Script' : game.name,
      views: [1234, 56_789, 999, 1_250_000, 15_300, 0, 4_200][n % 7]! + n,
      verified: n % 3 === 0,
      universal,
      patched: n % 5 === 4,
      keySystem: n % 4 === 2,
      createdAt: new Date(base - n * 3_600_000 * 7).toISOString(),
      imageUrl: n % 2 === 0 ? `/images/games/${game.id}.png` : `https://tr.rbxcdn.com/${game.id}/512/512/Image/Png`,
    });
  }
  // Named entries the tests use.
  Object.assign(scripts[0]!, {
    title: 'Hello Moonrelay',
    code: 'print("Hello from the catalogue")',
    views: 1_234,
    verified: true,
  });
  Object.assign(scripts[1]!, {
    title: 'Infinite Yield Admin',
    code: [
      '-- the classic admin: getgenv() here in a comment does not count',
      'loadstring(game:HttpGet("https://raw.githubusercontent.com/EdgeIY/infiniteyield/master/source"))()',
      'getgenv().IY_LOADED = true',
      'local player = game:GetService("Players").LocalPlayer',
    ].join('\n'),
    views: 2_500_000,
    universal: true,
    gameId: null,
    gameName: 'Universal Script',
  });
  Object.assign(scripts[2]!, {
    title: 'Mega Hub Long Script',
    code: longCode(),
    views: 15_300,
    patched: true,
    keySystem: true,
  });
  return scripts;
}

export const CATALOGUE_SCRIPTS = buildCatalogue();
export const catalogueScript = (title: string) => CATALOGUE_SCRIPTS.find((script) => script.title === title)!;

/** The upstream shape of one script, in the spelling its position picks. */
function upstreamShape(script: FakeCatalogueScript, index: number, withCode: boolean) {
  const even = index % 2 === 0;
  const game = {
    ...(script.gameId === null ? {} : even ? { _id: String(script.gameId) } : { gameId: script.gameId }),
    name: script.gameName,
    imageUrl: script.imageUrl,
  };
  return {
    _id: script._id,
    title: script.title,
    slug: script.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    game,
    verified: script.verified,
    views: script.views,
    scriptType: 'free',
    createdAt: script.createdAt,
    updatedAt: script.createdAt,
    ...(even
      ? { isUniversal: script.universal, isPatched: script.patched, key: script.keySystem }
      : { universal: script.universal, patched: script.patched, keySystem: script.keySystem }),
    ...(withCode ? { script: script.code } : {}),
  };
}

/** A solid-colour PNG (width x height), for card images. */
export function placeholderPng(seed: string, width = 64, height = 36): Buffer {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const [r, g, b] = [60 + (hash % 150), 60 + ((hash >> 8) % 150), 90 + ((hash >> 16) % 150)];
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A script only reachable by its id (in no listing) whose source is over Moonrelay's 1 MiB cap. */
export const OVERSIZED_SCRIPT_ID = '64f0c0de00000000000000aa';

/**
 * `localImages` serves every card image from the stand-in itself (relative paths), for a browser
 * that cannot reach Roblox's CDN and must not log failed image loads (the web benchmark).
 */
export function fakeCatalogue(options: { slowMs?: number; localImages?: boolean } = {}) {
  const slowMs = options.slowMs ?? 3_000;
  const shape = (script: FakeCatalogueScript, index: number, withCode: boolean) => {
    const upstream = upstreamShape(script, index, withCode);
    if (options.localImages)
      upstream.game.imageUrl = script.imageUrl.replace(
        /^https:\/\/tr\.rbxcdn\.com\/(\d+)\/.*$/,
        '/images/games/$1.png',
      );
    return upstream;
  };
  const hits: CatalogueHit[] = [];
  let down = false;
  let rateLimited = 0;
  let failing: 'no' | '500' | 'hang' = 'no';
  const held: (() => void)[] = [];
  let heldWaiters: { count: number; resolve: () => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    hits.push({ path: url.pathname, query, at: performance.now() });
    if (down) {
      req.socket.destroy();
      return;
    }
    if (failing === '500' && url.pathname.startsWith('/api/')) {
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end('{"message":"Internal Server Error"}');
    }
    if (failing === 'hang' && url.pathname.startsWith('/api/')) {
      held.push(() => answerApi(res, url, query));
      heldWaiters = heldWaiters.filter((waiter) => (held.length >= waiter.count ? (waiter.resolve(), false) : true));
      return;
    }
    answerApi(res, url, query);
  });

  function answerApi(res: http.ServerResponse, url: URL, query: Record<string, string>) {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (url.pathname.startsWith('/images/')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(placeholderPng(url.pathname));
    }
    if (rateLimited > 0 && url.pathname.startsWith('/api/')) {
      rateLimited -= 1;
      return send(429, { message: 'Too many requests' }, { 'retry-after': '1' });
    }
    const page = Math.max(1, Number(query.page) || 1);
    const max = Math.min(20, Math.max(1, Number(query.max) || 20));
    const pageOf = (list: FakeCatalogueScript[]) => ({
      totalPages: Math.ceil(list.length / max),
      scripts: list
        .slice((page - 1) * max, page * max)
        .map((script) => shape(script, CATALOGUE_SCRIPTS.indexOf(script), true)),
    });

    if (url.pathname === '/api/script/fetch') {
      const { totalPages, scripts } = pageOf(CATALOGUE_SCRIPTS);
      return send(200, { result: { totalPages, nextPage: page < totalPages ? page + 1 : totalPages, max, scripts } });
    }
    if (url.pathname === '/api/script/trending') {
      const top = [...CATALOGUE_SCRIPTS].sort((a, b) => b.views - a.views).slice(0, 6);
      return send(200, {
        result: { scripts: top.map((script) => shape(script, CATALOGUE_SCRIPTS.indexOf(script), true)) },
      });
    }
    if (url.pathname === '/api/script/search') {
      const term = (query.q ?? '').toLowerCase();
      if (term === 'malformed') return send(200, '{"result": {"scripts": [{"_id": "x", "title": ');
      if (term === 'ratelimited') return send(429, { message: 'Too many requests' }, { 'retry-after': '1' });
      const answer = () => {
        const { totalPages, scripts } = pageOf(CATALOGUE_SCRIPTS.filter((s) => s.title.toLowerCase().includes(term)));
        send(200, { result: { totalPages, scripts } });
      };
      if (term.includes('slow')) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) answer();
        }, slowMs);
        timers.add(timer);
        return;
      }
      return answer();
    }
    const raw = /^\/api\/script\/raw\/([^/]+)$/.exec(url.pathname);
    const one = /^\/api\/script\/([^/]+)$/.exec(url.pathname);
    if ((raw ?? one)?.[1] === OVERSIZED_SCRIPT_ID) {
      if (one) return send(200, { script: { _id: OVERSIZED_SCRIPT_ID, title: 'Oversized', script: undefined } });
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end(`print("${'x'.repeat(SCRIPT_CODE_MAX_BYTES)}")`);
    }
    const script = CATALOGUE_SCRIPTS.find((entry) => entry._id === (raw ?? one)?.[1]);
    if (raw) {
      if (!script) return send(404, { message: 'Script not found' });
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end(script.code);
    }
    if (one) {
      if (!script) return send(404, { message: 'Script not found' });
      const index = CATALOGUE_SCRIPTS.indexOf(script);
      // The long script's JSON comes without its code, as some listings do: the raw endpoint has it.
      const withCode = script.code.length <= 10_000;
      return send(200, { script: { ...shape(script, index, withCode), likeCount: 10, dislikeCount: 1 } });
    }
    send(404, { message: 'Not found' });
  }

  return {
    hits,
    /** Requests to the API (not images) whose path starts with `prefix`. */
    apiHits: (prefix = '/api/') => hits.filter((hit) => hit.path.startsWith(prefix)),
    setDown: (value: boolean) => {
      down = value;
    },
    setFailing: (mode: 'no' | '500' | 'hang') => {
      failing = mode;
    },
    /** How many `slow` searches have not been answered yet. */
    slowPending: () => timers.size,
    /** How many API calls are being held ('hang'). */
    held: () => held.length,
    /** Resolves once `count` API calls are being held. */
    waitForHeld: (count: number) =>
      new Promise<void>((resolve) => {
        if (held.length >= count) resolve();
        else heldWaiters.push({ count, resolve });
      }),
    /** Answers every held call as if nothing had been wrong. */
    releaseHeld: () => {
      for (const answer of held.splice(0)) answer();
    },
    /** Answers the next `n` API calls 429 with Retry-After: 1. */
    rateLimitNext: (n: number) => {
      rateLimited = n;
    },
    /** The base URL; the API is under `/api`. */
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeCatalogue = ReturnType<typeof fakeCatalogue>;
