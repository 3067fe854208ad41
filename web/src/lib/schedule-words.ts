import type { Schedule, ScheduleTarget } from '@moonrelay/contract/schedules';

/**
 * A schedule's timing and target in words, as the Schedules panel shows them and the team's
 * activity log repeats them for a schedule someone set or changed.
 */
export const TARGET_LABELS: Record<ScheduleTarget, string> = {
  sandbox: 'Sandbox',
  'dry-run': 'Dry run',
  'all-servers': 'All live game servers',
  server: 'One game server',
  cloud: 'Roblox (cloud run)',
};

/** "Every 5 min", "Every 90 s", "Every 2 h". */
export function intervalText(seconds: number): string {
  if (seconds % 3600 === 0) return `Every ${seconds / 3600} h`;
  if (seconds % 60 === 0) return `Every ${seconds / 60} min`;
  return `Every ${seconds} s`;
}

/** When a schedule runs, in a few words: its cron and zone, or its interval. */
export function timingText(schedule: Pick<Schedule, 'kind' | 'cron' | 'timeZone' | 'intervalSeconds'>): string {
  if (schedule.kind === 'interval') return intervalText(schedule.intervalSeconds ?? 0);
  return `Cron ${schedule.cron} (${schedule.timeZone})`;
}

export function targetText(schedule: Pick<Schedule, 'target' | 'serverId'>): string {
  return schedule.target === 'server' ? `Game server ${schedule.serverId}` : TARGET_LABELS[schedule.target];
}
