import crypto from 'node:crypto';
import { OPEN_CLOUD_ERRORS } from '@moonrelay/contract/open-cloud';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import type { JobQueue } from '../../platform/job-queue.ts';
import { createOutbox, leaseThrough, type HeldKey } from '../../platform/outbox.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { createBanImport, type BanImportResult } from './ban-import.ts';
import type { Clock } from './clock.ts';
import { keysRepo, sendsRepo, updatesRepo, type UpdateRow } from './open-cloud.repo.ts';
import { backoffMs, nextAllowedMs, PER_UNIVERSE, PER_USER } from './pacing.ts';
import { CloudUnreachable, createOpenCloudClient, durationText, robloxErrorText } from './roblox-open-cloud.ts';

/** A ban, its change or its lifting, for one Roblox user in the owner's universe. */
export interface RestrictionRequest {
  /** The moderation action's id: the same id queued twice is sent once. */
  actionId: string;
  ownerId: string;
  robloxUserId: number;
  /** false lifts the ban. */
  active: boolean;
  /** null = permanent. */
  durationSeconds: number | null;
  displayReason: string;
  privateReason: string;
  excludeAltAccounts: boolean;
}

export type RestrictionOutcome =
  { state: 'applied' } | { state: 'failed'; error: string /* Roblox's own error text */ };

export interface OpenCloudConfig {
  /** Roblox's Open Cloud, https://apis.roblox.com unless a test answers in its place. */
  baseUrl: string;
  /** The first retry's wait after a 429 without Retry-After or a 5xx; each next one doubles. */
  retryBaseMs: number;
  /**
   * How long one process holds an owner's sending (the scale-out mode), renewed as it goes: a
   * process that dies mid-send keeps the owner this long before another takes over.
   */
  leaseMs: number;
}

/** The job that sends an owner's waiting updates, oldest first; and the one that imports their bans. */
export const OPEN_CLOUD_SEND_JOB = 'open-cloud-send';
export const OPEN_CLOUD_IMPORT_JOB = 'open-cloud-import';
interface OwnerJob {
  ownerId: string;
}

/** A wait up to this long (the universe's second) is waited out in the job; a longer one by the sweep. */
const WAIT_IN_JOB_MAX_MS = 2_000;
/** An update Roblox keeps failing (5xx, no answer) is given up on after a day. */
const RETRY_FOR_MS = 24 * 3600_000;
/** How often the sweep runs, and how often an owner's bans are imported again. */
export const OPEN_CLOUD_SWEEP_MS = 1_000;
export const BAN_IMPORT_EVERY_MS = 5 * 60_000;

let lastSeq = 0;
/** Orders updates as this process queued them: microseconds since the epoch, never repeating. */
function nextSeq(nowMs: number): number {
  lastSeq = Math.max(lastSeq + 1, nowMs * 1000);
  return lastSeq;
}

/**
 * The idempotency key Roblox gets for an action: a UUID derived from the action's id, the same on
 * every try, so Roblox applies a resent update (after a timeout or a restart) only once.
 */
export function idempotencyKeyOf(actionId: string): string {
  const hex = crypto.createHash('sha256').update(`moonrelay-restriction:${actionId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

type Attempt =
  | { kind: 'applied' }
  | { kind: 'failed'; error: string }
  | { kind: 'later'; waitMs: number; reason: string }
  | { kind: 'stopped' };

/**
 * Moonrelay's Open Cloud ban path: restriction updates queued in the database (one row per action,
 * written before anything is sent, so a restart loses none), sent per owner oldest first within
 * Roblox's limits by whichever process holds the owner's lease, retried with the same idempotency key
 * until Roblox applies or refuses them, and each outcome told once through `onOutcome` (again after a
 * restart if the process stopped before telling it). Runs as jobs (in this process, or a worker in
 * the scale-out mode); the sweep hands out owners whose next try came due.
 */
export function createRestrictions(deps: {
  db: Db;
  jobs: JobQueue;
  box: SecretBox;
  clock: Clock;
  config: OpenCloudConfig;
  logger: Logger;
  onOutcome: (actionId: string, outcome: RestrictionOutcome) => Promise<void> | void;
  /** The only process sending (the embedded mode): no lease in the database is needed. */
  onlyProcess: boolean;
}) {
  const { db, jobs, box, clock, logger } = deps;
  const iso = (ms = clock.now()) => new Date(ms).toISOString();
  const client = createOpenCloudClient({ baseUrl: deps.config.baseUrl, now: () => clock.now() });
  const imports = createBanImport({ db, box, client, clock });
  /** Aborted by stop(): requests in flight are cut and their updates stay pending. */
  let stopping = new AbortController();

  /** When the next update for this user may go out, from the sends on record. */
  async function pacedUntil(universeId: string, robloxUserId: string): Promise<number> {
    const now = clock.now();
    const user = await sendsRepo.userSince(db, universeId, robloxUserId, iso(now - PER_USER.windowMs));
    const universe = await sendsRepo.universeSince(db, universeId, iso(now - PER_UNIVERSE.windowMs));
    return Math.max(
      nextAllowedMs(user.map(Date.parse), PER_USER, now),
      nextAllowedMs(universe.map(Date.parse), PER_UNIVERSE, now),
    );
  }

  async function attempt(key: { universeId: string; apiKey: string }, row: UpdateRow): Promise<Attempt> {
    // firstSent is written before the first try, so a resend after a restart carries the same one.
    const firstSent = row.firstSentAt ?? iso();
    if (!row.firstSentAt) await updatesRepo.update(db, row.id, { firstSentAt: firstSent });
    await sendsRepo.insert(db, key.universeId, row.robloxUserId, iso());
    const duration = row.durationSeconds === null ? null : Number(row.durationSeconds);
    try {
      const answer = await client.updateRestriction(
        key,
        row.robloxUserId,
        {
          active: Boolean(Number(row.active)),
          ...(duration === null ? {} : { duration: durationText(duration) }),
          privateReason: row.privateReason,
          displayReason: row.displayReason,
          excludeAltAccounts: Boolean(Number(row.excludeAltAccounts)),
        },
        { key: idempotencyKeyOf(row.id), firstSent },
        stopping.signal,
      );
      if (answer.status >= 200 && answer.status < 300) return { kind: 'applied' };
      if (answer.status === 429)
        return {
          kind: 'later',
          waitMs: answer.retryAfterMs ?? backoffMs(deps.config.retryBaseMs, row.attempts + 1),
          reason: 'Roblox answered 429 (rate limited)',
        };
      if (answer.status === 408 || answer.status >= 500)
        return {
          kind: 'later',
          waitMs: backoffMs(deps.config.retryBaseMs, row.attempts + 1),
          reason: `Roblox answered ${answer.status}`,
        };
      // 400 (a reason too long, a bad duration), 401/403 (the key lost its scope), 404: sending the
      // same update again would be refused the same way.
      return { kind: 'failed', error: robloxErrorText(answer) };
    } catch (error) {
      if (!(error instanceof CloudUnreachable)) throw error;
      if (stopping.signal.aborted) return { kind: 'stopped' };
      return { kind: 'later', waitMs: backoffMs(deps.config.retryBaseMs, row.attempts + 1), reason: error.message };
    }
  }

  /** Tells the outcome, then notes it was told; a failure to tell is retried by the sweep. */
  async function report(row: Pick<UpdateRow, 'id' | 'state' | 'error'>): Promise<void> {
    const outcome: RestrictionOutcome =
      row.state === 'applied' ? { state: 'applied' } : { state: 'failed', error: row.error ?? 'failed' };
    try {
      await deps.onOutcome(row.id, outcome);
      await updatesRepo.update(db, row.id, { reportedAt: iso() });
    } catch (error) {
      logger.error({ err: error, actionId: row.id }, 'open cloud: telling an outcome failed');
    }
  }

  async function settle(row: UpdateRow, result: Attempt): Promise<void> {
    const attempts = row.attempts + 1;
    switch (result.kind) {
      case 'applied':
      case 'failed': {
        const state = result.kind;
        const error = result.kind === 'failed' ? result.error : null;
        await updatesRepo.update(db, row.id, { state, error, attempts, doneAt: iso() });
        await report({ id: row.id, state, error });
        return;
      }
      case 'later': {
        const next = clock.now() + result.waitMs;
        if (next > Date.parse(row.createdAt) + RETRY_FOR_MS) {
          const error = `${result.reason}; retried for 24 hours`;
          await updatesRepo.update(db, row.id, { state: 'failed', error, attempts, doneAt: iso() });
          await report({ id: row.id, state: 'failed', error });
          return;
        }
        await updatesRepo.update(db, row.id, { attempts, nextAttemptAt: iso(next), error: result.reason });
        return;
      }
      case 'stopped':
        return;
    }
  }

  /**
   * With no key (never saved, or removed while updates waited) nothing can send the owner's updates:
   * they fail. Answers whether that was so.
   */
  async function failedWithoutKey(ownerId: string): Promise<boolean> {
    if (await keysRepo.find(db, ownerId)) return false;
    for (const row of await updatesRepo.pending(db, ownerId, 500)) {
      await updatesRepo.update(db, row.id, { state: 'failed', error: OPEN_CLOUD_ERRORS.noKey, doneAt: iso() });
      await report({ id: row.id, state: 'failed', error: OPEN_CLOUD_ERRORS.noKey });
    }
    return true;
  }

  /** Sends what is due for one owner, oldest first per Roblox user, within the limits. */
  async function sendDue(ownerId: string, lease: HeldKey): Promise<void> {
    while (!stopping.signal.aborted) {
      const current = await keysRepo.find(db, ownerId);
      if (!current) {
        await failedWithoutKey(ownerId);
        return;
      }
      const key = { universeId: current.universeId, apiKey: box.open(current.keySealed) };
      const rows = await updatesRepo.pending(db, ownerId, 200);
      if (rows.length === 0) return;
      // A user's updates go in order: one that must wait holds back the later ones of that user.
      const held = new Set<string>();
      let soonestMs = Infinity;
      let sent = false;
      for (const row of rows) {
        if (stopping.signal.aborted) return;
        if (held.has(row.robloxUserId)) continue;
        const due = Math.max(Date.parse(row.nextAttemptAt), await pacedUntil(key.universeId, row.robloxUserId));
        if (due > clock.now()) {
          held.add(row.robloxUserId);
          soonestMs = Math.min(soonestMs, due - clock.now());
          // The sweep looks at next_attempt_at: it hands the owner out again once the wait is over.
          if (due > Date.parse(row.nextAttemptAt)) await updatesRepo.update(db, row.id, { nextAttemptAt: iso(due) });
          continue;
        }
        await lease.keep();
        const result = await attempt(key, row);
        await settle(row, result);
        sent = true;
        if (result.kind !== 'applied' && result.kind !== 'failed') held.add(row.robloxUserId);
      }
      if (sent) continue;
      if (soonestMs > WAIT_IN_JOB_MAX_MS) return;
      await clock.sleep(soonestMs, stopping.signal);
    }
  }

  const importing = new Set<string>();
  /** Imports in flight in this process, so stop() can wait for them. */
  const running = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>) => {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => {});
    return work;
  };

  /** Owners' updates, sent one owner at a time by whichever process holds the owner's lease. */
  const sending = createOutbox({
    job: OPEN_CLOUD_SEND_JOB,
    keyField: 'ownerId',
    jobs,
    onlyProcess: deps.onlyProcess,
    lease: leaseThrough(keysRepo.leases.sendingUntil, (work) => work(db)),
    leaseMs: deps.config.leaseMs,
    beforeLease: async (ownerId) => !(await failedWithoutKey(ownerId)),
    round: sendDue,
    due: (now, limit) => updatesRepo.dueOwners(db, now, limit),
    now: () => clock.now(),
    stopping: () => stopping.signal.aborted,
  });

  async function importLogs(ownerId: string): Promise<BanImportResult> {
    return track(imports.run(ownerId));
  }

  async function runImport(job: OwnerJob): Promise<void> {
    if (importing.has(job.ownerId)) return;
    importing.add(job.ownerId);
    try {
      await importLogs(job.ownerId);
    } catch (error) {
      // Another process imports them now (the sweep of every instance asks): nothing to say.
      if (error instanceof AppError && error.status === 409) return;
      // Recorded on the key (lastImportError) for the owner to see; the next round tries again.
      logger.warn({ err: error, ownerId: job.ownerId }, 'open cloud: importing bans failed');
    } finally {
      importing.delete(job.ownerId);
    }
  }

  jobs.register<OwnerJob>(OPEN_CLOUD_IMPORT_JOB, runImport);

  /** Sweeps since the last prune: the queue and the sends are pruned once a minute. */
  let sweepsSincePrune = 0;

  async function sweep(): Promise<void> {
    const now = clock.now();
    await sending.sweep();
    for (const row of await updatesRepo.unreported(db, 100)) await report(row);
    for (const ownerId of await keysRepo.dueImports(db, iso(now - BAN_IMPORT_EVERY_MS), iso(now), 100))
      if (!importing.has(ownerId)) await jobs.enqueue<OwnerJob>(OPEN_CLOUD_IMPORT_JOB, { ownerId });
    sweepsSincePrune += 1;
    if (sweepsSincePrune * OPEN_CLOUD_SWEEP_MS < 60_000) return;
    sweepsSincePrune = 0;
    await updatesRepo.pruneDone(db, iso(now - 7 * 24 * 3600_000));
    // Only the last minute counts for pacing; two are kept so a clock step cannot forget a send.
    await sendsRepo.prune(db, iso(now - 2 * PER_USER.windowMs));
  }

  let loop: Promise<void> | undefined;

  return {
    /** Whether the owner saved an Open Cloud key (so a ban can go through Roblox with no server running). */
    async hasKey(ownerId: string): Promise<boolean> {
      return Boolean(await keysRepo.find(db, ownerId));
    },

    /**
     * Queues an update. Durable once this resolves; the same actionId again changes nothing. The
     * outcome comes through onOutcome.
     */
    async enqueue(request: RestrictionRequest): Promise<void> {
      const now = clock.now();
      await updatesRepo.insert(db, {
        id: request.actionId,
        ownerId: request.ownerId,
        robloxUserId: String(request.robloxUserId),
        active: request.active ? 1 : 0,
        durationSeconds: request.durationSeconds,
        displayReason: request.displayReason,
        privateReason: request.privateReason,
        excludeAltAccounts: request.excludeAltAccounts ? 1 : 0,
        seq: nextSeq(now),
        state: 'pending',
        attempts: 0,
        firstSentAt: null,
        nextAttemptAt: iso(now),
        error: null,
        createdAt: iso(now),
        doneAt: null,
        reportedAt: null,
      });
      await sending.hand(request.ownerId);
    },

    /** Imports the owner's ban history (new entries only) and the bans in force now. */
    importLogs,

    /** Queues an import of the owner's bans (after a key is saved). */
    async queueImport(ownerId: string): Promise<void> {
      await jobs.enqueue<OwnerJob>(OPEN_CLOUD_IMPORT_JOB, { ownerId });
    },

    /** The update as stored (its state and Roblox's error, if any). */
    find: (actionId: string) => updatesRepo.find(db, actionId),

    sweep,

    /** Runs the sweep every second until stop(). */
    start(): void {
      if (loop) return;
      stopping = new AbortController();
      const signal = stopping.signal;
      loop = (async () => {
        while (!signal.aborted) {
          await sweep().catch((error: unknown) => logger.error({ err: error }, 'open cloud sweep failed'));
          await clock.sleep(OPEN_CLOUD_SWEEP_MS, signal);
        }
      })();
    },

    /** Stops the sweep and cuts requests in flight (their updates stay pending for the next start). */
    async stop(): Promise<void> {
      stopping.abort();
      await loop;
      loop = undefined;
      await Promise.allSettled([...running, sending.idle()]);
    },
  };
}

export type Restrictions = ReturnType<typeof createRestrictions>;
