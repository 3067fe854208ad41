import type { Kysely } from 'kysely';

// Read-only share links of scripts (docs/decisions/049). Looked up by SHA-256 of the link's token;
// a share goes with its script and with the account (team) that owns it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('script_shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('script_id', 'text', (c) => c.notNull().references('scripts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('script_shares_user_idx')
    .on('script_shares')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('script_shares_script_idx').on('script_shares').column('script_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('script_shares').execute();
}
