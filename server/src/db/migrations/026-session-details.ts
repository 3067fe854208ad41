import { sql, type Kysely } from 'kysely';

// What a person needs to recognise a session in Settings (where and with what it signed in, where it
// was last used), how it was made (a second factor passed or not: REQUIRE_TWO_FACTOR_FOR_ADMINS
// judges the session, not only the account), and when it last proved itself (sudo mode: the
// changes that hand over an account need a proof from the last 10 minutes).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('signed_in_with', 'text', (c) => c.notNull().defaultTo('password'))
    .execute();
  await db.schema.alterTable('sessions').addColumn('second_factor', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('sign_in_address', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('last_address', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('proved_at', 'text').execute();
  // Sessions made before this migration by an account that already had a second factor passed it
  // at sign-in, except through the identity provider, which did not ask: they are taken as having
  // passed a code, so admins are not all signed out of the admin pages by the upgrade.
  await sql`
    update sessions set second_factor = 'code'
    where exists (
      select 1 from totp_factors t
      where t.user_id = sessions.user_id and t.confirmed_at is not null and t.confirmed_at <= sessions.created_at
    ) or exists (
      select 1 from passkeys p where p.user_id = sessions.user_id and p.created_at <= sessions.created_at
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [
    'proved_at',
    'user_agent',
    'last_address',
    'sign_in_address',
    'second_factor',
    'signed_in_with',
  ]) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
}
