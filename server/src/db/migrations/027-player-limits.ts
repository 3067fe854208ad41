import { sql, type Kysely } from 'kysely';

// Limits on players (decision 036, "Limits"). `player_record_counts` holds how many player records
// each owner has, so the roster checks PLAYER_RECORDS_MAX by reading one row (PostgreSQL locks it,
// so instances admitting new players of one owner count each other's) instead of counting up to
// 100,000s of rows on every ping that brings someone new. The roster adds what it inserts and the
// pruning subtracts what it deletes, in the same transactions.
//
// `players_seen` lets the pruning walk the players of every owner from the longest unseen, a
// bounded batch at a time.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('player_record_counts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('records', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into player_record_counts (user_id, records)
    select user_id, count(*) from players group by user_id`.execute(db);
  await db.schema
    .createIndex('players_seen')
    .on('players')
    .columns(['last_seen', 'user_id', 'roblox_user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('players_seen').execute();
  await db.schema.dropTable('player_record_counts').execute();
}
