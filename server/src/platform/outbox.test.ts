import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../test/engines.ts';
import { insertUserRow } from '../../test/user-rows.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Db } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import { createMemoryJobQueue, type JobQueue } from './job-queue.ts';
import { createOutbox, leaseColumn, leaseThrough, type HeldKey, type KeyLease, type Lane } from './outbox.ts';

const JOB = 'outbox-test-round';
const LEASE_MS = 60_000;

/** A promise and its resolver: a test waits on it, a round (or the test) settles it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** What happened, in order, with a way to wait until a given thing has happened. */
function journal() {
  const seen: string[] = [];
  const waiters: { entry: string; times: number; wake: () => void }[] = [];
  const count = (entry: string) => seen.filter((e) => e === entry).length;
  return {
    seen,
    count,
    add(entry: string) {
      seen.push(entry);
      for (const waiter of waiters.filter((w) => count(w.entry) >= w.times)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.wake();
      }
    },
    /** Resolves once `entry` has happened `times` times. */
    when(entry: string, times = 1): Promise<void> {
      if (count(entry) >= times) return Promise.resolve();
      return new Promise((wake) => waiters.push({ entry, times, wake }));
    },
  };
}

/** A lease kept in memory, as the database would keep it, recording what was asked of it. */
function memoryLease(log: ReturnType<typeof journal>) {
  const until = new Map<string, string>();
  const asked: { op: string; key: string; now?: string; until?: string }[] = [];
  const lease: KeyLease = {
    async take(key, now, leaseUntil) {
      asked.push({ op: 'take', key, now, until: leaseUntil });
      const held = until.get(key);
      if (held !== undefined && held >= now) return false;
      until.set(key, leaseUntil);
      return true;
    },
    async renew(key, leaseUntil) {
      asked.push({ op: 'renew', key, until: leaseUntil });
      until.set(key, leaseUntil);
    },
    async release(key) {
      asked.push({ op: 'release', key });
      until.delete(key);
      log.add(`released ${key}`);
    },
  };
  return { lease, until, asked };
}

/** The in-process job queue, recording each job asked for. */
function recordedJobs(log: ReturnType<typeof journal>, concurrency = 4): JobQueue {
  const inner = createMemoryJobQueue({ concurrency, onError: (_error, name) => log.add(`job failed ${name}`) });
  return {
    ...inner,
    async enqueue(name, payload) {
      log.add(`enqueued ${(payload as { key: string }).key}`);
      await inner.enqueue(name, payload);
    },
  };
}

/** A lane whose rounds run only when the test says so. */
function heldLane(log: ReturnType<typeof journal>) {
  const waiting: (() => Promise<void>)[] = [];
  let closed = false;
  const lane: Lane = {
    add(task) {
      log.add('lane');
      waiting.push(task);
    },
    async close() {
      closed = true;
    },
  };
  return {
    lane,
    waiting,
    isClosed: () => closed,
    /** Runs the rounds waiting now, one after another. */
    async runAll() {
      for (const task of waiting.splice(0)) await task();
    },
  };
}

function outboxFor(options: {
  onlyProcess: boolean;
  round: (key: string, held: HeldKey) => Promise<void>;
  log: ReturnType<typeof journal>;
  jobs?: JobQueue;
  lane?: Lane;
  lease?: KeyLease;
  now?: () => number;
  due?: string[];
  beforeLease?: (key: string) => Promise<boolean>;
  stopping?: () => boolean;
}) {
  const jobs = options.jobs ?? recordedJobs(options.log);
  const { lane } = options;
  const outbox = createOutbox({
    ...options,
    job: JOB,
    keyField: 'key',
    jobs,
    lease: options.lease ?? memoryLease(options.log).lease,
    leaseMs: LEASE_MS,
    due: async () => options.due ?? [],
    lane: lane && (() => lane),
  });
  return { outbox, jobs };
}

describe('outbox', () => {
  it('embedded with a lane: a key waiting for its round is handed out once, and again after its round began', async () => {
    const log = journal();
    const lane = heldLane(log);
    const { outbox, jobs } = outboxFor({
      onlyProcess: true,
      lane: lane.lane,
      log,
      round: async (key) => log.add(`round ${key}`),
    });
    await outbox.hand('a');
    await outbox.hand('a');
    await outbox.hand('b');
    await outbox.hand('a');
    expect(lane.waiting).toHaveLength(2);
    expect(log.count('enqueued a')).toBe(0);
    await lane.runAll();
    expect(log.seen.filter((e) => e.startsWith('round'))).toEqual(['round a', 'round b']);
    // Its round began: work stored since needs a round of its own.
    await outbox.hand('a');
    expect(lane.waiting).toHaveLength(1);
    await lane.runAll();
    expect(log.count('round a')).toBe(2);
    // No lease in the database: this process is the only one.
    expect(log.count('released a')).toBe(0);
    await outbox.close();
    expect(lane.isClosed()).toBe(true);
    await jobs.close();
  });

  it('embedded without a lane: rounds run on the in-process job queue, one waiting job per key', async () => {
    const log = journal();
    const gate = deferred();
    const { outbox, jobs } = outboxFor({
      onlyProcess: true,
      log,
      // The first job holds the queue's one slot until the test has handed out the rest.
      round: async (key) => {
        log.add(`round ${key}`);
        if (key === 'first') await gate.promise;
      },
      jobs: recordedJobs(log, 1),
    });
    await outbox.hand('first');
    await log.when('round first');
    await outbox.hand('a');
    await outbox.hand('a');
    await outbox.hand('a');
    expect(log.count('enqueued a')).toBe(1);
    gate.resolve();
    await log.when('round a');
    await outbox.idle();
    expect(log.count('round a')).toBe(1);
    await jobs.close();
  });

  it('scale-out: every hand is a job, and each round holds the lease from now until the lease time', async () => {
    const log = journal();
    const leases = memoryLease(log);
    let clock = Date.parse('2026-03-01T12:00:00.000Z');
    const { outbox, jobs } = outboxFor({
      onlyProcess: false,
      log,
      lease: leases.lease,
      now: () => clock,
      round: async (key) => log.add(`round ${key}`),
    });
    await outbox.hand('a');
    await log.when('released a');
    await outbox.hand('a');
    await log.when('released a', 2);
    // A worker of another process holds it: this one leaves it be.
    leases.until.set('b', new Date(clock + 1_000).toISOString());
    await outbox.hand('b');
    await outbox.idle();
    expect(log.count('enqueued a')).toBe(2);
    expect(log.count('round a')).toBe(2);
    expect(log.count('round b')).toBe(0);
    expect(log.count('released b')).toBe(0);
    expect(leases.asked[0]).toEqual({
      op: 'take',
      key: 'a',
      now: '2026-03-01T12:00:00.000Z',
      until: '2026-03-01T12:01:00.000Z',
    });
    // Once the other holder's lease has passed, the key is taken over.
    clock += 2_000;
    await outbox.run({ key: 'b' });
    expect(log.count('round b')).toBe(1);
    expect(leases.until.has('b')).toBe(false);
    await jobs.close();
  });

  it('a key handed out while its round runs here gets exactly one more round once it ends', async () => {
    const log = journal();
    const gates = [deferred(), deferred()];
    let rounds = 0;
    const { outbox, jobs } = outboxFor({
      onlyProcess: false,
      log,
      round: async (key) => {
        const gate = gates[rounds++];
        log.add(`round ${key}`);
        await gate?.promise;
      },
    });
    const first = outbox.run({ key: 'a' });
    await log.when('round a');
    // Two more jobs for the key arrive while this process works on it: they leave at once.
    await outbox.run({ key: 'a' });
    await outbox.run({ key: 'a' });
    expect(log.count('round a')).toBe(1);
    gates[0]!.resolve();
    await log.when('round a', 2);
    gates[1]!.resolve();
    await first;
    expect(log.count('round a')).toBe(2);
    expect(log.count('released a')).toBe(2);
    await jobs.close();
  });

  it('no round is begun again once the process is stopping', async () => {
    const log = journal();
    const gate = deferred();
    let stopping = false;
    const { outbox, jobs } = outboxFor({
      onlyProcess: true,
      log,
      stopping: () => stopping,
      round: async (key) => {
        log.add(`round ${key}`);
        await gate.promise;
      },
    });
    const first = outbox.run({ key: 'a' });
    await log.when('round a');
    await outbox.run({ key: 'a' });
    stopping = true;
    gate.resolve();
    await first;
    expect(log.count('round a')).toBe(1);
    await jobs.close();
  });

  it('gives the lease back when a round fails, and the key can be worked on again', async () => {
    const log = journal();
    const leases = memoryLease(log);
    let fail = true;
    const { outbox, jobs } = outboxFor({
      onlyProcess: false,
      log,
      lease: leases.lease,
      round: async (key) => {
        log.add(`round ${key}`);
        if (fail) throw new Error('the round failed');
      },
    });
    await expect(outbox.run({ key: 'a' })).rejects.toThrow('the round failed');
    expect(log.count('released a')).toBe(1);
    expect(leases.until.has('a')).toBe(false);
    fail = false;
    await outbox.hand('a');
    await log.when('released a', 2);
    expect(log.count('round a')).toBe(2);
    expect(log.count('job failed outbox-test-round')).toBe(0);
    await jobs.close();
  });

  it('renews the lease before an attempt once half of it has passed, and only in the scale-out mode', async () => {
    for (const onlyProcess of [false, true]) {
      const log = journal();
      const leases = memoryLease(log);
      let clock = Date.parse('2026-03-01T12:00:00.000Z');
      const { outbox, jobs } = outboxFor({
        onlyProcess,
        log,
        lease: leases.lease,
        now: () => clock,
        round: async (_key, held) => {
          clock += LEASE_MS / 2;
          await held.keep();
          clock += 1;
          await held.keep();
          await held.keep();
          clock += LEASE_MS / 2 + 1;
          await held.keep();
        },
      });
      await outbox.run({ key: 'a' });
      const ops = leases.asked.map((asked) => (asked.op === 'renew' ? `renew ${asked.until}` : asked.op));
      expect(ops).toEqual(
        onlyProcess ? [] : ['take', 'renew 2026-03-01T12:01:30.001Z', 'renew 2026-03-01T12:02:00.002Z', 'release'],
      );
      await jobs.close();
    }
  });

  it('leaves a key alone when what comes before its lease says there is nothing to hold', async () => {
    const log = journal();
    const leases = memoryLease(log);
    const { outbox, jobs } = outboxFor({
      onlyProcess: false,
      log,
      lease: leases.lease,
      beforeLease: async (key) => key !== 'gone',
      round: async (key) => log.add(`round ${key}`),
    });
    await outbox.run({ key: 'gone' });
    await outbox.run({ key: 'kept' });
    expect(log.seen.filter((e) => e.startsWith('round'))).toEqual(['round kept']);
    expect(leases.asked.map((asked) => `${asked.op} ${asked.key}`)).toEqual(['take kept', 'release kept']);
    await jobs.close();
  });

  it('the sweep hands out due keys, except those this process works on now', async () => {
    const log = journal();
    const gate = deferred();
    const { outbox, jobs } = outboxFor({
      onlyProcess: false,
      log,
      due: ['busy', 'idle'],
      round: async (key) => {
        log.add(`round ${key}`);
        if (key === 'busy') await gate.promise;
      },
    });
    const busy = outbox.run({ key: 'busy' });
    await log.when('round busy');
    await outbox.sweep();
    await log.when('released idle');
    expect(log.count('enqueued busy')).toBe(0);
    expect(log.count('enqueued idle')).toBe(1);
    gate.resolve();
    await busy;
    // A stop waits for the rounds under way; nothing is left running.
    await outbox.idle();
    expect(log.count('round busy')).toBe(1);
    await jobs.close();
  });
});

describeEachEngine('lease columns', (engine) => {
  let handle: DatabaseHandle;
  let db: Db;
  let drop: () => Promise<void>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-outbox-'));
  const at = '2026-01-01T00:00:00.000Z';
  const destinations = leaseColumn('notificationDestinations', {
    key: 'id',
    until: 'deliveringUntil',
    blockedBy: 'pausedAt',
  });
  const sending = leaseColumn('openCloudKeys', { key: 'userId', until: 'sendingUntil' });

  beforeAll(async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    handle = openDatabase(created.config, createLogger('silent'));
    db = handle.db;
    await migrateToLatest(db);
    await insertUserRow(db, 'owner-1');
    await db
      .insertInto('openCloudKeys')
      .values({
        userId: 'owner-1',
        universeId: '1',
        keySealed: 'sealed',
        maskedKey: 'rbx-…',
        sendingUntil: null,
        importingUntil: null,
        logsImportedUntil: null,
        lastImportAt: null,
        lastImportError: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    for (const [id, pausedAt] of [
      ['destination-live', null],
      ['destination-paused', at],
    ] as const)
      await db
        .insertInto('notificationDestinations')
        .values({
          id,
          userId: 'owner-1',
          kind: 'webhook',
          name: id,
          urlSealed: 'sealed',
          maskedUrl: 'https://example.com/…',
          secretSealed: null,
          events: 'test',
          pausedAt,
          pausedReason: null,
          failuresInRow: 0,
          lastDeliveryAt: null,
          deliveringUntil: null,
          createdAt: at,
          updatedAt: at,
        })
        .execute();
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const sendingUntil = async () =>
    (await db.selectFrom('openCloudKeys').select('sendingUntil').where('userId', '=', 'owner-1').executeTakeFirst())
      ?.sendingUntil;

  it('is taken by one holder at a time, renewed, given back, and taken over once it has passed', async () => {
    const lease = leaseThrough(sending, (work) => work(db));
    expect(await lease.take('owner-1', '2026-03-01T12:00:00.000Z', '2026-03-01T12:01:00.000Z')).toBe(true);
    expect(await lease.take('owner-1', '2026-03-01T12:00:30.000Z', '2026-03-01T12:01:30.000Z')).toBe(false);
    await lease.renew('owner-1', '2026-03-01T12:02:00.000Z');
    expect(await sendingUntil()).toBe('2026-03-01T12:02:00.000Z');
    expect(await lease.take('owner-1', '2026-03-01T12:02:00.001Z', '2026-03-01T12:03:00.001Z')).toBe(true);
    await lease.release('owner-1');
    expect(await sendingUntil()).toBeNull();
    expect(await lease.take('owner-1', '2026-03-01T12:02:01.000Z', '2026-03-01T12:03:01.000Z')).toBe(true);
    await lease.release('owner-1');
    expect(await lease.take('nobody', '2026-03-01T12:00:00.000Z', '2026-03-01T12:01:00.000Z')).toBe(false);
  });

  it('is not taken while the row is blocked (a paused destination)', async () => {
    const now = '2026-03-01T12:00:00.000Z';
    const until = '2026-03-01T12:01:00.000Z';
    expect(await destinations.take(db, 'destination-paused', now, until)).toBe(false);
    expect(await destinations.take(db, 'destination-live', now, until)).toBe(true);
    await destinations.release(db, 'destination-live');
    const rows = await db
      .selectFrom('notificationDestinations')
      .select(['id', 'deliveringUntil'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'destination-live', deliveringUntil: null },
      { id: 'destination-paused', deliveringUntil: null },
    ]);
  });
  it('finds the keys with work due and no holder, a key without its row too', async () => {
    const delivery = (id: string, destinationId: string, nextAttemptAt: string, state = 'pending') => ({
      id,
      destinationId,
      eventId: id,
      event: 'test',
      payload: '{}',
      occurredAt: at,
      seq: 1,
      state,
      attempts: 0,
      nextAttemptAt,
      deliveredAt: null,
    });
    await db
      .insertInto('notificationDeliveries')
      .values([
        delivery('d1', 'destination-live', '2026-03-01T11:58:00.000Z'),
        delivery('d2', 'destination-live', '2026-03-01T11:59:00.000Z'),
        delivery('d3', 'destination-paused', '2026-03-01T11:59:00.000Z'),
      ])
      .execute();
    const events = { table: 'notificationDeliveries', key: 'destinationId' } as const;
    const dueDestinations = (now: string) => destinations.due(db, events, now, 10);
    expect(await dueDestinations('2026-03-01T12:00:00.000Z')).toEqual(['destination-live']);
    expect(await dueDestinations('2026-03-01T11:57:00.000Z')).toEqual([]);
    await destinations.take(db, 'destination-live', '2026-03-01T12:00:00.000Z', '2026-03-01T12:01:00.000Z');
    expect(await dueDestinations('2026-03-01T12:00:30.000Z')).toEqual([]);
    // Its holder died: once the lease has passed, the sweep hands it out again.
    expect(await dueDestinations('2026-03-01T12:01:30.000Z')).toEqual(['destination-live']);
    await destinations.release(db, 'destination-live');
    await db
      .updateTable('notificationDeliveries')
      .set({ state: 'delivered' })
      .where('id', 'in', ['d1', 'd2'])
      .execute();
    expect(await dueDestinations('2026-03-01T12:01:30.000Z')).toEqual([]);

    await insertUserRow(db, 'owner-without-key');
    const update = (id: string, ownerId: string) => ({
      id,
      ownerId,
      robloxUserId: '1',
      active: 1,
      durationSeconds: null,
      displayReason: '',
      privateReason: '',
      excludeAltAccounts: 0,
      seq: 1,
      state: 'pending',
      attempts: 0,
      firstSentAt: null,
      nextAttemptAt: '2026-03-01T11:59:00.000Z',
      error: null,
      createdAt: at,
      doneAt: null,
      reportedAt: null,
    });
    await db
      .insertInto('openCloudUpdates')
      .values([update('u1', 'owner-1'), update('u2', 'owner-without-key')])
      .execute();
    const updates = { table: 'openCloudUpdates', key: 'ownerId' } as const;
    await sending.take(db, 'owner-1', '2026-03-01T12:00:00.000Z', '2026-03-01T12:01:00.000Z');
    expect(await sending.due(db, updates, '2026-03-01T12:00:00.000Z', 10)).toEqual(['owner-without-key']);
    await sending.release(db, 'owner-1');
    expect((await sending.due(db, updates, '2026-03-01T12:00:00.000Z', 10)).sort()).toEqual([
      'owner-1',
      'owner-without-key',
    ]);
    expect(await sending.due(db, updates, '2026-03-01T12:00:00.000Z', 1)).toHaveLength(1);
  });
});
