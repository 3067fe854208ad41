import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/engines.ts';
import { insertUserRow } from '../../../test/user-rows.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../database.ts';
import { migrationProvider } from './index.ts';

const quiet = { warn: () => undefined, info: () => undefined };

/**
 * Migration 036 gives every timed ban already stored its end (from when it took effect, or when it
 * was asked for while pending), and none to a permanent ban or another kind. On both engines.
 */
describeEachEngine('migration 036: the end of each timed ban', (engine) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-036-'));
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

  it('works out the end of the timed bans stored before it', async () => {
    const { error } = await new Migrator({ db: handle.db, provider: migrationProvider }).migrateTo(
      '035-script-list-index',
    );
    expect(error).toBeUndefined();
    await insertUserRow(handle.db, 'owner');
    const raw = handle.db.withoutPlugins();
    const rows: [string, string, number | null, string, string | null][] = [
      ['applied', 'ban', 3600, '2026-11-01T00:00:00.000Z', '2026-11-01T00:10:00.000Z'],
      ['pending', 'ban', 60, '2026-11-02T00:00:00.000Z', null],
      ['permanent', 'ban', null, '2026-11-03T00:00:00.000Z', '2026-11-03T00:00:01.000Z'],
      ['note', 'note', null, '2026-11-04T00:00:00.000Z', '2026-11-04T00:00:00.000Z'],
    ];
    for (const [id, kind, duration, createdAt, completedAt] of rows) {
      await sql`insert into moderation_actions (id, user_id, roblox_user_id, kind, message, duration_seconds, state, created_at, completed_at)
        values (${id}, 'owner', '1', ${kind}, 'x', ${duration}, 'applied', ${createdAt}, ${completedAt})`.execute(raw);
    }
    await migrateToLatest(handle.db);
    const ends = await handle.db.selectFrom('moderationActions').select(['id', 'endsAt']).orderBy('id').execute();
    expect(ends).toEqual([
      { id: 'applied', endsAt: '2026-11-01T01:10:00.000Z' },
      { id: 'note', endsAt: null },
      { id: 'pending', endsAt: '2026-11-02T00:01:00.000Z' },
      { id: 'permanent', endsAt: null },
    ]);
  });
});
