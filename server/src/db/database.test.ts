import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../test/engines.ts';
import type { DatabaseConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './database.ts';
import { uniqueViolation } from './errors.ts';

describeEachEngine('data layer', (engine) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  let config: DatabaseConfig;
  const warnings: unknown[][] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-db-'));
  beforeAll(async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    config = created.config;
    handle = openDatabase(config, { warn: ((...args: unknown[]) => warnings.push(args)) as Logger['warn'] });
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
      '009-console-lines',
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
    it('outlives PostgreSQL ending an idle connection: a warning, no crash, and the next query works', async () => {
      const pid = async () =>
        (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]!.pid;
      const idle = await pid();
      const other = new pg.Client({ connectionString: config.kind === 'postgres' ? config.url : '' });
      await other.connect();
      try {
        await other.query('select pg_terminate_backend($1)', [idle]);
      } finally {
        await other.end();
      }
      // Without the pool's listener this 'error' would have been an uncaught exception.
      for (let waited = 0; warnings.length === 0 && waited < 5_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]![1]).toMatch(/idle database connection lost/);
      expect(await pid()).not.toBe(idle);
    });
  }
});
