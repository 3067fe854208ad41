import type { Kysely } from 'kysely';

// A team's schedule runs code for as long as the member who set it (or last changed it) may run
// code there (docs/decisions/049, "jobs alike"): the schedule records them. Null: the account's own.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('schedules')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('schedules').dropColumn('created_by').execute();
}
