import type { Kysely } from 'kysely';

// Idempotency-Key on the calls that enqueue work (docs/operations.md): one row per key a principal
// used, inserted before the work runs (so of two requests with the same key only one inserts it and
// runs), then holding the answer that a retry gets back. Kept 24 hours.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('principal', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    // SHA-256 of the method, the path and the body: the same key with another request is refused.
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // pending (the first request is running) | done
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['principal', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
