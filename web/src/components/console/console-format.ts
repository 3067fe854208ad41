import type { ConsoleDrop, ConsoleLevel } from '@moonrelay/contract/console';
import { shortId } from '../../lib/format.ts';
import type { ConsoleEntry } from './console-feed.ts';

/**
 * How console lines read: times in the viewer's own time zone (the browser's; no zone is given to
 * Intl), to the millisecond, since a game prints many lines a second.
 */
const clock = new Intl.DateTimeFormat('en', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  fractionalSecondDigits: 3,
  hourCycle: 'h23',
});
const fullTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long' });
const day = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' });

const valid = (iso: string) => !Number.isNaN(Date.parse(iso));

/** "14:03:07.250" in the viewer's zone. */
export const lineClock = (iso: string) => (valid(iso) ? clock.format(new Date(iso)) : '--:--:--.---');

/** "Mar 1, 2026, 2:03:07 PM GMT+1": the date and zone, for the time's tooltip and for copies. */
export const lineDateTime = (iso: string) => (valid(iso) ? fullTime.format(new Date(iso)) : 'Unknown time');

export const LEVEL_LABELS: Record<ConsoleLevel, string> = {
  output: 'Output',
  info: 'Info',
  warning: 'Warning',
  error: 'Error',
};

export const LEVEL_PALETTES: Record<ConsoleLevel, string> = {
  output: 'gray',
  info: 'blue',
  warning: 'orange',
  error: 'red',
};

export const countText = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

/**
 * A drop marker from the live stream. 'game': the lines are lost (the game logged faster than its
 * pings could carry, or past the account's budget). 'live': they are kept, but this view's live
 * stream carried only the newest of a flood.
 */
export function dropText(drop: Pick<ConsoleDrop, 'count' | 'reason'>, server: string): string {
  return drop.reason === 'live'
    ? `${countText(drop.count, 'line', 'lines')} of ${server} not shown live (they are kept: search to find them)`
    : `${countText(drop.count, 'line', 'lines')} dropped by ${server}`;
}

export const gapText = (count: number) =>
  `${countText(count, 'line', 'lines')} came in while paused and are not shown here; search to find them`;

/**
 * The entries as plain text, one line each (a stack follows its line, indented): what Copy puts
 * on the clipboard.
 */
export function entriesAsText(entries: readonly ConsoleEntry[]): string {
  return entries
    .map((entry) => {
      if (entry.kind === 'gap') return `--- ${gapText(entry.count)} ---`;
      if (entry.kind === 'drop') return `--- ${dropText(entry.drop, entry.drop.serverId)} ---`;
      const { line } = entry;
      const when = valid(line.time)
        ? `${day.format(new Date(line.time))} ${lineClock(line.time)}`
        : lineClock(line.time);
      const head = `${when} [${line.level}] ${shortId(line.serverId)}: ${line.text}`;
      const stack = line.stack ? `\n${line.stack.replace(/^/gm, '    ')}` : '';
      return head + stack;
    })
    .join('\n');
}
