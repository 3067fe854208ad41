import { sql, type Kysely } from 'kysely';

// Players (docs/protocol.md, "Roster"): every Roblox user seen in a user's game servers, keyed by
// the owner and the Roblox user id (kept as text: ids pass 2^31, and PostgreSQL's bigint would come
// back as a string anyway). A session is one stay on one server; an open one (left_at null) is a
// player online now. At most one open session per player and server: the partial unique index
// makes a join reported twice (a ping sent again after its answer was lost) a no-op.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('players')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('roblox_user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('account_age_days', 'integer')
    .addColumn('first_seen', 'text', (c) => c.notNull())
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .addColumn('play_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sessions', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('players_pk', ['user_id', 'roblox_user_id'])
    .execute();
  await db.schema.createIndex('players_last_seen').on('players').columns(['user_id', 'last_seen']).execute();

  await db.schema
    .createTable('player_names')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('roblox_user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // '' when the game sent none, so the key below holds.
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('first_seen', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('player_names_pk', ['user_id', 'roblox_user_id', 'name', 'display_name'])
    .execute();

  await db.schema
    .createTable('player_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('roblox_user_id', 'text', (c) => c.notNull())
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addColumn('left_at', 'text')
    .execute();
  await db.schema
    .createIndex('player_sessions_open')
    .unique()
    .on('player_sessions')
    .columns(['user_id', 'server_id', 'roblox_user_id'])
    .where(sql.ref('left_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('player_sessions_online')
    .on('player_sessions')
    .columns(['user_id', 'left_at', 'joined_at'])
    .execute();
  await db.schema
    .createIndex('player_sessions_player')
    .on('player_sessions')
    .columns(['user_id', 'roblox_user_id', 'joined_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('player_sessions').execute();
  await db.schema.dropTable('player_names').execute();
  await db.schema.dropTable('players').execute();
}
