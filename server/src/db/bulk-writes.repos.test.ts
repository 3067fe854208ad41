import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../test/engines.ts';
import { createLogger } from '../logger.ts';
import { createMassProgress } from '../modules/admin/mass-progress.ts';
import { requestMetricsRepo } from '../modules/analytics/analytics.repo.ts';
import { consoleRepo, type ConsoleLineFields } from '../modules/console/console.repo.ts';
import { broadcastsRepo } from '../modules/game/broadcasts.repo.ts';
import { commandsRepo } from '../modules/game/commands.repo.ts';
import { gameServersRepo, type GameServerRow } from '../modules/game/game-servers.repo.ts';
import { moderationRepo } from '../modules/moderation/moderation.repo.ts';
import { deliveriesRepo, destinationsRepo } from '../modules/notifications/notifications.repo.ts';
import { bansRepo, type ActiveBanRow } from '../modules/open-cloud/open-cloud.repo.ts';
import { twoFactorRepo } from '../modules/two-factor/two-factor.repo.ts';
import { createMemoryEventBus } from '../platform/event-bus.ts';
import { engineOf, MAX_PARAMETERS, rowsPerStatement, whereInChunks, writeInChunks } from './bulk-writes.ts';
import { inTransaction, migrateToLatest, openDatabase, type DatabaseHandle, type Db } from './database.ts';

/**
 * Each repository's multi-row write, and each long `in` list, with more bound values than either
 * engine takes in one statement: PostgreSQL's bound, 65,535, is the larger, so every case here is
 * past both (a single statement would fail "too many SQL variables" on SQLite, "bind message
 * supplies 0 parameters" on PostgreSQL).
 */
const PAST_BOTH = 65_535;
/** Rows of `columns` values that one statement cannot carry on either engine. */
const rowsPastBoth = (columns: number) => Math.floor(PAST_BOTH / columns) + 1;
const idsPastBoth = () => Array.from({ length: PAST_BOTH + 1 }, (_, i) => `id-${i}`);

const T0 = '2026-11-22T10:00:00.000Z';
const T1 = '2026-11-22T11:00:00.000Z';

/** The values one statement of `rows` would bind: the guard that this test is past the engine's bound. */
const bound = (rows: object[]) => rows.length * Object.keys(rows[0]!).length;

const count = async (db: Db, table: 'moderationActions' | 'notificationDeliveries' | 'recoveryCodes') =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('bulk-write chunk sizes', () => {
  it('fit rows x columns within each engine', () => {
    expect(rowsPerStatement('sqlite', 17) * 17).toBeLessThanOrEqual(32_766);
    expect(rowsPerStatement('postgres', 17) * 17).toBeLessThanOrEqual(65_535);
    expect(rowsPerStatement('sqlite', 17)).toBeGreaterThan(1_900);
    expect(rowsPerStatement('sqlite', 100_000)).toBe(1);
  });
});

describeEachEngine('bulk writes past the parameter bound', (engine) => {
  let handle: DatabaseHandle;
  let db: Db;
  let drop: () => Promise<void>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-bulk-'));

  const addUser = (id: string) =>
    db
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
        createdAt: T0,
        updatedAt: T0,
      })
      .execute();

  beforeAll(async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    handle = openDatabase(created.config, createLogger('silent'));
    db = handle.db;
    await migrateToLatest(db);
    await addUser('u1');
    await addUser('u2');
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('knows the engine, and splits rows and lists at its bound, in order', async () => {
    const kind = engineOf(db);
    expect(kind).toBe(engine.name === 'SQLite' ? 'sqlite' : 'postgres');
    const per = Math.floor((MAX_PARAMETERS[kind] - 100) / 3);
    const rows = Array.from({ length: 2 * per + 5 }, (_, i) => ({ a: i, b: i, c: i, skipped: undefined }));
    const chunks = await writeInChunks(db, rows, async (chunk) => chunk);
    expect(chunks.map((chunk) => chunk.length)).toEqual([per, per, 5]);
    expect(chunks.flat()).toEqual(rows);
    const sized = await writeInChunks(db, rows.slice(0, 45), async (chunk) => chunk.length, { sizes: [32, 8, 1] });
    expect(sized).toEqual([32, 8, 1, 1, 1, 1, 1]);
    expect(await writeInChunks(db, [], async () => expect.unreachable())).toEqual([]);

    const ids = idsPastBoth();
    const seen: number[] = [];
    const out = await whereInChunks(db, ids, async (chunk) => (seen.push(chunk.length), chunk));
    expect(seen.length).toBe(kind === 'sqlite' ? 3 : 2);
    expect(Math.max(...seen)).toBeLessThanOrEqual(MAX_PARAMETERS[kind]);
    expect(out).toEqual(ids);
    expect(await whereInChunks(db, [], async () => expect.unreachable())).toEqual([]);
  });

  const moderationRow = (i: number, robloxUserId = `id-${i}`) => ({
    id: `m-${i}`,
    userId: 'u1',
    robloxUserId,
    kind: 'ban',
    actorId: null,
    actorName: null,
    message: 'm',
    privateReason: null,
    durationSeconds: null,
    excludeAltAccounts: 0,
    path: 'game',
    state: 'pending',
    error: null,
    commandId: null,
    claimedAt: null,
    serverId: null,
    replaces: null,
    endedBy: null,
    createdAt: new Date(Date.parse(T0) + i * 1000).toISOString(),
    completedAt: null,
  });

  it('moderation: inserts a row per action, all or none', async () => {
    const rows = Array.from({ length: rowsPastBoth(20) }, (_, i) => moderationRow(i));
    expect(bound(rows)).toBeGreaterThan(PAST_BOTH);
    // A duplicate id in the last chunk: the chunks before it are not left behind.
    const broken = [...rows, { ...rows[0]!, robloxUserId: 'again' }];
    await expect(moderationRepo.insert(db, broken)).rejects.toThrow();
    expect(await count(db, 'moderationActions')).toBe(0);
    await moderationRepo.insert(db, rows);
    expect(await count(db, 'moderationActions')).toBe(rows.length);
  });

  it('moderation: looks up bans, unbans and names of more players than one statement binds', async () => {
    const ids = idsPastBoth();
    const last = ids.length - 1;
    // Players seen, and an unban waiting, at both ends of the list (so in different chunks).
    await db
      .insertInto('players')
      .values(
        [0, last].map((i) => ({
          userId: 'u1',
          robloxUserId: `id-${i}`,
          name: `P${i}`,
          nameKey: `p${i}`,
          displayName: null,
          displayNameKey: null,
          accountAgeDays: null,
          firstSeen: T0,
          lastSeen: T0,
          sessions: 1,
          playSeconds: 0,
        })),
      )
      .execute();
    await moderationRepo.insert(db, [{ ...moderationRow(900_000, `id-${last}`), kind: 'unban' }]);

    const bans = await moderationRepo.unendedBans(db, 'u1', ids);
    // The moderation test above left a ban for each id below rowsPastBoth(20); newest first throughout.
    expect(bans.length).toBe(rowsPastBoth(20));
    expect(bans[0]!.robloxUserId).toBe(`id-${rowsPastBoth(20) - 1}`);
    expect(bans.at(-1)!.robloxUserId).toBe('id-0');
    expect(bans.map((ban) => ban.createdAt)).toEqual(
      bans
        .map((ban) => ban.createdAt)
        .sort()
        .reverse(),
    );
    expect([...(await moderationRepo.pendingUnbans(db, 'u1', ids))]).toEqual([`id-${last}`]);
    expect(await moderationRepo.knownPlayers(db, 'u1', ids)).toEqual(
      new Map([
        ['id-0', 'P0'],
        [`id-${last}`, `P${last}`],
      ]),
    );
  });

  it('notifications: inserts a row per delivery, all or none, and finds destinations of many users', async () => {
    await destinationsRepo.insert(db, {
      id: 'd1',
      userId: 'u2',
      kind: 'webhook',
      name: 'W',
      urlSealed: 'sealed',
      maskedUrl: 'https://hooks.example.com/…',
      secretSealed: null,
      events: 'run.failed',
      pausedAt: null,
      pausedReason: null,
      failuresInRow: 0,
      lastDeliveryAt: null,
      deliveringUntil: null,
      createdAt: T0,
      updatedAt: T0,
    });
    const rows = Array.from({ length: rowsPastBoth(11) }, (_, i) => ({
      id: `n-${i}`,
      destinationId: 'd1',
      eventId: `e-${i}`,
      event: 'run.failed',
      payload: '{}',
      occurredAt: T0,
      seq: i,
      state: 'pending',
      attempts: 0,
      nextAttemptAt: T0,
      deliveredAt: null,
    }));
    expect(bound(rows)).toBeGreaterThan(PAST_BOTH);
    await expect(deliveriesRepo.insertMany(db, [...rows, { ...rows[0]!, eventId: 'again' }])).rejects.toThrow();
    expect(await count(db, 'notificationDeliveries')).toBe(0);
    await deliveriesRepo.insertMany(db, rows);
    expect(await count(db, 'notificationDeliveries')).toBe(rows.length);

    const users = [...idsPastBoth(), 'u2'];
    expect((await destinationsRepo.listActiveForUsers(db, users)).map((d) => d.id)).toEqual(['d1']);
  });

  it('game servers: saves a batch of servers, then updates them', async () => {
    const rows: GameServerRow[] = Array.from({ length: rowsPastBoth(6) }, (_, i) => ({
      userId: i % 2 ? 'u1' : 'u2',
      serverId: `s-${i}`,
      gameData: null,
      connectedAt: T0,
      lastPing: T0,
      disconnectedAt: null,
    }));
    expect(bound(rows)).toBeGreaterThan(PAST_BOTH);
    await gameServersRepo.saveMany(db, rows);
    await gameServersRepo.saveMany(
      db,
      rows.map((row) => ({ ...row, lastPing: T1 })),
    );
    const stored = await db
      .selectFrom('gameServers')
      .select(['lastPing', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('lastPing')
      .execute();
    expect(stored.map((row) => ({ lastPing: row.lastPing, n: Number(row.n) }))).toEqual([
      { lastPing: T1, n: rows.length },
    ]);
  });

  it('mass execution: records a batch with a part per user', async () => {
    const progress = createMassProgress({ db, bus: createMemoryEventBus(() => {}), claimExpiryMs: 60_000 });
    const items = Array.from({ length: rowsPastBoth(9) }, (_, i) => ({
      batchId: 'b1',
      userId: `user-${i}`,
      status: 'queued' as const,
      commandId: null,
      output: null,
      error: null,
    }));
    await progress.createBatch(items);
    const parts = await db
      .selectFrom('massExecutionItems')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('batchId', '=', 'b1')
      .executeTakeFirstOrThrow();
    expect(Number(parts.n) * 9).toBeGreaterThan(PAST_BOTH);
    expect(Number(parts.n)).toBe(items.length);
  });

  it('two-factor: replaces the recovery codes', async () => {
    const hashes = Array.from({ length: rowsPastBoth(5) }, (_, i) => `h-${i}`);
    await twoFactorRepo.replaceRecoveryCodes(db, 'u1', hashes, T0);
    expect(await count(db, 'recoveryCodes')).toBe(hashes.length);
  });

  it('request metrics: adds a flush of minute rows, twice', async () => {
    const rows = Array.from({ length: rowsPastBoth(7) }, (_, i) => ({
      userId: i % 2 ? 'u1' : 'u2',
      minute: new Date(Date.parse(T0) + Math.floor(i / 2) * 60_000).toISOString(),
      endpoint: 'GET /api/scripts',
      requestCount: 1,
      errorCount: 0,
      totalDurationMs: 2,
      maxDurationMs: 2,
    }));
    expect(bound(rows)).toBeGreaterThan(PAST_BOTH);
    await requestMetricsRepo.add(db, rows);
    await requestMetricsRepo.add(db, rows);
    const totals = await db
      .selectFrom('requestMetrics')
      .select([
        (eb) => eb.fn.countAll<number | string>().as('n'),
        (eb) => eb.fn.sum<number | string>('requestCount').as('requests'),
      ])
      .executeTakeFirstOrThrow();
    expect({ n: Number(totals.n), requests: Number(totals.requests) }).toEqual({
      n: rows.length,
      requests: 2 * rows.length,
    });
  });

  it('console: inserts lines and answers their ids in order; finds the runs of many commands', async () => {
    const rows: ConsoleLineFields[] = Array.from({ length: rowsPastBoth(11) }, (_, i) => ({
      userId: 'u1',
      serverId: 's-1',
      time: T0,
      level: 'info',
      text: `line ${i}`,
      stack: null,
      script: null,
      own: 0,
      executionId: null,
      dropped: null,
      receivedAt: T0,
    }));
    expect(bound(rows)).toBeGreaterThan(PAST_BOTH);
    const ids = await consoleRepo.insert(db, rows);
    expect(ids.length).toBe(rows.length);
    const texts = await db.selectFrom('consoleLines').select(['id', 'text']).where('userId', '=', 'u1').execute();
    const textOf = new Map(texts.map((row) => [String(row.id), row.text]));
    expect(ids.map((id) => textOf.get(id))).toEqual(rows.map((row) => row.text));

    expect(await consoleRepo.executionsOfCommands(db, 'u1', idsPastBoth())).toEqual(new Map());
  });

  it('open cloud: replaces the bans in force with a long imported list', async () => {
    const rows: ActiveBanRow[] = Array.from({ length: rowsPastBoth(9) }, (_, i) => ({
      ownerId: 'u1',
      universeId: '42',
      robloxUserId: String(i),
      startTime: T0,
      durationSeconds: null,
      displayReason: 'r',
      privateReason: '',
      excludeAltAccounts: 0,
      updateTime: null,
    }));
    expect(bound(rows)).toBeGreaterThan(PAST_BOTH);
    await bansRepo.replaceActive(db, 'u1', rows);
    await bansRepo.replaceActive(db, 'u1', rows);
    const stored = await db
      .selectFrom('openCloudActiveBans')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(rows.length);
  });

  it('game commands: queues a command per server, records their results, and makes copies of a broadcast', async () => {
    const row = (i: number, broadcastId: string | null) => ({
      id: `${broadcastId ?? 'own'}-${i}`,
      userId: 'u2',
      serverId: `s-${i}`,
      type: 'heal',
      data: '{}',
      status: broadcastId ? 'delivered' : 'queued',
      source: 'dashboard',
      executionId: null,
      attempts: broadcastId ? 1 : 0,
      leaseUntil: broadcastId ? T1 : null,
      output: null,
      error: null,
      durationMs: null,
      createdAt: T0,
      expiresAt: T1,
      deliveredAt: broadcastId ? T0 : null,
      completedAt: null,
      broadcastId,
    });
    const own = Array.from({ length: rowsPastBoth(18) }, (_, i) => row(i, null));
    expect(bound(own)).toBeGreaterThan(PAST_BOTH);
    await commandsRepo.insert(db, own);

    // Six values a result: more results than one UPDATE from a list of them binds.
    const results = Array.from({ length: rowsPastBoth(6) }, (_, i) => ({
      id: `own-${i % own.length}`,
      userId: 'u2',
      status: 'succeeded' as const,
      output: `out ${i}`,
      error: null,
      durationMs: i,
    }));
    const completed = await inTransaction(db, (trx) => commandsRepo.completeMany(trx, results, T1));
    // Each command once, however many times the list names it.
    expect(completed.length).toBe(own.length);
    expect(new Set(completed.map((command) => command.status))).toEqual(new Set(['succeeded']));

    await broadcastsRepo.insert(db, {
      id: 'b1',
      userId: 'u2',
      type: 'heal',
      data: '{}',
      source: 'dashboard',
      servers: own.length,
      createdAt: T0,
      expiresAt: T1,
      endedAt: null,
    });
    const copies = own.map((_, i) => row(i, 'b1'));
    expect((await broadcastsRepo.insertCopies(db, copies)).length).toBe(copies.length);
    // Taken again (another instance, the same moment): no second copy of any.
    expect(await broadcastsRepo.insertCopies(db, copies)).toEqual([]);
  });
});
