import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../test/engines.ts';
import type { DatabaseConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Db } from './database.ts';
import { ERRORS } from '@moonrelay/contract/messages';
import { errorAnswer } from '../http/error-handler.ts';
import { databaseUnavailable, uniqueViolation } from './errors.ts';

describeEachEngine('data layer', (engine) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  let config: DatabaseConfig;
  /** Resolves with the next warning the data layer logs. */
  let onWarning: ((args: unknown[]) => void) | undefined;
  /** Every line the data layer logs, by level. */
  const lines: { level: 'warn' | 'info'; args: unknown[] }[] = [];
  const nextWarning = () => new Promise<unknown[]>((resolve) => (onWarning = resolve));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-db-'));
  beforeAll(async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    config = created.config;
    handle = openDatabase(config, {
      warn: ((...args: unknown[]) => {
        lines.push({ level: 'warn', args });
        onWarning?.(args);
      }) as Logger['warn'],
      info: ((...args: unknown[]) => lines.push({ level: 'info', args })) as Logger['info'],
    });
  });
  afterAll(async () => {
    await handle.close();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('applies the migrations once, and again is a no-op', async () => {
    expect(await migrateToLatest(handle.db)).toEqual([
      '001-accounts-and-scripts',
      '002-executions',
      '003-game-link',
      '004-audit-log',
      '005-request-metrics',
      '006-temp-scripts',
      '007-oidc-states',
      '008-execution-initiator',
      '009-run-history',
      '010-mass-execution-items',
      '011-idempotency-keys',
      '012-console-lines',
      '013-script-versions',
      '014-game-ping-refusals',
      '015-scoped-api-keys',
      '016-schedules',
      '017-two-factor',
      '018-passkeys',
      '019-notifications',
      '020-players',
      '021-moderation',
      '022-open-cloud',
      '023-roster-speed',
      '024-mass-execution-batches',
      '025-game-broadcasts',
      '026-session-details',
      '027-player-limits',
      '028-teams',
      '029-team-activity',
      '030-script-shares',
      '031-schedule-makers',
      '032-run-actors',
      '033-cloud-runs',
      '034-run-filter-indexes',
      '035-script-list-index',
      '036-ban-list-pages',
    ]);
    expect(await migrateToLatest(handle.db)).toEqual([]);
  });

  const user = (id: string, email: string) => ({
    id,
    email,
    username: id,
    usernameKey: id,
    name: 'N',
    passwordHash: null,
    googleId: null,
    isAdmin: 0 as const,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });

  it('cascades an account deletion to its sessions, key, scripts and console lines', async () => {
    const { db } = handle;
    await db.insertInto('users').values(user('u1', 'u1@x.io')).execute();
    const at = '2026-01-01T00:00:00.000Z';
    await db
      .insertInto('sessions')
      .values({ id: 's1', userId: 'u1', tokenHash: 'h', createdAt: at, lastUsedAt: at, expiresAt: at })
      .execute();
    await db
      .insertInto('apiKeys')
      .values({ id: 'k1', userId: 'u1', keyHash: 'kh', keyCiphertext: 'c', createdAt: at })
      .execute();
    await db
      .insertInto('scripts')
      .values({
        id: 'p1',
        userId: 'u1',
        name: 'n',
        description: null,
        code: 'print(1)',
        isAutoExecute: 0,
        isPublic: 0,
        executionCount: 0,
        gameId: null,
        gameName: null,
        gameImageUrl: null,
        autoExecuteGames: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    await db
      .insertInto('consoleLines')
      .values({
        userId: 'u1',
        serverId: 'job-1',
        time: at,
        level: 'output',
        text: 'hello',
        stack: null,
        script: null,
        own: 0,
        executionId: null,
        dropped: null,
        receivedAt: at,
      })
      .execute();
    await db.deleteFrom('users').where('id', '=', 'u1').execute();
    for (const table of ['sessions', 'apiKeys', 'scripts', 'consoleLines'] as const) {
      expect(await db.selectFrom(table).select('id').execute(), table).toEqual([]);
    }
  });

  it('refuses orphans: an API key for a user that does not exist', async () => {
    await expect(
      handle.db
        .insertInto('apiKeys')
        .values({ id: 'k9', userId: 'nobody', keyHash: 'x', keyCiphertext: 'c', createdAt: 'now' })
        .execute(),
    ).rejects.toThrow();
  });

  it('reports which unique column a duplicate hit', async () => {
    await handle.db.insertInto('users').values(user('u2', 'dup@x.io')).execute();
    const error = await handle.db
      .insertInto('users')
      .values(user('u3', 'dup@x.io'))
      .execute()
      .catch((caught: unknown) => caught);
    expect(uniqueViolation(error)).toBe('email');
  });

  if (engine.name === 'SQLite') {
    it('runs SQLite with WAL, synchronous=FULL and foreign keys on', async () => {
      // The CamelCasePlugin renames result columns too (journal_mode -> journalMode).
      const pragma = async (name: string) => (await sql.raw(`PRAGMA ${name}`).execute(handle.db)).rows[0];
      expect(await pragma('journal_mode')).toEqual({ journalMode: 'wal' });
      expect(await pragma('synchronous')).toEqual({ synchronous: 2 });
      expect(await pragma('foreign_keys')).toEqual({ foreignKeys: 1 });
    });
  }

  if (engine.name === 'PostgreSQL') {
    const pid = async (db: Db) => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
    /** Ends a backend from outside, as a restart, failover or an administrator does. */
    async function terminate(backend: number) {
      const other = new pg.Client({ connectionString: config.kind === 'postgres' ? config.url : '' });
      await other.connect();
      try {
        await other.query('select pg_terminate_backend($1)', [backend]);
      } finally {
        await other.end();
      }
    }

    it('outlives PostgreSQL ending an idle connection: a warning, no crash, and the next query works', async () => {
      const idle = await pid(handle.db);
      const warned = nextWarning();
      await terminate(idle);
      // Without a listener this 'error' would have been an uncaught exception.
      expect(String((await warned)[1])).toMatch(/database connection lost/);
      expect(await pid(handle.db)).not.toBe(idle);
    });

    it('outlives a connection ended inside a transaction: that transaction fails as "unavailable" (503), the process and the pool go on', async () => {
      let failure: unknown;
      await handle.db
        .transaction()
        .execute(async (trx) => {
          const inUse = await pid(trx);
          const warned = nextWarning();
          await terminate(inUse);
          // Checked out between two statements: pg's pool does not listen to this connection now.
          await warned;
          await sql`select 1`.execute(trx);
        })
        .catch((error: unknown) => (failure = error));
      expect(failure).toBeDefined();
      expect(databaseUnavailable(failure)).toBe(true);
      expect(errorAnswer(failure)).toEqual({
        status: 503,
        body: { error: ERRORS.databaseUnavailable },
        headers: { 'Retry-After': '1' },
      });
      expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows).toEqual([{ one: 1 }]);
    });

    it('logs one line when every connection is ended at once and one when the database answers again', async () => {
      // Three connections in the pool, idle.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const started: number[] = [];
      const transactions = [1, 2, 3].map(() =>
        handle.db.transaction().execute(async (trx) => {
          started.push(await pid(trx));
          if (started.length === 3) release();
          await held;
        }),
      );
      await Promise.all(transactions);
      const from = lines.length;
      const warned = nextWarning();
      const other = new pg.Client({ connectionString: config.kind === 'postgres' ? config.url : '' });
      await other.connect();
      try {
        await other.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [started]);
      } finally {
        await other.end();
      }
      await warned;
      // A query may still meet a connection whose end has not been read yet; the next one works.
      for (;;) {
        try {
          await sql`select 1`.execute(handle.db);
          break;
        } catch (error) {
          expect(databaseUnavailable(error)).toBe(true);
        }
      }
      const logged = lines.slice(from);
      expect(logged.map((line) => [line.level, line.args[1]])).toEqual([
        ['warn', 'database connection lost; the pool opens a new one for the next query'],
        ['info', 'database reachable again'],
      ]);
      expect(logged[0]!.args[0]).toEqual({ reason: expect.any(String), code: '57P01' });
      expect(logged[1]!.args[0]).toEqual({ connectionsLost: 3 });
    });
  }
});
