import type { Kysely } from 'kysely';

// Where each user's part of a mass execution stands, in the database rather than in the memory of
// the worker that ran it: any instance reports it, a reloaded admin screen reads it, and a job the
// queue runs again claims the row first, so the part reaches the game at most once. command_id and
// execution_id are set when the part is claimed (their ids are derived from the batch and the
// user), so the command's or the run's outcome finds its part wherever it is recorded.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mass_execution_items')
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('command_id', 'text')
    .addColumn('execution_id', 'text')
    .addColumn('output', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mass_execution_items_pk', ['batch_id', 'user_id'])
    .execute();
  await db.schema.createIndex('mass_execution_items_command').on('mass_execution_items').column('command_id').execute();
  await db.schema
    .createIndex('mass_execution_items_execution')
    .on('mass_execution_items')
    .column('execution_id')
    .execute();
  // The sweep's question: which claimed parts have waited too long?
  await db.schema
    .createIndex('mass_execution_items_status_updated')
    .on('mass_execution_items')
    .columns(['status', 'updated_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mass_execution_items').execute();
}
