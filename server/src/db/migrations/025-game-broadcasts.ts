import type { Kysely } from 'kysely';

// A command to every live game server of a key is one row here (decision 043), not one row per
// server: each server's copy becomes a game_commands row (with broadcast_id) only when that server
// takes it, so sending costs the same at 1 server and at 20,000. The counters are kept in the same
// transactions that write the servers' rows, so every instance reads one total.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('game_broadcasts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    // Live servers when it was sent: the ones it is for (each connected at or before created_at).
    .addColumn('servers', 'integer', (c) => c.notNull())
    .addColumn('taken', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('succeeded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    // The first failure's error, so a person sees the game's own words, not only a count.
    .addColumn('first_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    // Set by the sweep once it can no longer be taken (expired) or every server answered.
    .addColumn('ended_at', 'text')
    .execute();
  // The pings' question, rebuilt every few seconds: which broadcasts may still be taken?
  await db.schema
    .createIndex('game_broadcasts_open')
    .on('game_broadcasts')
    .columns(['ended_at', 'expires_at'])
    .execute();
  // Sending's question: how many has this user open (GAME_OPEN_COMMANDS_MAX)?
  await db.schema
    .createIndex('game_broadcasts_user_open')
    .on('game_broadcasts')
    .columns(['user_id', 'ended_at', 'expires_at'])
    .execute();

  await db.schema
    .alterTable('game_commands')
    .addColumn('broadcast_id', 'text', (c) => c.references('game_broadcasts.id').onDelete('cascade'))
    .execute();
  // One copy per server: two pings (or two instances) taking the same broadcast for one server
  // insert once, and the other finds the conflict. Rows of direct commands (null) are not constrained.
  await db.schema
    .createIndex('game_commands_broadcast_server')
    .on('game_commands')
    .columns(['broadcast_id', 'server_id'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('game_commands_broadcast_server').execute();
  await db.schema.alterTable('game_commands').dropColumn('broadcast_id').execute();
  await db.schema.dropTable('game_broadcasts').execute();
}
