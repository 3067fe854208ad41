import type { Kysely } from 'kysely';

// Two-factor sign-in (docs/decisions/030-two-factor-sign-in.md). totp_factors holds an account's
// authenticator secret, sealed with the server secret; confirmed_at stays null until the user has
// typed a code from it, and only a confirmed factor is asked for at sign-in. last_time_step is the
// TOTP step of the last accepted code: a code of that step or an earlier one is refused, so each
// code signs in once. recovery_codes holds the SHA-256 of each one-time recovery code; used_at is
// set by the one request that spends it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('totp_factors')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('last_time_step', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recovery_codes_user_code')
    .on('recovery_codes')
    .columns(['user_id', 'code_hash'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('totp_factors').execute();
}
