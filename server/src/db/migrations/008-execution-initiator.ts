import type { Kysely } from 'kysely';

// Who started a run on someone else's game: the admin, for runs from the admin panel (null for a
// user's own runs). No foreign key: the record keeps the id after the admin's account is gone.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('executions').addColumn('initiated_by', 'text').execute();
  await db.schema
    .createIndex('executions_initiated_created')
    .on('executions')
    .columns(['initiated_by', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('executions_initiated_created').execute();
  await db.schema.alterTable('executions').dropColumn('initiated_by').execute();
}
