import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/engines.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { createLogger } from '../../logger.ts';
import { sha256Hex } from '../../security/digest.ts';
import { executionsRepo } from './executions.repo.ts';
import { createRunRetention } from './run-retention.ts';
import { runsRepo } from './runs.repo.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const START = Date.parse('2026-11-22T10:00:00.000Z');

describeEachEngine('run history retention', (engine) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-retention-'));
  let clock = START;
  /** Retention as these tests configure it: 5 runs or 1 day, deleting 2 at a time. */
  const retention = () =>
    createRunRetention({
      db: handle.db,
      logger: createLogger('silent'),
      keepRuns: 5,
      keepDays: 1,
      batchSize: 2,
      now: () => clock,
    });

  const addUser = (id: string) =>
    handle.db
      .insertInto('users')
      .values({
        id,
        email: `${id}@example.com`,
        username: id,
        usernameKey: id,
        name: id,
        passwordHash: null,
        googleId: null,
        isAdmin: 0,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      })
      .execute();

  /** Records a run `ageMs` before the clock, with its code kept as the execution service keeps it. */
  async function run(userId: string, ageMs: number, code = `print(${crypto.randomUUID()})`): Promise<string> {
    const id = crypto.randomUUID();
    const createdAt = new Date(clock - ageMs).toISOString();
    const codeHash = sha256Hex(code);
    await executionsRepo.insert(handle.db, {
      id,
      userId,
      scriptId: null,
      scriptVersion: null,
      target: 'sandbox',
      status: 'succeeded',
      codeExcerpt: code.slice(0, 500),
      output: '',
      error: null,
      limitHit: null,
      durationMs: 1,
      createdAt,
      initiatedBy: null,
      serverId: null,
      scriptName: null,
      initiator: 'user',
      codeHash,
      actorId: null,
      actorName: null,
      keyName: null,
    });
    await runsRepo.keepCode(handle.db, { userId, codeHash, code, createdAt });
    return id;
  }

  /** The user's runs, newest first. */
  const kept = async (userId: string) =>
    (
      await handle.db
        .selectFrom('executions')
        .select('id')
        .where('userId', '=', userId)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((row) => row.id);
  const keptCode = async (userId: string) =>
    (
      await handle.db.selectFrom('executionCode').select('code').where('userId', '=', userId).orderBy('code').execute()
    ).map((row) => row.code);

  beforeAll(async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    handle = openDatabase(created.config, createLogger('silent'));
    await migrateToLatest(handle.db);
  });
  afterAll(async () => {
    await handle.close();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    clock = START;
    await handle.db.deleteFrom('users').execute();
    for (const id of ['many-old', 'many-new', 'mixed', 'few-old']) await addUser(id);
  });

  it('keeps the newest 5 runs or every run of the last day, whichever keeps more', async () => {
    // Newest first in each list: index i is i hours (or days) older than the one before.
    const manyOld: string[] = [];
    for (let i = 0; i < 8; i++) manyOld.push(await run('many-old', (2 + i) * DAY_MS));
    const manyNew: string[] = [];
    for (let i = 0; i < 8; i++) manyNew.push(await run('many-new', (1 + i) * HOUR_MS));
    const mixed: string[] = [];
    for (let i = 0; i < 4; i++) mixed.push(await run('mixed', (1 + i) * HOUR_MS));
    for (let i = 0; i < 3; i++) mixed.push(await run('mixed', (2 + i) * DAY_MS));
    const fewOld: string[] = [];
    for (let i = 0; i < 3; i++) fewOld.push(await run('few-old', (5 + i) * DAY_MS));

    const result = await retention().sweep();
    expect(result.deleted).toBe(3 + 2);
    expect(await kept('many-old')).toEqual(manyOld.slice(0, 5));
    expect(await kept('many-new')).toEqual(manyNew);
    // The 4 runs of the last day and the newest older one: the 5 newest.
    expect(await kept('mixed')).toEqual(mixed.slice(0, 5));
    expect(await kept('few-old')).toEqual(fewOld);
    // Sweeping again deletes nothing more.
    expect((await retention().sweep()).deleted).toBe(0);
  });

  it('keeps the newest of runs recorded in the same millisecond by id, as the history orders them', async () => {
    const tied: string[] = [];
    for (let i = 0; i < 7; i++) tied.push(await run('many-old', 3 * DAY_MS));
    await retention().sweep();
    expect(await kept('many-old')).toEqual([...tied].sort().reverse().slice(0, 5));
  });

  it('drops the code of deleted runs unless a kept run ran the same code', async () => {
    for (let i = 0; i < 5; i++) await run('many-old', (2 + i) * DAY_MS, i === 0 ? 'print("shared")' : `print(${i})`);
    await run('many-old', 10 * DAY_MS, 'print("shared")');
    await run('many-old', 11 * DAY_MS, 'print("only old")');
    await run('few-old', 11 * DAY_MS, 'print("only old")');
    await retention().sweep();
    expect(await keptCode('many-old')).toEqual(['print("shared")', 'print(1)', 'print(2)', 'print(3)', 'print(4)']);
    expect(await keptCode('few-old')).toEqual(['print("only old")']);
  });

  it('later sweeps find runs that aged past the limit and users whose new runs push old ones out', async () => {
    const manyNew: string[] = [];
    for (let i = 0; i < 7; i++) manyNew.push(await run('many-new', (1 + i) * HOUR_MS));
    const fewOld: string[] = [];
    for (let i = 0; i < 4; i++) fewOld.push(await run('few-old', (5 + i) * DAY_MS));
    const sweeper = retention();
    expect((await sweeper.sweep()).deleted).toBe(0);

    clock += DAY_MS;
    // few-old records two runs now: six in all, so its oldest (older than a day) goes.
    const fresh = [await run('few-old', 0), await run('few-old', 0)];
    expect((await sweeper.sweep()).deleted).toBe(2 + 1);
    expect(await kept('many-new')).toEqual(manyNew.slice(0, 5));
    expect(new Set(await kept('few-old'))).toEqual(new Set([...fresh, ...fewOld.slice(0, 3)]));
  });

  it('gives the same result when two servers sweep at once', async () => {
    const manyOld: string[] = [];
    for (let i = 0; i < 12; i++) manyOld.push(await run('many-old', (2 + i) * DAY_MS));
    const results = await Promise.all([retention().sweep(), retention().sweep()]);
    expect(results[0].deleted + results[1].deleted).toBe(7);
    expect(await kept('many-old')).toEqual(manyOld.slice(0, 5));
  });
});
