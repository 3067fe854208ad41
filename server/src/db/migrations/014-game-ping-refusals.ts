import type { Kysely } from 'kysely';

// The last ping of each game server that Moonrelay refused for what it carried (400), and why, so
// the owner sees "your game's pings are refused: ..." instead of a server that is silently missing.
// In the database rather than in presence: a refused game server has no presence (it never pinged
// successfully), the scale-out mode needs every instance to see it, and refusals are rare (a failing
// game retries at most every 2-60 s) and written at most once every few seconds per server.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('game_ping_refusals')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('refused_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('game_ping_refusals_pk', ['user_id', 'server_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('game_ping_refusals').execute();
}
