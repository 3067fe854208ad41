import type { Kysely } from 'kysely';

// Roblox Open Cloud bans (docs/decisions/038-open-cloud-bans.md). open_cloud_keys: one key per user
// (the game's universe id and the Open Cloud API key, sealed with the server secret), with the lease
// of the process sending that owner's updates and the import's mark. open_cloud_updates: the durable
// queue of restriction updates, one row per moderation action (its id is the action's), kept until
// Roblox applied or refused it and the outcome was reported. open_cloud_sends: when each update was
// sent, the pacing's memory (2 a minute per Roblox user, 10 a second per universe). open_cloud_ban_logs
// and open_cloud_active_bans: what Roblox says was done (listLogs) and what holds now.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('open_cloud_keys')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('universe_id', 'text', (c) => c.notNull())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('masked_key', 'text', (c) => c.notNull())
    .addColumn('sending_until', 'text')
    .addColumn('importing_until', 'text')
    // The newest listLogs createTime imported: an import stops paging once it reaches it.
    .addColumn('logs_imported_until', 'text')
    .addColumn('last_import_at', 'text')
    .addColumn('last_import_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('open_cloud_updates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('roblox_user_id', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('duration_seconds', 'bigint')
    .addColumn('display_reason', 'text', (c) => c.notNull())
    .addColumn('private_reason', 'text', (c) => c.notNull())
    .addColumn('exclude_alt_accounts', 'integer', (c) => c.notNull())
    // Orders one owner's updates as they were asked for (a ban, then its lifting).
    .addColumn('seq', 'bigint', (c) => c.notNull())
    /** pending | applied | failed */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // The idempotency key's firstSent: the first attempt's time, the same on every retry.
    .addColumn('first_sent_at', 'text')
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('done_at', 'text')
    // Set once onOutcome was told; a settled row without it is told again by the sweep.
    .addColumn('reported_at', 'text')
    .execute();
  await db.schema
    .createIndex('open_cloud_updates_owner')
    .on('open_cloud_updates')
    .columns(['owner_id', 'state', 'seq'])
    .execute();
  await db.schema
    .createIndex('open_cloud_updates_due')
    .on('open_cloud_updates')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await db.schema
    .createTable('open_cloud_sends')
    .addColumn('universe_id', 'text', (c) => c.notNull())
    .addColumn('roblox_user_id', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('open_cloud_sends_user')
    .on('open_cloud_sends')
    .columns(['universe_id', 'roblox_user_id', 'sent_at'])
    .execute();
  await db.schema
    .createIndex('open_cloud_sends_universe')
    .on('open_cloud_sends')
    .columns(['universe_id', 'sent_at'])
    .execute();
  await db.schema
    .createTable('open_cloud_ban_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('universe_id', 'text', (c) => c.notNull())
    .addColumn('roblox_user_id', 'text', (c) => c.notNull())
    .addColumn('place_id', 'text')
    // "users/123" for a person (Creator Hub, an API key's owner), "game server script" for BanAsync.
    .addColumn('moderator', 'text', (c) => c.notNull())
    .addColumn('create_time', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('start_time', 'text')
    .addColumn('duration_seconds', 'bigint')
    .addColumn('display_reason', 'text', (c) => c.notNull())
    .addColumn('private_reason', 'text', (c) => c.notNull())
    .addColumn('exclude_alt_accounts', 'integer', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('open_cloud_ban_logs_entry', ['owner_id', 'universe_id', 'roblox_user_id', 'create_time'])
    .execute();
  await db.schema
    .createIndex('open_cloud_ban_logs_owner')
    .on('open_cloud_ban_logs')
    .columns(['owner_id', 'create_time'])
    .execute();
  await db.schema
    .createTable('open_cloud_active_bans')
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('universe_id', 'text', (c) => c.notNull())
    .addColumn('roblox_user_id', 'text', (c) => c.notNull())
    .addColumn('start_time', 'text')
    .addColumn('duration_seconds', 'bigint')
    .addColumn('display_reason', 'text', (c) => c.notNull())
    .addColumn('private_reason', 'text', (c) => c.notNull())
    .addColumn('exclude_alt_accounts', 'integer', (c) => c.notNull())
    .addColumn('update_time', 'text')
    .addPrimaryKeyConstraint('open_cloud_active_bans_pk', ['owner_id', 'roblox_user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('open_cloud_active_bans').execute();
  await db.schema.dropTable('open_cloud_ban_logs').execute();
  await db.schema.dropTable('open_cloud_sends').execute();
  await db.schema.dropTable('open_cloud_updates').execute();
  await db.schema.dropTable('open_cloud_keys').execute();
}
