import type { Kysely } from 'kysely';

// Schedules: a saved script's scheduled runs (docs/decisions/025-scheduled-runs.md). Deleting the
// script (or the account) deletes its schedules. last_due_at is the due time of the last run a
// process claimed: a due time is claimed once, by whichever process gets there first, so a run
// the timer or the job queue hands out twice is started once. running_until is the claim's lease:
// a run due while it holds (the previous run still going) is skipped and counted.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('script_id', 'text', (c) => c.notNull().references('scripts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('cron', 'text')
    .addColumn('time_zone', 'text')
    .addColumn('interval_seconds', 'integer')
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('server_id', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_due_at', 'text')
    .addColumn('running_until', 'text')
    .addColumn('last_run_id', 'text')
    .addColumn('last_run_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('skipped_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedules_user').on('schedules').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('schedules_script').on('schedules').columns(['script_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('schedules').execute();
}
