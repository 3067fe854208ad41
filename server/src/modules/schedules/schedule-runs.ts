import type { ExecutionResponse, ExecutionTarget } from '@moonrelay/contract/executions';
import { ERRORS, SCHEDULE_ERRORS } from '@moonrelay/contract/messages';
import type { Db } from '../../db/database.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import type { DueJob, JobQueue } from '../../platform/job-queue.ts';
import type { WindowCounter } from '../../platform/rate-limits.ts';
import { derivedId } from '../admin/mass-progress.ts';
import type { ExecutionsService, RunActor } from '../executions/executions.service.ts';
import { holds, type HeldPermissions } from '../../security/team-permissions.ts';
import { runPermissionOf, SCHEDULE_RUN_JOB, scheduleJobId, type ScheduleRunJob } from './schedules.service.ts';
import { usersRepo } from '../users/users.repo.ts';
import { schedulesRepo, type ScheduleRow } from './schedules.repo.ts';

/**
 * How long a claimed run holds its schedule: a due time meanwhile is skipped. A run ends well
 * within it (a game run waits GAME_EXECUTION_WAIT_MS, 30 s at most); a process that died mid-run
 * holds the schedule no longer than this.
 */
export const RUN_LEASE_MS = 5 * 60_000;

/**
 * Runs a schedule's due time, wherever the job queue hands it out (the server in the embedded mode,
 * a worker in the scale-out mode). The due time is claimed in the database first, so it runs once
 * however often it is handed out; the run's id is derived from the schedule and the due time, so a
 * run cannot be recorded twice either. Policies: a run due while the previous one still runs is
 * skipped and counted; a run with no game connected is recorded as not connected (not kept for
 * later); each run spends one of the user's execution budget.
 */
export function createScheduleRuns(deps: {
  db: Db;
  bus: EventBus;
  jobs: JobQueue;
  executions: ExecutionsService;
  liveServers(userId: string): Promise<string[]>;
  /** The execution budget (RATE_LIMIT_EXECUTION_PER_MINUTE), spent per user for scheduled runs. */
  budget: WindowCounter;
  /** What a team's member holds there now (null: not a member): a schedule runs as its maker. */
  accessOf: (memberId: string, teamId: string) => Promise<HeldPermissions | null>;
}) {
  const { db, bus, jobs, executions } = deps;

  const changed = (row: ScheduleRow) =>
    bus.publish({ type: 'schedule:updated', userId: row.userId, scheduleId: row.id, scriptId: row.scriptId });

  /** Whom a schedule's runs name as having started them: its maker (on a team), else the account's owner. */
  async function makerOf(row: ScheduleRow): Promise<RunActor> {
    const id = row.createdBy ?? row.userId;
    return { id, name: await usersRepo.usernameOf(db, id), keyName: null };
  }

  /** The runs of one due time: one per live server for "all-servers", one otherwise. */
  async function runAll(row: ScheduleRow, firstRunId: string, dueAt: string): Promise<ExecutionResponse[]> {
    const actor = await makerOf(row);
    const run = (target: ExecutionTarget, serverId: string | undefined, runId: string) =>
      executions.runScheduled(row.userId, row.scriptId, target, serverId, runId, actor);
    switch (row.target) {
      // A cloud run: Roblox runs it on the account's place (a nightly job against the real
      // DataStores); the run is answered queued, and its result completes the run later.
      case 'sandbox':
      case 'dry-run':
      case 'cloud':
        return [await run(row.target, undefined, firstRunId)];
      case 'server':
        return [await run('game', row.serverId!, firstRunId)];
      default: {
        const servers = await deps.liveServers(row.userId);
        // None live: one run, recorded as not connected (the game's own run of "most recent server").
        if (servers.length === 0) return [await run('game', undefined, firstRunId)];
        return Promise.all(
          servers.map((serverId, index) =>
            run('game', serverId, index === 0 ? firstRunId : derivedId('schedule-run', row.id, dueAt, serverId)),
          ),
        );
      }
    }
  }

  /** What the schedule shows as its last error after a due time's runs: none when every run went well. */
  function errorOf(results: ExecutionResponse[]): string | null {
    const failed = results.find((result) => !result.success);
    if (!failed) return null;
    return failed.error ?? (failed.gameConnected === false ? ERRORS.gameNotConnected : 'The run failed');
  }

  async function runDue(job: DueJob<ScheduleRunJob>): Promise<void> {
    const row = await schedulesRepo.find(db, job.scheduleId);
    // Deleted (with its script, or its account) or paused where this job was not told: stop it.
    if (!row || !row.enabled) return jobs.stopRepeating(scheduleJobId(job.scheduleId));
    const dueAt = new Date(job.dueMs).toISOString();
    const now = Date.now();
    const runId = derivedId('schedule-run', row.id, dueAt);
    const claim = await schedulesRepo.claim(db, row.id, {
      dueAt,
      now: new Date(now).toISOString(),
      leaseUntil: new Date(now + RUN_LEASE_MS).toISOString(),
      runId,
    });
    if (claim === 'gone') return jobs.stopRepeating(scheduleJobId(row.id));
    if (claim === 'taken') return;
    if (claim === 'busy') {
      if (await schedulesRepo.skip(db, row.id, dueAt)) changed(row);
      return;
    }
    // The one decision of docs/decisions/049, for a job: a team's schedule runs while its maker
    // may run code where it runs; else the due time is skipped, saying why.
    if (row.createdBy) {
      const held = await deps.accessOf(row.createdBy, row.userId);
      if (!held || !holds(held, runPermissionOf(row.target))) {
        await schedulesRepo.finish(db, row.id, runId, {
          lastError: SCHEDULE_ERRORS.makerMayNotRun,
          lastRunId: null,
          skipped: true,
        });
        changed(row);
        return;
      }
    }
    const budget = await deps.budget.hit(`schedule-user:${row.userId}`);
    if (!budget.allowed) {
      await schedulesRepo.finish(db, row.id, runId, {
        lastError: SCHEDULE_ERRORS.budgetUsedUp,
        lastRunId: null,
        skipped: true,
      });
      changed(row);
      return;
    }
    let lastError: string | null;
    try {
      lastError = errorOf(await runAll(row, runId, dueAt));
    } catch (error) {
      // Recorded already (this due time ran before, on a process that died after recording it).
      if (uniqueViolation(error)) return;
      lastError = error instanceof AppError ? error.message : ERRORS.internal;
      // Most failures come before the run is recorded (a syntax error, the sandbox busy): then the
      // schedule points at no run of this due time.
      const recorded = await db.selectFrom('executions').select('id').where('id', '=', runId).executeTakeFirst();
      await schedulesRepo.finish(db, row.id, runId, { lastError, ...(recorded ? {} : { lastRunId: null }) });
      changed(row);
      if (!(error instanceof AppError)) throw error;
      return;
    }
    await schedulesRepo.finish(db, row.id, runId, { lastError });
    changed(row);
  }

  jobs.register<DueJob<ScheduleRunJob>>(SCHEDULE_RUN_JOB, runDue);
  return { runDue };
}
