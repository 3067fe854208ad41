import type { Kysely } from 'kysely';

// Moderation (docs/decisions/037-moderation.md): every note, warning, kick, ban and unban an owner
// takes on one of their Roblox players, kept for good (the player's moderation history). A ban or
// unban is carried out by a path (a live game server running Players:BanAsync, or Open Cloud) and
// has a state: pending until that path reports, then applied or failed with Roblox's own error. An
// edited ban is a new ban row that names the one it replaces (`replaces`); the old row stays.
// `command_id` is the game command carrying a pending action; null while it waits for a server.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('moderation_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('roblox_user_id', 'text', (c) => c.notNull())
    // note | warning | kick | ban | unban
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    // The note's text, the warning or kick message, a ban's display reason, an unban's reason.
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('private_reason', 'text')
    // A ban's length in seconds; null is permanent.
    .addColumn('duration_seconds', 'integer')
    .addColumn('exclude_alt_accounts', 'integer', (c) => c.notNull().defaultTo(0))
    // game | open_cloud (bans and unbans); game for kicks and warnings; null for notes.
    .addColumn('path', 'text')
    // pending | applied | failed; notes are applied when written.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('command_id', 'text')
    // When the command was claimed: a claim whose command never appeared is let go only after a while.
    .addColumn('claimed_at', 'text')
    .addColumn('server_id', 'text')
    .addColumn('replaces', 'text')
    // Set on a ban when a later ban replaced it (an edit) or an unban lifted it.
    .addColumn('ended_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('moderation_actions_player')
    .on('moderation_actions')
    .columns(['user_id', 'roblox_user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('moderation_actions_open')
    .on('moderation_actions')
    .columns(['state', 'user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('moderation_actions_command').on('moderation_actions').column('command_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('moderation_actions').execute();
}
