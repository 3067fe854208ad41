import type { RunInitiator, RunSummary } from '@moonrelay/contract/runs';
import { CUSTOM_CODE_NAME } from '@moonrelay/contract/constants';

/** The Runs page's words. */
export const RUNS_TEXT = {
  title: 'Runs',
  subtitle: 'Every run of your scripts and code: where it ran, how it ended and what it printed.',
  loading: 'Loading runs...',
  empty: 'No runs yet. Run a script from the editor, My Scripts or the dashboard and it shows up here.',
  emptyFiltered: 'No runs match these filters.',
  loadFailed: 'Failed to load runs',
  loadMore: 'Load more',
  /** The runs' scroll area, a tab stop while it scrolls. */
  listLabel: 'Run history',
  openInEditor: 'Open in editor',
  runAgain: 'Run again',
  codeExcerptOnly: 'Only the first 500 characters of this run’s code were kept (it ran before full code was kept).',
  runNotFound: 'This run is not in your history. It may have been removed by the history’s retention.',
  clearFilters: 'Clear filters',
} as const;

export const runName = (run: Pick<RunSummary, 'scriptName'>) => run.scriptName ?? CUSTOM_CODE_NAME;

export const STARTED_BY: Record<RunInitiator, string> = {
  user: 'You',
  admin: 'An admin',
  schedule: 'A schedule',
  'auto-execute': 'Auto-execute in your game',
};

/**
 * Who started a run, in words: "You", a team member's name (with the API key they used), "A
 * schedule set by ada". Runs recorded before people were kept, an admin's and the game's own say
 * only what started them.
 */
export function startedByText(run: RunSummary, myId: string | undefined): string {
  const mine = run.actorId !== null && run.actorId === myId;
  const person = mine ? 'You' : run.actorName;
  if (run.startedBy === 'schedule') return person ? `A schedule set by ${mine ? 'you' : person}` : STARTED_BY.schedule;
  if (run.startedBy === 'admin' || !person) return STARTED_BY[run.startedBy];
  return run.keyName ? `${person}, with the API key “${run.keyName}”` : person;
}

/** The formats of a run's time, made once (formatters are costly to make; a list shows many). */
const RUN_TIME = {
  today: new Intl.DateTimeFormat('en', { timeStyle: 'medium' }),
  thisYear: new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
  earlier: new Intl.DateTimeFormat('en', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }),
};

/** When a run happened, briefly: the time of day for today's runs ("4:32:20 PM"), else "Nov 25, 4:32 PM". */
export function formatRunTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'Unknown';
  if (date.toDateString() === now.toDateString()) return RUN_TIME.today.format(date);
  return (date.getFullYear() === now.getFullYear() ? RUN_TIME.thisYear : RUN_TIME.earlier).format(date);
}
