import type { TeamPermission } from '@moonrelay/contract/teams';
import crypto from 'node:crypto';
import { ERRORS, SCHEDULE_ERRORS } from '@moonrelay/contract/messages';
import { SCHEDULES_PER_USER_MAX } from '@moonrelay/contract/constants';
import type { RunStatus } from '@moonrelay/contract/runs';
import {
  scheduleRunPermission,
  SCHEDULE_PREVIEW_COUNT,
  type CreateScheduleRequest,
  type Schedule,
  type ScheduleKind,
  type ScheduleTarget,
  type ScheduleTiming,
  type UpdateScheduleRequest,
} from '@moonrelay/contract/schedules';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../platform/job-queue.ts';
import { nextDues } from '../../platform/repeat-times.ts';
import { scriptsRepo } from '../scripts/scripts.repo.ts';
import { checkTarget, repeatOf, type ScheduleFields } from './schedule-timing.ts';
import { schedulesRepo, type ScheduleRow, type ScheduleView } from './schedules.repo.ts';

/** The job a due time of a schedule becomes (schedule-runs.ts runs it). */
export const SCHEDULE_RUN_JOB = 'schedule-run';
export interface ScheduleRunJob {
  scheduleId: string;
}
/** Each schedule's recurring job on the job queue. */
export const scheduleJobId = (scheduleId: string) => `schedule:${scheduleId}`;

const RUN_STATUS: Record<string, RunStatus> = {
  queued: 'pending',
  succeeded: 'succeeded',
  failed: 'failed',
  not_connected: 'not_connected',
};

const fieldsOf = (row: ScheduleRow): ScheduleFields => ({
  kind: row.kind as ScheduleKind,
  cron: row.cron,
  timeZone: row.timeZone,
  intervalSeconds: row.intervalSeconds === null ? null : Number(row.intervalSeconds),
  target: row.target as ScheduleTarget,
  serverId: row.serverId,
});

/**
 * Schedules of a user's saved scripts: checked, stored, and handed to the job queue, which runs
 * each due time once (in-process timers, or BullMQ job schedulers in the scale-out mode). At most
 * SCHEDULES_PER_USER_MAX per user.
 */
/** What running a schedule's target asks of its maker: the sandbox and a dry run, or the live game. */
export const runPermissionOf = (target: string): TeamPermission => scheduleRunPermission(target);

export function createSchedulesService(deps: { db: Db; jobs: JobQueue; minIntervalSeconds: number }) {
  const { db, jobs, minIntervalSeconds } = deps;
  const notFound = () => new AppError(404, SCHEDULE_ERRORS.notFound);
  const repeatFor = (row: ScheduleRow) => repeatOf(fieldsOf(row), 1);

  function toSchedule(row: ScheduleView): Schedule {
    const fields = fieldsOf(row);
    return {
      id: row.id,
      scriptId: row.scriptId,
      ...fields,
      enabled: row.enabled === 1,
      nextRuns: row.enabled
        ? nextDues(repeatFor(row), Date.now(), SCHEDULE_PREVIEW_COUNT).map((ms) => new Date(ms).toISOString())
        : [],
      lastRun:
        row.lastRunId && row.lastRunAt
          ? { id: row.lastRunId, at: row.lastRunAt, status: row.lastRunStatus ? RUN_STATUS[row.lastRunStatus]! : null }
          : null,
      lastError: row.lastError,
      skippedCount: Number(row.skippedCount),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  /**
   * The latest call per schedule: saves racing each other each set the job up from the row as it
   * is once their write is done, and only the last call's read counts, so the timing that runs is
   * the one stored last, never an earlier save's.
   */
  const latestSync = new Map<string, number>();
  let syncCount = 0;

  async function sync(id: string): Promise<void> {
    const call = ++syncCount;
    latestSync.set(id, call);
    const row = await schedulesRepo.find(db, id);
    if (latestSync.get(id) !== call) return;
    latestSync.delete(id);
    if (!row || !row.enabled) return jobs.stopRepeating(scheduleJobId(id));
    await jobs.repeat(scheduleJobId(id), repeatFor(row), SCHEDULE_RUN_JOB, { scheduleId: id });
  }

  async function ownSchedule(userId: string, id: string): Promise<ScheduleView> {
    const row = await schedulesRepo.findForUser(db, userId, id);
    if (!row) throw notFound();
    return row;
  }

  return {
    toSchedule,

    preview(timing: ScheduleTiming): { nextRuns: string[] } {
      const repeat = repeatOf(
        {
          kind: timing.kind,
          cron: timing.cron ?? null,
          timeZone: timing.timeZone ?? null,
          intervalSeconds: timing.intervalSeconds ?? null,
        },
        minIntervalSeconds,
      );
      return { nextRuns: nextDues(repeat, Date.now(), SCHEDULE_PREVIEW_COUNT).map((ms) => new Date(ms).toISOString()) };
    },

    async list(userId: string, scriptId: string): Promise<Schedule[]> {
      if (!(await scriptsRepo.findForUser(db, userId, scriptId))) throw new AppError(404, ERRORS.scriptNotFound);
      return (await schedulesRepo.listForScript(db, userId, scriptId)).map(toSchedule);
    },

    /** One schedule of the account's; 404 when it is not theirs. */
    async get(userId: string, id: string): Promise<Schedule> {
      return toSchedule(await ownSchedule(userId, id));
    },

    /** `createdBy`: the team's member who sets it (null, or the account itself: its own). */
    async create(
      userId: string,
      scriptId: string,
      input: CreateScheduleRequest,
      createdBy: string | null = null,
    ): Promise<Schedule> {
      if (!(await scriptsRepo.findForUser(db, userId, scriptId))) throw new AppError(404, ERRORS.scriptNotFound);
      const fields: ScheduleFields = {
        kind: input.kind,
        cron: input.kind === 'cron' ? (input.cron ?? null) : null,
        timeZone: input.kind === 'cron' ? (input.timeZone ?? 'UTC') : null,
        intervalSeconds: input.kind === 'interval' ? (input.intervalSeconds ?? null) : null,
        target: input.target,
        serverId: input.serverId ?? null,
      };
      repeatOf(fields, minIntervalSeconds);
      checkTarget(fields);
      const tooMany = () => new AppError(409, SCHEDULE_ERRORS.tooMany);
      if ((await schedulesRepo.countForUser(db, userId)) >= SCHEDULES_PER_USER_MAX) throw tooMany();
      const now = nowIso();
      const row: ScheduleRow = {
        id: crypto.randomUUID(),
        userId,
        scriptId,
        ...fields,
        enabled: input.enabled === false ? 0 : 1,
        lastDueAt: null,
        runningUntil: null,
        lastRunId: null,
        lastRunAt: null,
        lastError: null,
        skippedCount: 0,
        createdAt: now,
        updatedAt: now,
        createdBy: createdBy === userId ? null : createdBy,
      };
      await schedulesRepo.insert(db, row);
      // Two creates racing past the count above: the one that made it one too many takes it back.
      if ((await schedulesRepo.countForUser(db, userId)) > SCHEDULES_PER_USER_MAX) {
        await schedulesRepo.remove(db, userId, row.id);
        throw tooMany();
      }
      await sync(row.id);
      return toSchedule({ ...row, lastRunStatus: null });
    },

    /** The member who changes it becomes the one it runs as (`changedBy`; the account itself: its own). */
    async update(
      userId: string,
      id: string,
      input: UpdateScheduleRequest,
      changedBy: string | null = null,
    ): Promise<Schedule> {
      const current = await ownSchedule(userId, id);
      const before = fieldsOf(current);
      const kind = input.kind ?? before.kind;
      const fields: ScheduleFields = {
        kind,
        cron: kind === 'cron' ? (input.cron ?? before.cron) : null,
        timeZone: kind === 'cron' ? (input.timeZone ?? before.timeZone ?? 'UTC') : null,
        intervalSeconds: kind === 'interval' ? (input.intervalSeconds ?? before.intervalSeconds) : null,
        target: input.target ?? before.target,
        // A new target other than one server drops the old server id rather than refusing the change.
        serverId:
          input.serverId !== undefined
            ? input.serverId
            : (input.target ?? before.target) === 'server'
              ? before.serverId
              : null,
      };
      repeatOf(fields, minIntervalSeconds);
      checkTarget(fields);
      const enabled = input.enabled === undefined ? current.enabled : input.enabled ? 1 : 0;
      const createdBy = changedBy === userId ? null : changedBy;
      if (!(await schedulesRepo.update(db, userId, id, { ...fields, enabled, updatedAt: nowIso(), createdBy }))) {
        throw notFound();
      }
      await sync(id);
      return toSchedule(await ownSchedule(userId, id));
    },

    /** Answers the schedule as it was, for the activity log. */
    async remove(userId: string, id: string): Promise<Schedule> {
      const removed = toSchedule(await ownSchedule(userId, id));
      if (!(await schedulesRepo.remove(db, userId, id))) throw notFound();
      await sync(id);
      return removed;
    },

    /**
     * Sets every running schedule up with the job queue (at start-up, and when Redis comes back
     * empty). The in-process queue runs one due time missed while the server was down, at once.
     */
    async start(): Promise<number> {
      const rows = await schedulesRepo.listEnabled(db);
      for (const row of rows) {
        const since = [row.lastDueAt, row.updatedAt]
          .filter((t): t is string => t !== null)
          .sort()
          .at(-1)!;
        await jobs.repeat(
          scheduleJobId(row.id),
          repeatFor(row),
          SCHEDULE_RUN_JOB,
          { scheduleId: row.id },
          { since: Date.parse(since) },
        );
      }
      return rows.length;
    },

    /** A schedule whose row is gone or paused: its job stops (a job scheduler left behind). */
    stop: (id: string) => jobs.stopRepeating(scheduleJobId(id)),
  };
}

export type SchedulesService = ReturnType<typeof createSchedulesService>;
