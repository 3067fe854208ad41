import type { Kysely } from 'kysely';

// Every table cascades from users: deleting an account removes all that belongs to it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('google_id', 'text', (c) => c.unique())
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // One live key per user: regeneration replaces the row.
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_ciphertext', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scripts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('is_auto_execute', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('execution_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('game_id', 'text')
    .addColumn('game_name', 'text')
    .addColumn('game_image_url', 'text')
    .addColumn('auto_execute_games', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scripts_user_updated').on('scripts').columns(['user_id', 'updated_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['scripts', 'api_keys', 'sessions', 'users']) await db.schema.dropTable(table).execute();
}
