import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { DatabaseConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { Database } from './schema.ts';
import { migrationProvider } from './migrations/index.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: DatabaseConfig['kind'];
  close(): Promise<void>;
}

/**
 * SQLite: WAL for concurrent readers, synchronous=FULL so an acknowledged write survives a power
 * cut, foreign keys on (SQLite has them off by default), a busy timeout instead of SQLITE_BUSY.
 */
function openSqlite(file: string): SQLite.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

/**
 * Kysely prepares every query anew, which was a tenth of the CPU time of a simple authenticated
 * GET (bench/http). Queries are built from a small fixed set of shapes, so prepared statements are
 * kept by SQL text (bounded; better-sqlite3 re-prepares them itself after a schema change). Safe
 * because each statement runs to completion synchronously; nothing here streams rows.
 */
const STATEMENT_CACHE_SIZE = 500;
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText) {
      let statement = statements.get(sqlText);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statement = sqlite.prepare(sqlText);
        statements.set(sqlText, statement);
      }
      return statement;
    },
  };
}

/**
 * `logger` hears of PostgreSQL connections lost (the server restarted or failed over, an
 * administrator ended the session, the database was dropped). pg reports a loss as an 'error' event
 * on the connection, which with no listener is an uncaught exception that would end the whole
 * process. The pool listens only while a connection is idle; a connection checked out (inside a
 * transaction, between two of its statements) has no listener of pg's, so each connection gets one
 * of ours for its whole life. The query in flight, or the next one, then fails the one request
 * (answered 503, see ./errors.ts), and the pool discards the connection when it comes back.
 */
export function openDatabase(config: DatabaseConfig, logger: Pick<Logger, 'warn' | 'info'>): DatabaseHandle {
  const plugins = [new CamelCasePlugin()];
  if (config.kind === 'sqlite') {
    const sqlite = withStatementCache(openSqlite(config.file));
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), plugins });
    return { db, kind: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: config.url, max: 10 });
  // One line when connections start being lost (a restart or failover ends them all at once) and
  // one when a new connection is made again, not one per connection lost.
  let lost = 0;
  pool.on('connect', (client) => {
    if (lost > 0) logger.info({ connectionsLost: lost }, 'database reachable again');
    lost = 0;
    client.on('error', (error: Error & { code?: string }) => {
      if (lost === 0) {
        logger.warn(
          { reason: error.message, code: error.code },
          'database connection lost; the pool opens a new one for the next query',
        );
      }
      lost += 1;
    });
  });
  // Also emitted for an idle connection's loss, already counted by the connection's own listener.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/** Applies every pending migration; throws (and the server does not start) if one fails. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Runs `work` in a transaction, joining the caller's when `db` already is one. */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
