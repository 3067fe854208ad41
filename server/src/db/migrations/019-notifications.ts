import type { Kysely } from 'kysely';

// Notifications (docs/decisions/035-notifications.md). A destination's URL and signing secret are
// sealed with the server secret; masked_url is what screens show. notification_deliveries is the
// outbox: one row per event per destination, written before any delivery is tried, so an event
// outlives a process that dies mid-delivery; a destination's rows are delivered oldest first by
// whichever process holds the destination's lease (delivering_until). notification_attempts is the
// delivery log, kept to the last 100 per destination. sign_in_addresses: where each user has signed
// in from, so a sign-in from elsewhere can be told.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_destinations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url_sealed', 'text', (c) => c.notNull())
    .addColumn('masked_url', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text')
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('paused_at', 'text')
    .addColumn('paused_reason', 'text')
    .addColumn('failures_in_row', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_delivery_at', 'text')
    .addColumn('delivering_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_destinations_user')
    .on('notification_destinations')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('destination_id', 'text', (c) =>
      c.notNull().references('notification_destinations.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    // Orders a destination's events as they were raised (occurred_at can tie within a millisecond).
    .addColumn('seq', 'bigint', (c) => c.notNull())
    /** pending | delivered | failed */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  await db.schema
    .createIndex('notification_deliveries_due')
    .on('notification_deliveries')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('notification_deliveries_destination')
    .on('notification_deliveries')
    .columns(['destination_id', 'state', 'seq'])
    .execute();
  await db.schema
    .createTable('notification_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('destination_id', 'text', (c) =>
      c.notNull().references('notification_destinations.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('error', 'text')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_attempts_destination')
    .on('notification_attempts')
    .columns(['destination_id', 'seq'])
    .execute();
  // The addresses each user has signed in from, to tell a sign-in from a new one.
  await db.schema
    .createTable('sign_in_addresses')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sign_in_addresses_pk', ['user_id', 'address'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_addresses').execute();
  await db.schema.dropTable('notification_attempts').execute();
  await db.schema.dropTable('notification_deliveries').execute();
  await db.schema.dropTable('notification_destinations').execute();
}
