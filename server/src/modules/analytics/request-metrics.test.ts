import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/engines.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { createLogger } from '../../logger.ts';
import { createRequestMetrics, type RequestMetrics } from './request-metrics.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-22T10:15:30.000Z');

describeEachEngine('request metrics roll-up (stored)', (engine) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  let metrics: RequestMetrics;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-metrics-'));

  const addUser = (id: string) =>
    handle.db
      .insertInto('users')
      .values({
        id,
        email: `${id}@example.com`,
        username: id,
        usernameKey: id,
        name: id,
        passwordHash: null,
        googleId: null,
        isAdmin: 0,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      })
      .execute();

  const stored = () =>
    handle.db
      .selectFrom('requestMetrics')
      .selectAll()
      .orderBy('userId')
      .orderBy('minute')
      .orderBy('endpoint')
      .execute()
      .then((rows) => rows.map((row) => ({ ...row, requestCount: Number(row.requestCount) })));

  beforeAll(async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    handle = openDatabase(created.config, createLogger('silent'));
    await migrateToLatest(handle.db);
    await addUser('u1');
    await addUser('u2');
  });
  afterAll(async () => {
    await handle.close();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await metrics?.close();
    await handle.db.deleteFrom('requestMetrics').execute();
    // A long interval: these tests flush by hand.
    metrics = createRequestMetrics({ db: handle.db, logger: createLogger('silent'), flushIntervalMs: 3_600_000 });
  });

  it('writes nothing per request: counts reach the table only when flushed', async () => {
    for (let i = 0; i < 50; i++) metrics.record('u1', 'POST /api/game/ping', NOW, 1, false);
    expect(await stored()).toEqual([]);
    await metrics.flush();
    expect(await stored()).toEqual([
      {
        userId: 'u1',
        minute: '2026-11-22T10:15:00.000Z',
        endpoint: 'POST /api/game/ping',
        requestCount: 50,
        errorCount: 0,
        totalDurationMs: 50,
        maxDurationMs: 1,
      },
    ]);
  });

  it('adds a minute flushed in several parts into its one row', async () => {
    metrics.record('u1', 'GET /api/scripts', NOW, 2, false);
    await metrics.flush();
    metrics.record('u1', 'GET /api/scripts', NOW + 10_000, 6, true);
    metrics.record('u1', 'GET /api/scripts', NOW + 20_000, 1, false);
    await metrics.flush();
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ requestCount: 3, errorCount: 1, totalDurationMs: 9, maxDurationMs: 6 });
  });

  it('drops the counts of an account deleted before the flush and keeps everyone else’s', async () => {
    await addUser('gone');
    metrics.record('gone', 'DELETE /api/user/account', NOW, 3, false);
    metrics.record('u2', 'GET /api/user', NOW, 1, false);
    await handle.db.deleteFrom('users').where('id', '=', 'gone').execute();
    await metrics.flush();
    expect((await stored()).map((row) => row.userId)).toEqual(['u2']);
  });

  it('writes what is left when closed', async () => {
    metrics.record('u1', 'GET /api/user', NOW, 1, false);
    await metrics.close();
    expect(await stored()).toHaveLength(1);
  });

  it('folds minute rows older than two days into their hour, keeping every total', async () => {
    const old = NOW - 3 * DAY_MS; // 2026-11-19T10:15:30Z
    const hour = (h: number, m: number) => old - (old % 3_600_000) + (h - 10) * 3_600_000 + m * 60_000;
    metrics.record('u1', 'GET /api/scripts', hour(10, 0), 1, false);
    metrics.record('u1', 'GET /api/scripts', hour(10, 5), 4, true);
    metrics.record('u1', 'GET /api/scripts', hour(10, 59), 2, false);
    metrics.record('u1', 'GET /api/scripts', hour(11, 30), 8, false);
    metrics.record('u1', 'GET /api/user', hour(10, 30), 1, false);
    metrics.record('u2', 'GET /api/scripts', hour(10, 30), 1, false);
    // Recent minutes stay minutes.
    metrics.record('u1', 'GET /api/scripts', NOW, 1, false);
    metrics.record('u1', 'GET /api/scripts', NOW - 60_000, 1, false);
    await metrics.flush();
    expect(await stored()).toHaveLength(8);

    await metrics.upkeep(NOW);
    const rows = await stored();
    expect(rows.map((row) => `${row.userId} ${row.minute} ${row.endpoint} ${row.requestCount}`)).toEqual([
      'u1 2026-11-19T10:00:00.000Z GET /api/scripts 3',
      'u1 2026-11-19T10:00:00.000Z GET /api/user 1',
      'u1 2026-11-19T11:00:00.000Z GET /api/scripts 1',
      'u1 2026-11-22T10:14:00.000Z GET /api/scripts 1',
      'u1 2026-11-22T10:15:00.000Z GET /api/scripts 1',
      'u2 2026-11-19T10:00:00.000Z GET /api/scripts 1',
    ]);
    expect(rows[0]).toMatchObject({ errorCount: 1, totalDurationMs: 7, maxDurationMs: 4 });
    // Running it again changes nothing.
    await metrics.upkeep(NOW);
    expect(await stored()).toEqual(rows);
  });

  it('deletes rows older than the longest analytics period (30 days) and a day', async () => {
    metrics.record('u1', 'GET /api/scripts', NOW - 32 * DAY_MS, 1, false);
    metrics.record('u1', 'GET /api/scripts', NOW - 29 * DAY_MS, 1, false);
    await metrics.flush();
    await metrics.upkeep(NOW);
    expect((await stored()).map((row) => row.minute)).toEqual(['2026-10-24T10:00:00.000Z']);
  });
});
