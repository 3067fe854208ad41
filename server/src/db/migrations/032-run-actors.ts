import type { Kysely } from 'kysely';

// Who started a run (docs/decisions/049, "Who did it"): the person, the name they had then, and
// the API key they used, if any. A team's runs are started by several people; the Runs page names
// them and filters by them. Null on runs recorded before, and on runs no person started (a game's
// auto-execute, a schedule whose maker left).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('executions')
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('executions').addColumn('actor_name', 'text').execute();
  await db.schema.alterTable('executions').addColumn('key_name', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('executions').dropColumn('key_name').execute();
  await db.schema.alterTable('executions').dropColumn('actor_name').execute();
  await db.schema.alterTable('executions').dropColumn('actor_id').execute();
}
