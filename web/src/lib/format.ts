import { API_KEY_MASK_HEAD, API_KEY_MASK_TAIL, IDENTIFIER_DISPLAY_LENGTH } from '@moonrelay/contract/constants';

/** Masked API key (spec section 9): first 8, an ellipsis, last 4; shown whole when 12 or fewer. */
export function maskApiKey(key: string): string {
  if (key.length <= API_KEY_MASK_HEAD + API_KEY_MASK_TAIL) return key;
  return `${key.slice(0, API_KEY_MASK_HEAD)}…${key.slice(-API_KEY_MASK_TAIL)}`;
}

/**
 * A long identifier (a game server's JobId) shortened to its first 8 characters and an ellipsis, so
 * a cut one never reads as a different, complete id; a short one is shown whole.
 */
export function shortId(id: string): string {
  return id.length <= IDENTIFIER_DISPLAY_LENGTH + 1 ? id : `${id.slice(0, IDENTIFIER_DISPLAY_LENGTH)}…`;
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 minutes ago", "yesterday", "just now". */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

/**
 * The formats dates are shown in, made once: `toLocaleString` with options builds a new formatter
 * on every call, which cost a long list a third of a millisecond a row (measured while Runs
 * scrolled through 1,000 runs). The same formatter gives the same text.
 */
const DATE = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
const TIME = new Intl.DateTimeFormat('en', { timeStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

/** The date, or 'Unknown' for a missing or unreadable one. */
function formatWith(format: Intl.DateTimeFormat, iso: string | null | undefined): string {
  if (!iso) return 'Unknown';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Unknown' : format.format(date);
}

export function formatDate(iso: string | null | undefined): string {
  return formatWith(DATE, iso);
}

/** A time of day with seconds, "3:04:05 PM": how recent a game's last ping was. */
export function formatTime(iso: string | null | undefined): string {
  return formatWith(TIME, iso);
}

/** A date with its time of day, "Mar 1, 2026, 12:00:05 PM": when an audit entry or an execution happened. */
export function formatDateTime(iso: string | null | undefined): string {
  return formatWith(DATE_TIME, iso);
}
