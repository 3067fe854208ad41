import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Player search by prefix through an index (decision 039). A search is the start of a name or
// display name, ignoring case: `name_key` and `display_name_key` hold the lower-cased text (folded
// by the server, so both engines fold all of Unicode alike), and a search is an index range on them
// instead of a scan of every player's `lower(name)`. PostgreSQL compares them byte-wise (collation
// "C"), the order SQLite's default already is, so a prefix is one contiguous range on both.
//
// `player_sessions_open_order` serves the list of everyone online (newest arrival first, ties by
// id) and its total from the open sessions alone, without sorting them; it replaces
// `player_sessions_online`, which held every session ever.

const BACKFILL_ROWS = 500;

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const bytewise = sqlite ? undefined : sql`collate "C"`;
  await db.schema
    .alterTable('players')
    .addColumn('name_key', 'text', (c) => {
      const column = c.notNull().defaultTo('');
      return bytewise ? column.modifyEnd(bytewise) : column;
    })
    .execute();
  await db.schema
    .alterTable('players')
    .addColumn('display_name_key', 'text', (c) => (bytewise ? c.modifyEnd(bytewise) : c))
    .execute();

  // Existing players, lower-cased here (not by SQL lower(), which in SQLite folds ASCII only).
  type Row = { user_id: string; roblox_user_id: string; name: string; display_name: string | null };
  let after: Row | undefined;
  for (;;) {
    const rows: Row[] = (
      await sql<Row>`select user_id, roblox_user_id, name, display_name from players
        ${after ? sql`where (user_id > ${after.user_id} or (user_id = ${after.user_id} and roblox_user_id > ${after.roblox_user_id}))` : sql``}
        order by user_id, roblox_user_id limit ${sql.lit(BACKFILL_ROWS)}`.execute(db)
    ).rows;
    for (const row of rows) {
      await sql`update players set name_key = ${row.name.toLowerCase()},
        display_name_key = ${row.display_name?.toLowerCase() ?? null}
        where user_id = ${row.user_id} and roblox_user_id = ${row.roblox_user_id}`.execute(db);
    }
    if (rows.length < BACKFILL_ROWS) break;
    after = rows.at(-1);
  }

  await db.schema.createIndex('players_name_key').on('players').columns(['user_id', 'name_key']).execute();
  await db.schema
    .createIndex('players_display_name_key')
    .on('players')
    .columns(['user_id', 'display_name_key'])
    .execute();
  await db.schema
    .createIndex('player_sessions_open_order')
    .on('player_sessions')
    .columns(['user_id', 'joined_at', 'roblox_user_id'])
    .where(sql.ref('left_at'), 'is', null)
    .execute();
  // Served by the one above; kept, it also drew SQLite to it for one server's players (equal on
  // user and left_at) instead of the open-session index by server.
  await db.schema.dropIndex('player_sessions_online').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('player_sessions_online')
    .on('player_sessions')
    .columns(['user_id', 'left_at', 'joined_at'])
    .execute();
  await db.schema.dropIndex('player_sessions_open_order').execute();
  await db.schema.dropIndex('players_display_name_key').execute();
  await db.schema.dropIndex('players_name_key').execute();
  await db.schema.alterTable('players').dropColumn('display_name_key').execute();
  await db.schema.alterTable('players').dropColumn('name_key').execute();
}
