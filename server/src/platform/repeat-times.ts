import { Cron } from 'croner';

/**
 * When a recurring job is due: a five-field cron expression read in an IANA time zone, or every so
 * many milliseconds (counted from the Unix epoch, so every process and the preview agree on the
 * same times). Both modes of the job queue compute due times here, with croner, so what a schedule
 * shows before it is saved is what runs: daylight saving included (a time the clocks skip runs at
 * the first minute after the gap; a time they repeat runs once).
 */
export type Repeat = { cron: string; timeZone: string } | { everyMs: number };

/** Why a cron expression cannot be used, if it cannot. */
export type CronProblem = 'invalid' | 'never' | 'time-zone';

export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const cronFor = (cron: string, timeZone: string) =>
  new Cron(cron, { timezone: timeZone, paused: true, mode: '5-part' });

export function cronProblem(cron: string, timeZone: string): CronProblem | null {
  if (!isKnownTimeZone(timeZone)) return 'time-zone';
  let job: Cron;
  try {
    job = cronFor(cron, timeZone);
  } catch {
    return 'invalid';
  }
  return job.nextRun() ? null : 'never';
}

/** The first due time strictly after `afterMs`, or null when there is none. */
export function nextDue(repeat: Repeat, afterMs: number): number | null {
  if ('everyMs' in repeat) return (Math.floor(afterMs / repeat.everyMs) + 1) * repeat.everyMs;
  const next = cronFor(repeat.cron, repeat.timeZone).nextRun(new Date(afterMs));
  return next ? next.getTime() : null;
}

/** The next `count` due times strictly after `afterMs`. */
export function nextDues(repeat: Repeat, afterMs: number, count: number): number[] {
  const times: number[] = [];
  let after = afterMs;
  while (times.length < count) {
    const next = nextDue(repeat, after);
    if (next === null) break;
    times.push(next);
    after = next;
  }
  return times;
}

/**
 * A repeat as one string, for BullMQ's job schedulers: Moonrelay hands BullMQ this string as the
 * scheduler's pattern together with its own repeat strategy (`nextDue` of the decoded string), so
 * BullMQ's own cron parser never reads it and both modes share one set of due times.
 */
export function encodeRepeat(repeat: Repeat): string {
  return JSON.stringify(repeat);
}

export function decodeRepeat(pattern: string): Repeat {
  return JSON.parse(pattern) as Repeat;
}
