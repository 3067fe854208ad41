import { sql, type Kysely } from 'kysely';

// The run history a user browses (GET /api/executions, docs/decisions/022-run-history.md):
// - server_id: the game server a game run went to (null for the sandbox and dry runs).
// - script_name: the script's name when it ran, so a run of a script since deleted still says what it was.
// - initiator: who started it: user | admin | schedule | auto-execute (earlier admin runs are marked from initiated_by).
// - code_hash: the full code that ran, kept once per user and distinct code in execution_code (the
//   500-character excerpt stays for the admins' list); null for runs recorded before this migration.
// Indexes: created_at for the retention sweep's question (whose runs crossed the age limit);
// (user_id, code_hash) for dropping code no run of the user needs any more; game_commands.execution_id
// so that deleting a run (which nulls its command's reference) does not scan every command.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('executions').addColumn('server_id', 'text').execute();
  await db.schema.alterTable('executions').addColumn('script_name', 'text').execute();
  await db.schema
    .alterTable('executions')
    .addColumn('initiator', 'text', (c) => c.notNull().defaultTo('user'))
    .execute();
  await db.schema.alterTable('executions').addColumn('code_hash', 'text').execute();
  await sql`update executions set initiator = 'admin' where initiated_by is not null`.execute(db);
  await sql`update executions set script_name = (select name from scripts where scripts.id = executions.script_id) where script_id is not null`.execute(
    db,
  );

  await db.schema
    .createTable('execution_code')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('execution_code_pk', ['user_id', 'code_hash'])
    .execute();

  await db.schema.createIndex('executions_created').on('executions').column('created_at').execute();
  await db.schema.createIndex('executions_user_code').on('executions').columns(['user_id', 'code_hash']).execute();
  await db.schema.createIndex('game_commands_execution').on('game_commands').column('execution_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('game_commands_execution').execute();
  await db.schema.dropIndex('executions_user_code').execute();
  await db.schema.dropIndex('executions_created').execute();
  await db.schema.dropTable('execution_code').execute();
  for (const column of ['code_hash', 'initiator', 'script_name', 'server_id']) {
    await db.schema.alterTable('executions').dropColumn(column).execute();
  }
}
