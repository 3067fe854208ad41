import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { JobQueue } from './job-queue.ts';

/** Keys one sweep hands out at the most; the rest are handed out by the next sweep. */
const SWEEP_KEYS = 500;

/**
 * Where the embedded mode runs a key's rounds instead of the job queue, so slow rounds (a webhook
 * that takes its time, a rate limit waited out) never hold the slots sandbox runs wait for.
 */
export interface Lane {
  add(task: () => Promise<void>): void;
  /** Lets the rounds under way finish and drops the waiting ones: their work stays stored. */
  close(): Promise<void>;
}

/**
 * A key's lease in the database: only its holder works on the key, so the key's work keeps its
 * order even with many processes; a holder that died is taken over once its lease has passed.
 */
export interface KeyLease {
  /** Takes the key's lease until `until` when nobody holds it (or its holder's lease ended before `now`). */
  take(key: string, now: string, until: string): Promise<boolean>;
  renew(key: string, until: string): Promise<void>;
  release(key: string): Promise<void>;
}

/** What a round for a key is given while its process holds the key. */
export interface HeldKey {
  /**
   * Called before each attempt: renews the lease once half of it has passed, so a long round keeps
   * the key while an attempt under way still ends well within the lease.
   */
  keep(): Promise<void>;
}

export interface OutboxOptions<F extends string> {
  /** The job that runs a key's round (a worker's in the scale-out mode). */
  job: string;
  /** The job's one field, which names the key. */
  keyField: F;
  jobs: JobQueue;
  /**
   * This process is the only one working on keys (the embedded mode): a key's order is kept by
   * this process alone, without a lease in the database (a write, and a disk flush, fewer per round).
   */
  onlyProcess: boolean;
  lease: KeyLease;
  /** How long a lease lasts before another process may take the key over. */
  leaseMs: number;
  /**
   * What a key needs before its lease is taken (giving up on work nothing could ever do); false
   * ends the round there.
   */
  beforeLease?: (key: string) => Promise<boolean>;
  /** One round for a key: works through what is due for it. */
  round: (key: string, held: HeldKey) => Promise<void>;
  /** Keys with work due at `now` and no holder (for the sweep). */
  due: (now: string, limit: number) => Promise<string[]>;
  /** The embedded mode's own lane; without one, the embedded mode runs rounds on `jobs` too. */
  lane?: () => Lane;
  /** The time (ms since the epoch) that leases are taken and renewed by; Date.now unless a test moves a clock. */
  now?: () => number;
  /** Whether this process is stopping: a key that got more work meanwhile is left for the next start. */
  stopping?: () => boolean;
}

/**
 * A durable queue of work per key (a notification destination's events, an owner's ban updates):
 * the work itself is stored by the feature, and a key is handed out to run a round — oldest work
 * first, one round at a time per key, across every process. A key handed out while this process
 * works on it gets one more round once the current one ends, so work stored meanwhile is not left
 * for the sweep.
 */
export function createOutbox<F extends string>(options: OutboxOptions<F>) {
  const { jobs, onlyProcess, lease, leaseMs } = options;
  const now = options.now ?? Date.now;
  const stopping = options.stopping ?? (() => false);
  const iso = (ms: number) => new Date(ms).toISOString();
  const payloadOf = (key: string) => ({ [options.keyField]: key }) as Record<F, string>;

  /** Keys waiting for their round in this process (the embedded mode): one waiting round is enough. */
  const queued = new Set<string>();
  /** Keys this process works on now: a second round for one of them leaves at once. */
  const busyHere = new Set<string>();
  /** Keys handed out while busy here: they get another round once the current one ends. */
  const again = new Set<string>();
  /** Rounds under way, so a stop can wait for them (their leases given back). */
  const running = new Set<Promise<void>>();
  const lane = onlyProcess ? options.lane?.() : undefined;

  /** One round while holding the key: the lease is given back however the round ends. */
  async function hold(key: string): Promise<void> {
    if (options.beforeLease && !(await options.beforeLease(key))) return;
    let leasedAt = now();
    if (!onlyProcess && !(await lease.take(key, iso(leasedAt), iso(leasedAt + leaseMs)))) return;
    const held: HeldKey = {
      async keep() {
        if (onlyProcess || now() - leasedAt <= leaseMs / 2) return;
        leasedAt = now();
        await lease.renew(key, iso(leasedAt + leaseMs));
      },
    };
    try {
      await options.round(key, held);
    } finally {
      if (!onlyProcess) await lease.release(key);
    }
  }

  function track(work: Promise<void>): Promise<void> {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => {});
    return work;
  }

  async function run(payload: Record<F, string>): Promise<void> {
    const key = payload[options.keyField];
    queued.delete(key);
    // Another round of this process works on it now: it looks again once done, and finds this work.
    if (busyHere.has(key)) {
      again.add(key);
      return;
    }
    busyHere.add(key);
    try {
      do {
        again.delete(key);
        await track(hold(key));
      } while (again.has(key) && !stopping());
    } finally {
      busyHere.delete(key);
    }
  }

  /** Asks for a round for the key: in this process's lane, or as a job. */
  async function hand(key: string): Promise<void> {
    if (onlyProcess) {
      if (queued.has(key)) return;
      queued.add(key);
      if (lane) return lane.add(() => run(payloadOf(key)));
    }
    await jobs.enqueue<Record<F, string>>(options.job, payloadOf(key));
  }

  jobs.register<Record<F, string>>(options.job, run);

  return {
    run,
    hand,
    /** Hands out keys whose work came due (retries, rate limits, a process that died holding one). */
    async sweep(): Promise<void> {
      for (const key of await options.due(iso(now()), SWEEP_KEYS)) if (!busyHere.has(key)) await hand(key);
    },
    /** Waits for the rounds under way in this process to end. */
    async idle(): Promise<void> {
      await Promise.allSettled([...running]);
    },
    /** Lets the embedded lane's rounds under way finish; what waits stays stored for the next start. */
    async close(): Promise<void> {
      await lane?.close();
    },
  };
}

export type Outbox<F extends string> = ReturnType<typeof createOutbox<F>>;

/** Columns of table T that hold text. */
type TextColumn<T extends keyof Database> = {
  [C in keyof Database[T] & string]: Database[T][C] extends string ? C : never;
}[keyof Database[T] & string];
/** Columns of table T that hold text or nothing. */
type MaybeTextColumn<T extends keyof Database> = {
  [C in keyof Database[T] & string]: Database[T][C] extends string | null
    ? null extends Database[T][C]
      ? C
      : never
    : never;
}[keyof Database[T] & string];

/** Tables of work stored per key: each row is pending until settled, and has the time of its next try. */
type WorkTable = {
  [T in keyof Database & string]: Database[T] extends { state: string; nextAttemptAt: string } ? T : never;
}[keyof Database & string];

/** A lease kept in a column of the key's own row, written through whatever `db` a caller passes. */
export interface LeaseColumn {
  take(db: Db, key: string, now: string, until: string): Promise<boolean>;
  renew(db: Db, key: string, until: string): Promise<void>;
  release(db: Db, key: string): Promise<void>;
  /**
   * Keys with pending work in `work.table` whose next try is due at `now` and whose lease nobody
   * holds (for the sweep). A key without a row of its own is due too: its work is then given up on.
   */
  due<W extends WorkTable>(
    db: Db,
    work: { table: W; key: TextColumn<W> },
    now: string,
    limit: number,
  ): Promise<string[]>;
}

/**
 * The lease SQL for a row that carries its own lease: `until` holds when the holder's lease ends
 * (null: nobody holds it). Taken in one statement, so two processes never both hold it. A row whose
 * `blockedBy` column is set (a paused destination) is not taken.
 */
export function leaseColumn<T extends keyof Database & string>(
  table: T,
  columns: { key: TextColumn<T>; until: MaybeTextColumn<T>; blockedBy?: MaybeTextColumn<T> },
): LeaseColumn {
  // The table and columns are checked against the schema above; the statements need only their names.
  const loose = (db: Db) => db as unknown as Kysely<Record<string, Record<string, string | null>>>;
  const rows = (db: Db) => loose(db).updateTable(table as string);
  const keyColumn: string = columns.key;
  const until: string = columns.until;
  const blockedBy: string | undefined = columns.blockedBy;
  return {
    async take(db, key, now, leaseUntil) {
      let update = rows(db)
        .set({ [until]: leaseUntil })
        .where(keyColumn, '=', key);
      if (blockedBy) update = update.where(blockedBy, 'is', null);
      const result = await update.where((eb) => eb.or([eb(until, 'is', null), eb(until, '<', now)])).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async renew(db, key, leaseUntil) {
      await rows(db)
        .set({ [until]: leaseUntil })
        .where(keyColumn, '=', key)
        .execute();
    },
    async release(db, key) {
      await rows(db)
        .set({ [until]: null })
        .where(keyColumn, '=', key)
        .execute();
    },
    async due(db, work, now, limit) {
      const from: string = work.table;
      const workKey = sql.ref(`${from}.${work.key}`);
      const leaseUntil = sql.ref(`${table}.${until}`);
      const notBlocked = blockedBy ? sql`and ${sql.ref(`${table}.${blockedBy}`)} is null` : sql``;
      const found = await sql<{ key: string }>`
        select distinct ${workKey} as ${sql.ref('key')}
        from ${sql.table(from)}
        left join ${sql.table(table)} on ${sql.ref(`${table}.${keyColumn}`)} = ${workKey}
        where ${sql.ref(`${from}.state`)} = ${'pending'} and ${sql.ref(`${from}.nextAttemptAt`)} <= ${now}
          ${notBlocked} and (${leaseUntil} is null or ${leaseUntil} < ${now})
        limit ${limit}`.execute(db);
      return found.rows.map((row) => row.key);
    },
  };
}

/** The outbox's lease over a lease column, each write going through `write` (a transaction, a shared commit). */
export function leaseThrough(column: LeaseColumn, write: <R>(work: (db: Db) => Promise<R>) => Promise<R>): KeyLease {
  return {
    take: (key, now, until) => write((db) => column.take(db, key, now, until)),
    renew: (key, until) => write((db) => column.renew(db, key, until)),
    release: (key) => write((db) => column.release(db, key)),
  };
}
