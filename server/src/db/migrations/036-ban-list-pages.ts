import { sql, type Kysely } from 'kysely';

// The ban list a page at a time (GET /api/players/bans): an owner's bans not ended, newest first,
// after the last one shown, with those whose time ran out left out and the rest counted. Whether a
// timed ban is still in force was worked out in code from its length and when it took effect,
// which a page and its count cannot ask of the database: `ends_at` is that moment, kept on every
// timed ban (null: permanent, or not a ban). The index walks one owner's unended bans newest
// first from the cursor; moderation_actions_open (state first) answered them only sorted apart.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('moderation_actions').addColumn('ends_at', 'text').execute();
  const timed = await sql<{ id: string; durationSeconds: number; createdAt: string; completedAt: string | null }>`
    select id, duration_seconds, created_at, completed_at from moderation_actions
    where kind = 'ban' and duration_seconds is not null`.execute(db);
  for (const row of timed.rows) {
    const since = Date.parse(row.completedAt ?? row.createdAt);
    const endsAt = new Date(since + Number(row.durationSeconds) * 1000).toISOString();
    await sql`update moderation_actions set ends_at = ${endsAt} where id = ${row.id}`.execute(db);
  }
  await db.schema
    .createIndex('moderation_actions_unended')
    .on('moderation_actions')
    .columns(['user_id', 'kind', 'ended_by', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('moderation_actions_unended').execute();
  await db.schema.alterTable('moderation_actions').dropColumn('ends_at').execute();
}
