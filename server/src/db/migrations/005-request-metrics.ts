import type { Kysely } from 'kysely';

// Request metrics, rolled up: one row per user, endpoint (route pattern) and minute, never one per
// request (docs/decisions/013-request-metrics-rollup.md). Rows older than two days are folded into
// their hour's row; rows older than the longest analytics period are deleted.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('request_metrics')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // ISO 8601 UTC text of the minute's start (docs/decisions/002), e.g. 2026-11-22T00:26:00.000Z.
    .addColumn('minute', 'text', (c) => c.notNull())
    // "GET /api/scripts/:id"
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('request_count', 'integer', (c) => c.notNull())
    .addColumn('error_count', 'integer', (c) => c.notNull())
    // Sums of durations outgrow a 32-bit integer of microseconds (long-polls), so milliseconds as doubles.
    .addColumn('total_duration_ms', 'double precision', (c) => c.notNull())
    .addColumn('max_duration_ms', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('request_metrics_pk', ['user_id', 'minute', 'endpoint'])
    .execute();
  // Retention and compaction look by age alone.
  await db.schema.createIndex('request_metrics_minute').on('request_metrics').column('minute').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('request_metrics').execute();
}
