import type { Kysely } from 'kysely';

// Passkeys as a second factor (docs/decisions/033-passkeys.md). passkeys holds each registered
// WebAuthn credential: its id (base64url, unique across every account, as authenticators make them),
// its COSE public key (base64url), the signature counter the authenticator last reported (bigint on
// PostgreSQL: authenticators count up to 2^32 - 1), the transports the browser named, and the name
// its owner gave it. passkey_challenges holds the challenges Moonrelay handed out for a registration
// or a sign-in: a row is deleted by the one request that uses it, so a challenge answers once, and
// expires_at ends it unused. Its user_id is null for "Sign in with a passkey", where no account is
// named until the passkey answers.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
  await db.schema
    .createTable('passkey_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_challenges_expiry').on('passkey_challenges').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
}
