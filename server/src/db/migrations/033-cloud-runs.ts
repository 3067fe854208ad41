import type { Kysely } from 'kysely';

// Cloud runs (docs/decisions/050-cloud-runs.md). open_cloud_keys gains the place cloud runs use
// (and a pinned version), the key's scopes as Roblox's introspection named them, and the lease of
// the process following that owner's tasks. cloud_tasks: one row per cloud run (its id is the
// run's), written with the run, before anything is sent; `state` is pending until the run ended,
// `phase` says where it is (waiting, creating, queued, running, and how it ended). cloud_task_logs:
// the lines the task logged, as they are read from Roblox.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('open_cloud_keys').addColumn('place_id', 'text').execute();
  await db.schema.alterTable('open_cloud_keys').addColumn('place_version', 'text').execute();
  // JSON array of "scope:operation"; null when Roblox's introspection did not answer.
  await db.schema.alterTable('open_cloud_keys').addColumn('scopes', 'text').execute();
  await db.schema.alterTable('open_cloud_keys').addColumn('following_until', 'text').execute();
  await db.schema
    .createTable('cloud_tasks')
    .addColumn('execution_id', 'text', (c) => c.primaryKey().references('executions.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('universe_id', 'text', (c) => c.notNull())
    .addColumn('place_id', 'text', (c) => c.notNull())
    .addColumn('place_version', 'text')
    .addColumn('script', 'text', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    // Orders an owner's runs as they were asked for: the oldest waiting one is created first.
    .addColumn('seq', 'bigint', (c) => c.notNull())
    /** pending | done */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('task_path', 'text')
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Set before the create call goes out: a row found creating after a restart is never sent again.
    .addColumn('create_sent_at', 'text')
    .addColumn('accepted_at', 'text')
    // Where reading the logs goes on: the page token of the last page read (null: the first page), how
    // many of that page's lines are kept already, and how many lines are kept in all.
    .addColumn('logs_page_token', 'text')
    .addColumn('logs_page_skip', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('log_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('waiting_reason', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error', 'text')
    .addColumn('results', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('done_at', 'text')
    .execute();
  await db.schema.createIndex('cloud_tasks_owner').on('cloud_tasks').columns(['owner_id', 'state', 'seq']).execute();
  await db.schema.createIndex('cloud_tasks_due').on('cloud_tasks').columns(['state', 'next_attempt_at']).execute();
  await db.schema
    .createTable('cloud_task_logs')
    .addColumn('execution_id', 'text', (c) => c.notNull().references('executions.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('time', 'text')
    .addPrimaryKeyConstraint('cloud_task_logs_pk', ['execution_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cloud_task_logs').execute();
  await db.schema.dropTable('cloud_tasks').execute();
  await db.schema.alterTable('open_cloud_keys').dropColumn('following_until').execute();
  await db.schema.alterTable('open_cloud_keys').dropColumn('scopes').execute();
  await db.schema.alterTable('open_cloud_keys').dropColumn('place_version').execute();
  await db.schema.alterTable('open_cloud_keys').dropColumn('place_id').execute();
}
