import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnSQLite, type Engine } from '../test/engines.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { heavyCounts, seedHeavy, type SeedResult } from '../../scripts/seed/heavy.ts';

/**
 * `npm run seed -- heavy` (scripts/seed.ts) at a small scale on a SQLite file: what it wrote is what
 * the API answers, and a second seed of the same database is refused.
 */
const SCALE = 0.002;

describeOnSQLite('the heavy account seed', (engine: Engine) => {
  let server: TestServer;
  let seeded: SeedResult & { stopPresence: () => void };
  beforeAll(async () => {
    server = await startTestServer(engine, { PLAYER_RECORDS_MAX: '1000000' });
    seeded = await seedHeavy(server.app, { scale: SCALE });
  }, 60_000);
  afterAll(async () => {
    seeded?.stopPresence();
    await server?.close();
  });

  const get = async (path: string) => {
    const res = await server.call('GET', path, { token: seeded.token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  /** Every item of a cursor-paged list. */
  const all = async (path: string, items: string) => {
    const found: unknown[] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page = await get(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
      found.push(...page[items]);
      cursor = page.nextCursor;
    } while (cursor);
    return found;
  };

  it('writes the counts its scale asks for, as the API lists them', async () => {
    const counts = heavyCounts(SCALE);
    expect(seeded.counts).toEqual(counts);
    expect(counts.runs).toBeGreaterThan(counts.scripts);

    const scripts = (await get('/api/scripts')) as { id: string }[];
    expect(scripts).toHaveLength(counts.scripts);
    for (const script of scripts) {
      expect((await get(`/api/scripts/${script.id}/versions`)).items).toHaveLength(counts.versionsPerScript);
    }
    expect(await all('/api/executions?limit=100', 'runs')).toHaveLength(counts.runs);
    expect(await all('/api/game/console?limit=500', 'lines')).toHaveLength(counts.consoleLines);
    expect(await all('/api/players?limit=200', 'players')).toHaveLength(counts.playerRecords);
    const online = await get('/api/players/online?limit=1');
    expect(online.total).toBe(counts.onlinePlayers);
    const connections = await get('/api/admin/connections?pageSize=200');
    expect(connections.connected).toBe(counts.liveServers);
    expect((await get('/api/notifications/destinations')).destinations).toHaveLength(counts.destinations);
    const log = await get(`/api/notifications/destinations/${seeded.destinationIds[0]}/attempts`);
    expect(log.attempts.length).toBeGreaterThan(0);
  });

  it('refuses to seed a database that already has the heavy account', async () => {
    await expect(seedHeavy(server.app, { scale: SCALE })).rejects.toThrow(/already has the heavy account/);
  });
});
