import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/engines.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { createLogger } from '../../logger.ts';
import { insertUserRow } from '../../../test/user-rows.ts';
import { playersRepo, type SearchLimits } from './players.repo.ts';

/**
 * A search of the players finds them by their name index when it matches few, and walks the list
 * in order when it matches many (a typed "P"): both ways must answer the same rows, in the same
 * order, page after page. The limits are those of a hit game scaled down to this owner's players.
 */
const LIMITS: SearchLimits = { broadAt: 1_000, countUpTo: 500 };
const BROAD_AT = LIMITS.broadAt;
const COUNTED_UP_TO = LIMITS.countUpTo;
describeEachEngine('player search, narrow and broad', (engine) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-player-search-'));
  const OWNER = 'owner-search';
  const OTHER = 'owner-other';
  const PLAYERS = BROAD_AT + 500;
  const ONLINE = COUNTED_UP_TO + 300;
  const ZED_ONLINE = Math.ceil((BROAD_AT + 10) / 200);

  interface Seeded {
    id: string;
    name: string;
    displayName: string | null;
    lastSeen: string;
    serverId?: string;
    joinedAt?: string;
  }
  const seeded: Seeded[] = [];

  beforeAll(async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    handle = openDatabase(created.config, createLogger('silent'));
    await migrateToLatest(handle.db);
    await insertUserRow(handle.db, OWNER);
    await insertUserRow(handle.db, OTHER);
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    for (let i = 0; i < PLAYERS; i++) {
      // Every fifth is "Other…" by name and "Pal…" by display name; seen times repeat in pairs, so
      // the cursor's tie on the user id is used.
      const other = i % 5 === 0;
      seeded.push({
        id: String(1000 + i),
        name: other ? `Other${i}` : `Player${i}`,
        displayName: other ? `Pal${i}` : null,
        lastSeen: new Date(base + Math.floor(i / 2) * 1000).toISOString(),
        ...(i < ONLINE ? { serverId: `job-${i % 7}`, joinedAt: new Date(base + (i % 400) * 1000).toISOString() } : {}),
      });
    }
    // Enough "Zed…" for a broad search, of whom ten are online.
    for (let i = 0; i < BROAD_AT + 10; i++) {
      seeded.push({
        id: String(100_000 + i),
        name: `Zed${i}`,
        displayName: null,
        lastSeen: new Date(base + i * 1500).toISOString(),
        ...(i % 200 === 0 ? { serverId: 'job-z', joinedAt: new Date(base + i * 10).toISOString() } : {}),
      });
    }
    for (let from = 0; from < seeded.length; from += 500) {
      const batch = seeded.slice(from, from + 500);
      await handle.db
        .insertInto('players')
        .values(
          batch.map((p) => ({
            userId: OWNER,
            robloxUserId: p.id,
            name: p.name,
            nameKey: p.name.toLowerCase(),
            displayName: p.displayName,
            displayNameKey: p.displayName?.toLowerCase() ?? null,
            accountAgeDays: 10,
            firstSeen: p.lastSeen,
            lastSeen: p.lastSeen,
          })),
        )
        .execute();
      const online = batch.filter((p) => p.serverId);
      if (online.length) {
        await handle.db
          .insertInto('playerSessions')
          .values(
            online.map((p) => ({
              id: `s-${p.id}`,
              userId: OWNER,
              robloxUserId: p.id,
              serverId: p.serverId!,
              joinedAt: p.joinedAt!,
              leftAt: null,
            })),
          )
          .execute();
      }
    }
    // Another owner's player of the same name is never found.
    await handle.db
      .insertInto('players')
      .values({
        userId: OTHER,
        robloxUserId: '1001',
        name: 'Player1',
        nameKey: 'player1',
        displayName: null,
        displayNameKey: null,
        accountAgeDays: 1,
        firstSeen: '2026-11-30T00:00:00.000Z',
        lastSeen: '2026-11-30T00:00:00.000Z',
      })
      .execute();
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const finds = (q: string) => (p: Seeded) =>
    p.name.toLowerCase().startsWith(q.toLowerCase()) ||
    (p.displayName?.toLowerCase().startsWith(q.toLowerCase()) ?? false) ||
    p.id === q;
  const newestFirst = (time: (p: Seeded) => string) => (a: Seeded, b: Seeded) =>
    time(b).localeCompare(time(a)) || b.id.localeCompare(a.id);

  /** Every page of everyone a search finds, by cursor. */
  async function everyone(q: string): Promise<string[]> {
    const ids: string[] = [];
    let after: { lastSeen: string; robloxUserId: string } | undefined;
    for (;;) {
      const rows = await playersRepo.everyone(handle.db, OWNER, { search: q, after, limit: 300 }, LIMITS);
      ids.push(...rows.map((row) => row.robloxUserId));
      if (rows.length < 300) return ids;
      const last = rows.at(-1)!;
      after = { lastSeen: last.lastSeen, robloxUserId: last.robloxUserId };
    }
  }

  /** Every page of the players online a search finds, by cursor, and the first count. */
  async function online(q: string, serverId?: string) {
    const ids: string[] = [];
    let after: { joinedAt: string; robloxUserId: string } | undefined;
    let count: { total: number; capped: boolean } | undefined;
    for (;;) {
      const found = await playersRepo.online(handle.db, OWNER, { search: q, serverId, after }, LIMITS);
      count ??= await found.count();
      const rows = await found.page(200);
      ids.push(...rows.map((row) => row.robloxUserId));
      if (rows.length < 200) return { ids, count };
      const last = rows.at(-1)!;
      after = { joinedAt: last.joinedAt, robloxUserId: last.robloxUserId };
    }
  }

  describe('everyone seen', () => {
    it.each([
      ['P', 'broad: names and display names'],
      ['zed', 'broad: names'],
      ['player', 'broad: names'],
      ['Player12', 'narrow'],
      ['pal1', 'narrow: display names'],
      ['1234', 'a user id, and no name'],
    ])('"%s" (%s) finds every match once, most recently seen first', async (q) => {
      const expected = seeded
        .filter(finds(q))
        .sort(newestFirst((p) => p.lastSeen))
        .map((p) => p.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(await everyone(q)).toEqual(expected);
    });
  });

  describe('online now', () => {
    it('a broad search over every server pages through every match and counts up to its cap', async () => {
      const expected = seeded
        .filter((p) => p.serverId && finds('p')(p))
        .sort(newestFirst((p) => p.joinedAt!))
        .map((p) => p.id);
      expect(expected.length).toBeGreaterThan(COUNTED_UP_TO);
      const { ids, count } = await online('p');
      expect(ids).toEqual(expected);
      expect(count).toEqual({ total: COUNTED_UP_TO, capped: true });
    });

    it('a broad search on one server, and a narrow one, count exactly', async () => {
      const onServer = seeded.filter((p) => p.serverId === 'job-3' && finds('player')(p));
      const server = await online('player', 'job-3');
      expect(server.ids).toEqual(onServer.sort(newestFirst((p) => p.joinedAt!)).map((p) => p.id));
      expect(server.count).toEqual({ total: onServer.length, capped: false });

      const narrow = seeded.filter((p) => p.serverId && finds('Player11')(p));
      const found = await online('Player11');
      expect(found.ids).toEqual(narrow.sort(newestFirst((p) => p.joinedAt!)).map((p) => p.id));
      expect(found.count).toEqual({ total: narrow.length, capped: false });
    });

    it('a broad search that finds fewer online than the cap counts them exactly', async () => {
      const expected = seeded
        .filter((p) => p.serverId && finds('zed')(p))
        .sort(newestFirst((p) => p.joinedAt!))
        .map((p) => p.id);
      expect(expected).toHaveLength(ZED_ONLINE);
      const found = await online('zed');
      expect(found).toEqual({ ids: expected, count: { total: ZED_ONLINE, capped: false } });
    });
  });
});
