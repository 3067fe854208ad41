import type { Kysely } from 'kysely';

// Long scripts (spec sections 4 and 7): code kept for a one-line loader to fetch by id. One row per
// distinct code per user (code_hash), so running the same long script again adds nothing. The rows
// cascade from users like everything else an account owns.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('temp_scripts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('temp_scripts_user_code', ['user_id', 'code_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('temp_scripts').execute();
}
