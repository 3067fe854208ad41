import type { Kysely } from 'kysely';

// Sign-in attempts with the identity provider (docs/decisions/012): one row per authorization
// request, keyed by the SHA-256 of its state, holding what only the server may know (the nonce and
// the PKCE verifier). A row is redeemed once (deleted as it is read) and expires after 10 minutes.
// A link attempt names its account; deleting the account removes its attempts.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_states_expires_at').on('oidc_states').column('expires_at').execute();
  await db.schema.createIndex('oidc_states_user_id').on('oidc_states').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_states').execute();
}
