import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/engines.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Db } from '../database.ts';
import { migrationProvider } from './index.ts';

const quiet = { warn: () => undefined, info: () => undefined };
const at = '2026-11-01T00:00:00.000Z';

/** Every row of every table, keyed by table, without the columns migration 028 adds. */
async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  // The columns migrations 028 to 031 add (each empty or defaulted on a filled database).
  const added = new Set(['kind', 'created_by', 'team_id']);
  const tables = (await db.introspection.getTables())
    .map((table) => table.name)
    .filter((name) => !name.startsWith('kysely_'));
  const out: Record<string, unknown[]> = {};
  for (const table of tables.sort()) {
    if (table === 'team_members' || table === 'team_invitations') continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.withoutPlugins());
    out[table] = rows
      .map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !added.has(column))))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return out;
}

/**
 * Teams move no row (docs/decisions/049): a database filled by the release before them keeps every
 * row of every table, each account becomes a person (its own personal team), and its keys have no
 * maker. On both engines.
 */
describeEachEngine('migration 028: teams', (engine) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-028-'));
  beforeAll(async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    handle = openDatabase(created.config, quiet);
  });
  afterAll(async () => {
    await handle.close();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every row of a database filled by the previous release', async () => {
    const raw = handle.db.withoutPlugins();
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
    const { error } = await migrator.migrateTo('027-player-limits');
    expect(error).toBeUndefined();
    for (const id of ['u1', 'u2']) {
      await sql`insert into users (id, email, username, username_key, name, password_hash, google_id, is_admin, created_at, updated_at)
        values (${id}, ${`${id}@example.com`}, ${id}, ${id}, ${`Person ${id}`}, 'hash', null, 0, ${at}, ${at})`.execute(
        raw,
      );
      await sql`insert into api_keys (id, user_id, key_hash, key_ciphertext, created_at)
        values (${`k-${id}`}, ${id}, ${`hash-${id}`}, 'sealed', ${at})`.execute(raw);
      await sql`insert into scoped_api_keys (id, user_id, name, key_hash, masked_key, key_ciphertext, integration, scopes, allowed_ips, created_at, expires_at, last_used_at, last_used_ip, revoked_at)
        values (${`s-${id}`}, ${id}, 'CI', ${`scoped-${id}`}, 'mr_abc…wxyz', null, 0, '["scripts:read"]', null, ${at}, null, null, null, null)`.execute(
        raw,
      );
      await sql`insert into sessions (id, user_id, token_hash, created_at, last_used_at, expires_at)
        values (${`session-${id}`}, ${id}, ${`token-${id}`}, ${at}, ${at}, ${at})`.execute(raw);
      await sql`insert into scripts (id, user_id, name, description, code, is_auto_execute, is_public, execution_count, game_id, game_name, game_image_url, auto_execute_games, created_at, updated_at)
        values (${`script-${id}`}, ${id}, 'Kill brick', null, 'print(1)', 1, 0, 3, null, null, null, null, ${at}, ${at})`.execute(
        raw,
      );
    }
    const before = await snapshot(handle.db);

    expect(await migrateToLatest(handle.db)).toContain('028-teams');

    // Every table there was, with every row; later migrations' new tables are not this one's.
    const after = await snapshot(handle.db);
    expect(Object.fromEntries(Object.keys(before).map((table) => [table, after[table]]))).toEqual(before);
    const kinds = await handle.db.selectFrom('users').select(['id', 'kind']).orderBy('id').execute();
    expect(kinds).toEqual([
      { id: 'u1', kind: 'person' },
      { id: 'u2', kind: 'person' },
    ]);
    const makers = await handle.db.selectFrom('scopedApiKeys').select('createdBy').execute();
    expect(makers.every((row) => row.createdBy === null)).toBe(true);
    expect(await handle.db.selectFrom('teamMembers').selectAll().execute()).toEqual([]);
  });
});
