import type { Kysely } from 'kysely';

// The team's activity log (docs/decisions/049): each audit entry names the team (the account) it
// was made on, so a team's entries are read by one index, newest first, whatever their action.
// No foreign key: an entry outlives the team it names, as it outlives the person who acted.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('team_id', 'text').execute();
  await db.schema.createIndex('audit_log_team_idx').on('audit_log').columns(['team_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_log_team_idx').execute();
  await db.schema.alterTable('audit_log').dropColumn('team_id').execute();
}
