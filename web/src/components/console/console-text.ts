import { CONSOLE_KEPT_LINES } from './console-feed.ts';

/** The Console's words. */
export const CONSOLE_TEXT = {
  title: 'Console',
  subtitle: "What your game servers' scripts print, warn and throw, as it happens.",
  empty: "No console output yet. Lines your game's scripts print appear here as they happen.",
  noMatch: 'No lines match this search and these levels.',
  noLevels: 'Choose at least one level to see lines.',
  loading: 'Loading the console...',
  failed: 'The console could not be loaded.',
  olderFailed: 'Older lines could not be loaded.',
  retry: 'Try again',
  loadOlder: 'Load older lines',
  trimmed: `This view keeps the latest ${CONSOLE_KEPT_LINES.toLocaleString('en')} lines; search to find older ones.`,
  allServers: 'All servers',
  server: 'Server',
  search: 'Search',
  searchPlaceholder: 'Search lines',
  levels: 'Levels',
  pause: 'Pause',
  resume: 'Resume',
  paused: 'Paused: new lines wait here.',
  jumpToLatest: 'jump to latest',
  copy: 'Copy',
  copyLabel: 'Copy the lines shown as text',
  copied: 'Copied!',
  lines: 'Console lines',
} as const;
