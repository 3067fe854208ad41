import type { Kysely } from 'kysely';

// One row per mass execution: who started it, and when its last part ended. finished_at is set by
// a guarded UPDATE (only while it is still null and no part is open), so "mass execution finished"
// is told once, whichever process recorded the last part's outcome.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mass_execution_batches')
    .addColumn('batch_id', 'text', (c) => c.primaryKey())
    .addColumn('initiated_by', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  // The sweep's question: which batches have not been seen to finish?
  await db.schema
    .createIndex('mass_execution_batches_open')
    .on('mass_execution_batches')
    .columns(['finished_at', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mass_execution_batches').execute();
}
