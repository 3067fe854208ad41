// The timing and target in words live in lib: the team's activity log says them too.
export { intervalText, TARGET_LABELS, targetText, timingText } from '../../../lib/schedule-words.ts';

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
