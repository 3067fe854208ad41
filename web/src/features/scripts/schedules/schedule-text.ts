import type { Schedule, ScheduleTarget } from '@moonrelay/contract/schedules';

export const TARGET_LABELS: Record<ScheduleTarget, string> = {
  sandbox: 'Sandbox',
  'dry-run': 'Dry run',
  'all-servers': 'All live game servers',
  server: 'One game server',
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

/** The browser's own time zone, the form's default. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Time zones to pick from (typing any IANA name works too; the server checks it). */
export function timeZoneChoices(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  return supported ? ['UTC', ...supported('timeZone')] : ['UTC'];
}

/** A run time as the reader's clock shows it, with the weekday (schedules are about when). */
export function runTimeText(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** The Schedules section's actions, as the notes under its heading name those a role does not allow. */
export const SCHEDULE_ACTIONS = {
  see: 'See the schedules',
  manage: 'Add, change, pause and delete schedules',
} as const;
