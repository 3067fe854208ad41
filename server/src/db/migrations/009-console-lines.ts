import { SqliteAdapter, type Kysely } from 'kysely';

// The live game console: what each game server's scripts printed, warned and threw (the last
// CONSOLE_LINES_PER_SERVER lines per server; older ones are pruned in the background).
//
// The id is a number the database hands out in insert order (SQLite's AUTOINCREMENT, PostgreSQL's
// identity), so lines sort in the order they were received and a page's cursor is stable however
// many lines arrive meanwhile, on every instance alike. No foreign key on execution_id: deleting a
// run would make SQLite search this (large, unindexed by run) table for each one; a link to a run
// that is gone is harmless, the run's page answers 404.

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('console_lines')
    .addColumn(
      'id',
      sqlite ? 'integer' : 'bigint',
      sqlite ? (c) => c.primaryKey().autoIncrement() : (c) => c.primaryKey().generatedAlwaysAsIdentity(),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('server_id', 'text', (c) => c.notNull())
    // When the game logged it (its clock); received_at is when this server stored it (ours).
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('stack', 'text')
    .addColumn('script', 'text')
    .addColumn('own', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('execution_id', 'text')
    // Set on Moonrelay's marker lines only: how many lines were lost just before this one.
    .addColumn('dropped', 'integer')
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
  // A user's console, newest first (and the account's deletion).
  await db.schema.createIndex('console_lines_user').on('console_lines').columns(['user_id', 'id']).execute();
  // One server's console, and the pruning of each server's oldest lines.
  await db.schema
    .createIndex('console_lines_server')
    .on('console_lines')
    .columns(['user_id', 'server_id', 'id'])
    .execute();
  // The server cards' count of errors in the last hour.
  await db.schema
    .createIndex('console_lines_errors')
    .on('console_lines')
    .columns(['user_id', 'level', 'received_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('console_lines').execute();
}
