import type { Kysely } from 'kysely';

// Execution history: every run, who ran it, of which script, where, and how it ended.
// A deleted script leaves its runs in the history (script_id becomes null); a deleted account takes them along.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('executions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('script_id', 'text', (c) => c.references('scripts.id').onDelete('set null'))
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('code_excerpt', 'text', (c) => c.notNull())
    .addColumn('output', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('limit_hit', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('executions_user_created').on('executions').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('executions').execute();
}
