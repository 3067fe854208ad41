import { SCHEDULE_ERRORS } from '@moonrelay/contract/messages';
import type { ScheduleKind, ScheduleTarget } from '@moonrelay/contract/schedules';
import { AppError } from '../../http/app-error.ts';
import { cronProblem, type Repeat } from '../../platform/repeat-times.ts';

/** A schedule's timing and target as stored, before they are checked. */
export interface ScheduleFields {
  kind: ScheduleKind;
  cron: string | null;
  timeZone: string | null;
  intervalSeconds: number | null;
  target: ScheduleTarget;
  serverId: string | null;
}

const invalid = (message: string) => new AppError(400, message);

/**
 * The repeat a schedule's timing describes, or the 400 that says what is wrong with it. The server
 * is the judge: the web app shows its preview from here, and saves check the same way.
 */
export function repeatOf(
  fields: Pick<ScheduleFields, 'kind' | 'cron' | 'timeZone' | 'intervalSeconds'>,
  minIntervalSeconds: number,
): Repeat {
  if (fields.kind === 'interval') {
    if (fields.intervalSeconds === null) throw invalid(SCHEDULE_ERRORS.intervalRequired);
    if (fields.intervalSeconds < minIntervalSeconds) {
      throw invalid(SCHEDULE_ERRORS.intervalTooShort.replace('{min}', String(minIntervalSeconds)));
    }
    return { everyMs: fields.intervalSeconds * 1000 };
  }
  if (!fields.cron) throw invalid(SCHEDULE_ERRORS.cronRequired);
  const timeZone = fields.timeZone ?? 'UTC';
  const problem = cronProblem(fields.cron, timeZone);
  if (problem === 'time-zone') throw invalid(SCHEDULE_ERRORS.timeZoneUnknown);
  if (problem === 'invalid') throw invalid(SCHEDULE_ERRORS.cronInvalid);
  if (problem === 'never') throw invalid(SCHEDULE_ERRORS.cronNeverRuns);
  return { cron: fields.cron, timeZone };
}

/** Checks a target's server id: required for one server, refused for the others. */
export function checkTarget(fields: Pick<ScheduleFields, 'target' | 'serverId'>): void {
  if (fields.target === 'server' && !fields.serverId) throw invalid(SCHEDULE_ERRORS.serverIdRequired);
  if (fields.target !== 'server' && fields.serverId) throw invalid(SCHEDULE_ERRORS.serverIdNotAllowed);
}
