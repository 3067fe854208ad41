import { sql, type Kysely } from 'kysely';

// Script versions (docs/decisions/024-script-versions.md):
// - scripts.version: the number of the script's current version. A save bumps it in the same UPDATE
//   that changes the script, so two saves at once always get two numbers, in the order they landed.
// - script_versions: one row per version, the script as it stood after that save (the last
//   SCRIPT_VERSIONS_KEPT of them; older ones are pruned on save). Version 1 is the script as created;
//   each script that exists now gets its version 1 from what it holds, saved by its owner.
// - executions.script_version: the version a run of a saved script ran (null for custom code and for
//   runs recorded before versions were kept).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('scripts')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('script_versions')
    .addColumn('script_id', 'text', (c) => c.notNull().references('scripts.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // The code's size in UTF-8 bytes and its lines, kept at save: the History lists 100 versions
    // without reading (or scanning) up to 100 MiB of code.
    .addColumn('code_bytes', 'integer', (c) => c.notNull())
    .addColumn('lines', 'integer', (c) => c.notNull())
    .addColumn('is_auto_execute', 'integer', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull())
    .addColumn('game_id', 'text')
    .addColumn('game_name', 'text')
    .addColumn('game_image_url', 'text')
    .addColumn('auto_execute_games', 'text')
    // Who saved it (the owner today; null once that account is gone) and how: 'session' | 'key' | 'restore'.
    .addColumn('saved_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('saved_via', 'text', (c) => c.notNull())
    // A save made with a scoped API key: that key's name.
    .addColumn('saved_by_key', 'text')
    // For a restore: the version it brought back.
    .addColumn('restored_from', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Last: SQLite reads a row's columns in order, and a column after a large code would be reached
    // only through the code's overflow pages (the History reads everything but the code).
    .addColumn('code', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('script_versions_pk', ['script_id', 'number'])
    .execute();
  await sql`insert into script_versions
      (script_id, number, name, description, code, code_bytes, lines, is_auto_execute, is_public, game_id,
       game_name, game_image_url, auto_execute_games, saved_by, saved_via, restored_from, created_at)
    select id, 1, name, description, code, octet_length(code),
       length(code) - length(replace(code, ${'\n'}, '')) + 1, is_auto_execute, is_public, game_id,
       game_name, game_image_url, auto_execute_games, user_id, 'session', null, updated_at
    from scripts`.execute(db);
  await db.schema.alterTable('executions').addColumn('script_version', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('executions').dropColumn('script_version').execute();
  await db.schema.dropTable('script_versions').execute();
  await db.schema.alterTable('scripts').dropColumn('version').execute();
}
