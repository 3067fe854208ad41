import { sql, type Kysely } from 'kysely';

// Scoped API keys (docs/decisions/029-scoped-api-keys.md), beside the personal key of api_keys:
// - scoped_api_keys: named keys with scopes (JSON array), an optional expiry and IP/CIDR allow list
//   (JSON array). Looked up by SHA-256; only the integration key (the one the dashboard's game
//   scripts carry, shown again on every visit) also keeps a sealed copy. A revoked key keeps its row
//   (revoked_at) so that it is refused as revoked rather than unknown; lists leave it out.
//   One live integration key per user (a partial unique index, on both engines).
// - scripts.last_changed_by_key: the name of the key the last save was made with, so the editor can
//   say which key changed a script (a version's own, saved_by_key, is in script_versions from 013).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scoped_api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('masked_key', 'text', (c) => c.notNull())
    .addColumn('key_ciphertext', 'text')
    .addColumn('integration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('allowed_ips', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('last_used_ip', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('scoped_api_keys_user_idx').on('scoped_api_keys').column('user_id').execute();
  await sql`create unique index scoped_api_keys_integration_idx on scoped_api_keys (user_id)
    where integration = 1 and revoked_at is null`.execute(db);
  await db.schema.alterTable('scripts').addColumn('last_changed_by_key', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('scripts').dropColumn('last_changed_by_key').execute();
  await db.schema.dropTable('scoped_api_keys').execute();
}
