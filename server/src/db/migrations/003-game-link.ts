import type { Kysely } from 'kysely';

// The game link: commands waiting for, delivered to, and answered by a user's game servers; and the
// last known presence of each game server (saved at most every 30 s, so admin views survive a restart).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('game_commands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Null until delivered when it was queued while no game server was connected: the first to ping takes it.
    .addColumn('server_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('execution_id', 'text', (c) => c.references('executions.id').onDelete('set null'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'text')
    .addColumn('output', 'text')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('completed_at', 'text')
    .execute();
  // The ping's question: what is pending for this user (and server)?
  await db.schema
    .createIndex('game_commands_user_status')
    .on('game_commands')
    .columns(['user_id', 'status', 'created_at'])
    .execute();
  // The expiry sweep's question: what is open and past its time?
  await db.schema
    .createIndex('game_commands_status_expiry')
    .on('game_commands')
    .columns(['status', 'expires_at'])
    .execute();

  await db.schema
    .createTable('game_servers')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('game_data', 'text')
    .addColumn('connected_at', 'text', (c) => c.notNull())
    .addColumn('last_ping', 'text', (c) => c.notNull())
    .addColumn('disconnected_at', 'text')
    .addPrimaryKeyConstraint('game_servers_pk', ['user_id', 'server_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('game_servers').execute();
  await db.schema.dropTable('game_commands').execute();
}
