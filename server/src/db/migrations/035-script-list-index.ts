import type { Kysely } from 'kysely';

// My Scripts a page at a time (GET /api/scripts/page): an account's scripts most recently updated
// first, the id breaking ties, paged after the last one shown. With (user_id, updated_at) alone
// each page sorted the ties by id apart from the index; with the id in it, a page is a walk down
// the index from the cursor. It takes the old index's place: every query that used that one
// (an owner's scripts, newest first) reads this one as well.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('scripts_user_updated_id')
    .on('scripts')
    .columns(['user_id', 'updated_at', 'id'])
    .execute();
  await db.schema.dropIndex('scripts_user_updated').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('scripts_user_updated').on('scripts').columns(['user_id', 'updated_at']).execute();
  await db.schema.dropIndex('scripts_user_updated_id').execute();
}
