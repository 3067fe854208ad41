import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/engines.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { createLogger } from '../../logger.ts';
import { insertUserRow } from '../../../test/user-rows.ts';
import { rosterWrites } from './roster-writes.ts';

/**
 * Player-record counts of several owners at once, as one flush of pings from many games writes
 * them: each owner's count row is made on first use and moved by its own change only.
 */
describeEachEngine('player-record counts of several owners', (engine) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-roster-writes-'));
  const OWNERS = ['owner-c', 'owner-a', 'owner-b', 'owner-d'];

  beforeAll(async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    handle = openDatabase(created.config, createLogger('silent'));
    await migrateToLatest(handle.db);
    for (const id of OWNERS) await insertUserRow(handle.db, id);
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts each owner at zero, then adds each change to its own owner only', async () => {
    const counts = await rosterWrites.recordCounts(handle.db, OWNERS);
    expect(Object.fromEntries(counts)).toEqual({ 'owner-a': 0, 'owner-b': 0, 'owner-c': 0, 'owner-d': 0 });
    // Given out of order, with a change of nothing among them.
    await rosterWrites.addRecords(
      handle.db,
      new Map([
        ['owner-c', 3],
        ['owner-a', 5],
        ['owner-b', 0],
        ['owner-d', 2],
      ]),
    );
    await rosterWrites.addRecords(
      handle.db,
      new Map([
        ['owner-d', -1],
        ['owner-a', -2],
      ]),
    );
    const after = await rosterWrites.recordCounts(handle.db, OWNERS);
    expect(Object.fromEntries(after)).toEqual({ 'owner-a': 3, 'owner-b': 0, 'owner-c': 3, 'owner-d': 1 });
  });
});
