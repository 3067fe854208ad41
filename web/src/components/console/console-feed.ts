import { CONSOLE_LEVELS } from '@moonrelay/contract/constants';
import type { ConsoleDrop, ConsoleLevel, ConsoleLine } from '@moonrelay/contract/console';

/**
 * What one console view holds: the lines of one filter, oldest first, as the newest page, older
 * pages and live lines bring them. A busy game prints faster than anyone reads, so the view keeps
 * at most CONSOLE_KEPT_LINES entries: the oldest go first, and once some have gone the view can no
 * longer page back from where it stands (the server keeps them; a search reaches them). While the
 * view is paused, new lines wait aside (as many again at most) and are counted, and on resume they
 * follow what was shown; any that did not fit are named by a gap marker, never lost silently.
 */
export const CONSOLE_KEPT_LINES = 2_000;

/** Which lines a view shows. `serverId` null is every game server merged; `q` '' is no search. */
export interface ConsoleFilter {
  serverId: string | null;
  /** In CONSOLE_LEVELS order; all four is no level filter. */
  levels: readonly ConsoleLevel[];
  q: string;
}

export const ALL_LEVELS: readonly ConsoleLevel[] = CONSOLE_LEVELS;

export const DEFAULT_FILTER: ConsoleFilter = { serverId: null, levels: ALL_LEVELS, q: '' };

export type ConsoleEntry =
  | { kind: 'line'; key: string; seq: number; line: ConsoleLine }
  /** A game server dropped lines before the ones that follow. */
  | { kind: 'drop'; key: string; seq: number; drop: ConsoleDrop }
  /** Lines that arrived while paused but did not fit in the view. */
  | { kind: 'gap'; key: string; seq: number; count: number };

export interface FeedState {
  /** The newest page has arrived (until then, live lines are held to follow it). */
  loaded: boolean;
  /** What the view shows, oldest first. */
  entries: ConsoleEntry[];
  /** Entries that arrived while paused, oldest first. */
  waiting: ConsoleEntry[];
  /** Lines that arrived while paused (those in `waiting` and those that did not fit). */
  waitingLines: number;
  /** Lines that arrived while paused and did not fit in `waiting`. */
  skippedLines: number;
  /** Keys of `entries` and `waiting`, so a line met twice (page and socket) shows once. */
  keys: ReadonlySet<string>;
  /** Where the next older page starts; null when there is none or the view cannot page back. */
  olderCursor: string | null;
  /** Lines were let go from the old end: the view no longer reaches back continuously. */
  trimmed: boolean;
  paused: boolean;
  /** The order entries were added in: the render window anchors on it. */
  nextSeq: number;
  /** Seq of prepended entries counts down from here. */
  prevSeq: number;
}

export const initialFeed = (paused = false): FeedState => ({
  loaded: false,
  entries: [],
  waiting: [],
  waitingLines: 0,
  skippedLines: 0,
  keys: new Set(),
  olderCursor: null,
  trimmed: false,
  paused,
  nextSeq: 0,
  prevSeq: -1,
});

const lineKey = (line: ConsoleLine) => `line:${line.id}`;

/** One live socket event's new lines and drops. */
export interface LiveEvent {
  lines: readonly ConsoleLine[];
  drops: readonly ConsoleDrop[];
}

export type FeedAction =
  /** The newest page (newest first), on load and on each poll or reconnect. */
  | { type: 'newest'; lines: readonly ConsoleLine[]; nextCursor: string | null }
  /** An older page (newest first) fetched with `olderCursor`. */
  | { type: 'older'; lines: readonly ConsoleLine[]; nextCursor: string | null }
  /** Live socket events, already filtered, oldest first: all that came in one frame. */
  | { type: 'live'; events: readonly LiveEvent[] }
  | { type: 'pause' }
  | { type: 'resume' };

/** Case-insensitive, in the line's text and its stack, as the API searches. */
export function matchesSearch(line: ConsoleLine, q: string): boolean {
  if (!q) return true;
  const needle = q.toLowerCase();
  return line.text.toLowerCase().includes(needle) || (line.stack ?? '').toLowerCase().includes(needle);
}

export function matchesFilter(line: ConsoleLine, filter: ConsoleFilter): boolean {
  return (
    (filter.serverId === null || line.serverId === filter.serverId) &&
    filter.levels.includes(line.level) &&
    matchesSearch(line, filter.q)
  );
}

/** Drops belong to a server, whatever their lines' levels or text were. */
export const dropMatches = (drop: ConsoleDrop, filter: ConsoleFilter) =>
  filter.serverId === null || drop.serverId === filter.serverId;

const countLines = (entries: readonly ConsoleEntry[]) => entries.filter((entry) => entry.kind === 'line').length;

/** Lets the oldest entries go beyond the limit; the view then cannot page back continuously. */
function trim(state: FeedState): FeedState {
  const excess = state.entries.length - CONSOLE_KEPT_LINES;
  if (excess <= 0) return state;
  const keys = new Set(state.keys);
  for (const entry of state.entries.slice(0, excess)) keys.delete(entry.key);
  return { ...state, entries: state.entries.slice(excess), keys, olderCursor: null, trimmed: true };
}

/** Entries from lines and drops, numbered from `nextSeq`, leaving out any already held. */
function numbered(state: FeedState, fresh: readonly (ConsoleEntry | Omit<ConsoleEntry, 'seq'>)[]) {
  const keys = new Set(state.keys);
  const entries: ConsoleEntry[] = [];
  let seq = state.nextSeq;
  for (const entry of fresh) {
    if (keys.has(entry.key)) continue;
    keys.add(entry.key);
    entries.push({ ...entry, seq: seq++ } as ConsoleEntry);
  }
  return { entries, keys, nextSeq: seq };
}

/** New entries at the live end: shown at once, or set aside while paused. */
function append(state: FeedState, fresh: readonly Omit<ConsoleEntry, 'seq'>[]): FeedState {
  const { entries, keys, nextSeq } = numbered(state, fresh);
  if (entries.length === 0) return state;
  if (!state.paused || !state.loaded) {
    return trim({ ...state, entries: [...state.entries, ...entries], keys, nextSeq });
  }
  const waiting = [...state.waiting, ...entries];
  const excess = waiting.length - CONSOLE_KEPT_LINES;
  const overflow = excess > 0 ? waiting.slice(0, excess) : [];
  for (const entry of overflow) keys.delete(entry.key);
  return {
    ...state,
    waiting: excess > 0 ? waiting.slice(excess) : waiting,
    waitingLines: state.waitingLines + countLines(entries),
    skippedLines: state.skippedLines + countLines(overflow),
    keys,
    nextSeq,
  };
}

const lineEntries = (lines: readonly ConsoleLine[]) =>
  lines.map((line) => ({ kind: 'line' as const, key: lineKey(line), line }));

function onNewest(state: FeedState, newestFirst: readonly ConsoleLine[], nextCursor: string | null): FeedState {
  const page = lineEntries([...newestFirst].reverse());
  if (!state.loaded) {
    // Live lines that came in while the page loaded follow it (the page may hold some of them too).
    const pageKeys = new Set(page.map((entry) => entry.key));
    const { entries, keys, nextSeq } = numbered({ ...state, keys: new Set() }, page);
    const early = state.entries.filter((entry) => !pageKeys.has(entry.key));
    for (const entry of early) keys.add(entry.key);
    return trim({ ...state, loaded: true, entries: [...entries, ...early], keys, nextSeq, olderCursor: nextCursor });
  }
  // A later newest page (a poll, a reconnect): what follows the last line already held is new. Lines
  // before it are old ones, some perhaps let go by the limit, which must not come back at the end.
  let last = -1;
  page.forEach((entry, index) => {
    if (state.keys.has(entry.key)) last = index;
  });
  return append(state, page.slice(last + 1));
}

function onOlder(state: FeedState, newestFirst: readonly ConsoleLine[], nextCursor: string | null): FeedState {
  const room = CONSOLE_KEPT_LINES - state.entries.length;
  const older = lineEntries([...newestFirst].reverse()).filter((entry) => !state.keys.has(entry.key));
  const fitting = room >= older.length ? older : older.slice(older.length - Math.max(0, room));
  const keys = new Set(state.keys);
  let seq = state.prevSeq;
  const entries: ConsoleEntry[] = [];
  for (const entry of [...fitting].reverse()) {
    keys.add(entry.key);
    entries.unshift({ ...entry, seq: seq-- });
  }
  const full = fitting.length < older.length;
  return {
    ...state,
    entries: [...entries, ...state.entries],
    keys,
    prevSeq: seq,
    olderCursor: full ? null : nextCursor,
    trimmed: state.trimmed || full,
  };
}

function onResume(state: FeedState): FeedState {
  if (!state.paused) return state;
  const resumed = {
    ...state,
    paused: false,
    waiting: [],
    waitingLines: 0,
    skippedLines: 0,
    nextSeq: state.nextSeq + 1,
  };
  if (!state.skippedLines) return trim({ ...resumed, entries: [...state.entries, ...state.waiting] });
  // The skipped entries had the numbers between the shown ones and the waiting ones.
  const gap: ConsoleEntry = {
    kind: 'gap',
    key: `gap:${state.nextSeq}`,
    seq: (state.waiting[0]?.seq ?? state.nextSeq) - 1,
    count: state.skippedLines,
  };
  const entries = [...state.entries, gap, ...state.waiting];
  if (entries.length <= CONSOLE_KEPT_LINES) return { ...resumed, entries, keys: new Set(entries.map((e) => e.key)) };
  // Too many to keep: the gap stays first and counts the waiting lines that do not fit either.
  const cut = state.waiting.length - (CONSOLE_KEPT_LINES - 1);
  const kept = [{ ...gap, count: gap.count + countLines(state.waiting.slice(0, cut)) }, ...state.waiting.slice(cut)];
  return { ...resumed, entries: kept, keys: new Set(kept.map((e) => e.key)), olderCursor: null, trimmed: true };
}

export function feedReducer(state: FeedState, action: FeedAction): FeedState {
  switch (action.type) {
    case 'newest':
      return onNewest(state, action.lines, action.nextCursor);
    case 'older':
      return onOlder(state, action.lines, action.nextCursor);
    case 'live': {
      // A drop comes before the lines of its event: they are what followed the lost ones.
      let drop = 0;
      const fresh = action.events.flatMap((event) => [
        ...event.drops.map((each) => ({ kind: 'drop' as const, key: `drop:${state.nextSeq}:${drop++}`, drop: each })),
        ...lineEntries(event.lines),
      ]);
      return append(state, fresh);
    }
    case 'pause':
      return state.paused ? state : { ...state, paused: true };
    case 'resume':
      return onResume(state);
  }
}
