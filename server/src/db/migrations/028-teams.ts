import type { Kysely } from 'kysely';

// Teams (docs/decisions/049-teams-as-accounts.md). A team is an account of kind 'team' in `users`,
// so everything that belongs to an account today (keyed by user_id, cascading from users) can
// belong to a team with no table changed and no row moved: each person's existing data is already
// in their personal team, which is their own account. A team account has no password, email
// address or sign-in of its own; people act on it as its members.
// - users.kind: 'person' or 'team'.
// - team_members: who belongs to which team, with their permissions (a JSON array); the personal
//   team has no rows here (its one member is the account itself, holding every permission).
// - team_invitations: invitation links, looked up by SHA-256 of their token, single use.
// - api_keys.created_by / scoped_api_keys.created_by: the member who made a key for a team, whose
//   permissions bound the key's for as long as it lives; null for a key of one's own account.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('person'))
    .execute();
  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user_idx').on('team_members').column('user_id').execute();
  await db.schema
    .createTable('team_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('used_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('team_invitations_team_idx').on('team_invitations').column('team_id').execute();
  for (const table of ['api_keys', 'scoped_api_keys']) {
    await db.schema
      .alterTable(table)
      .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['scoped_api_keys', 'api_keys'])
    await db.schema.alterTable(table).dropColumn('created_by').execute();
  await db.schema.dropTable('team_invitations').execute();
  await db.schema.dropTable('team_members').execute();
  await db.schema.alterTable('users').dropColumn('kind').execute();
}
