import { describe, expect, it } from 'vitest';
import type { ConsoleDrop, ConsoleLine } from '@moonrelay/contract/console';
import {
  CONSOLE_KEPT_LINES,
  DEFAULT_FILTER,
  feedReducer,
  initialFeed,
  matchesFilter,
  type FeedAction,
  type FeedState,
} from './console-feed.ts';
import { consoleLine, consoleLines, SERVER_A, SERVER_B } from './test-console.ts';

const run = (actions: FeedAction[], state: FeedState = initialFeed()) => actions.reduce(feedReducer, state);
const newest = (oldestFirst: ConsoleLine[], nextCursor: string | null = null): FeedAction => ({
  type: 'newest',
  lines: [...oldestFirst].reverse(),
  nextCursor,
});
const live = (lines: ConsoleLine[], drops: ConsoleDrop[] = []): FeedAction => ({
  type: 'live',
  events: [{ lines, drops }],
});
const shown = (state: FeedState) =>
  state.entries.map((entry) =>
    entry.kind === 'line' ? entry.line.id : entry.kind === 'drop' ? `drop ${entry.drop.count}` : `gap ${entry.count}`,
  );

describe('the console feed', () => {
  it('shows the newest page oldest first, followed by live lines that came while it loaded', () => {
    const state = run([live(consoleLines(3, 4)), newest(consoleLines(1, 3), 'c1')]);
    expect(shown(state)).toEqual(['1', '2', '3', '4']);
    expect(state.loaded).toBe(true);
    expect(state.olderCursor).toBe('c1');
  });

  it('adds from a later newest page only what follows the last line it holds', () => {
    let state = run([newest(consoleLines(1, 3)), live(consoleLines(4, 4))]);
    state = run([newest(consoleLines(2, 6))], state);
    expect(shown(state)).toEqual(['1', '2', '3', '4', '5', '6']);
    // Lines let go at the old end do not come back at the new end.
    state = run([live(consoleLines(7, CONSOLE_KEPT_LINES + 10))], state);
    expect(state.entries[0]?.kind === 'line' && state.entries[0].line.id).toBe('11');
    state = run([newest(consoleLines(5, 12))], state);
    expect(state.entries).toHaveLength(CONSOLE_KEPT_LINES);
    expect(shown(state).at(-1)).toBe(String(CONSOLE_KEPT_LINES + 10));
  });

  it(`keeps the latest ${CONSOLE_KEPT_LINES} lines of a flood; it can then no longer page back`, () => {
    const state = run([newest(consoleLines(1, 10), 'older'), live(consoleLines(11, 2_500))]);
    expect(state.entries).toHaveLength(CONSOLE_KEPT_LINES);
    expect(shown(state)[0]).toBe('501');
    expect(shown(state).at(-1)).toBe('2500');
    expect(state.keys.size).toBe(CONSOLE_KEPT_LINES);
    expect(state.olderCursor).toBeNull();
    expect(state.trimmed).toBe(true);
  });

  it('shows a drop before the lines that followed it', () => {
    const state = run([
      newest(consoleLines(1, 1)),
      live(consoleLines(2, 2), [{ serverId: SERVER_B, count: 120, time: '2026-03-01T12:00:01.000Z' }]),
    ]);
    expect(shown(state)).toEqual(['1', 'drop 120', '2']);
  });

  it("keeps each event's drop before its own lines when a frame brings several events", () => {
    const drop = (count: number) => ({ serverId: SERVER_B, count, time: '2026-03-01T12:00:01.000Z' });
    const state = run([
      newest(consoleLines(1, 1)),
      {
        type: 'live',
        events: [
          { lines: consoleLines(2, 3), drops: [drop(5)] },
          { lines: consoleLines(4, 4), drops: [drop(7), drop(9)] },
        ],
      },
    ]);
    expect(shown(state)).toEqual(['1', 'drop 5', '2', '3', 'drop 7', 'drop 9', '4']);
    expect(new Set(state.entries.map((entry) => entry.key)).size).toBe(state.entries.length);
  });

  it('sets new lines aside while paused, counts them, and shows them on resume', () => {
    let state = run([newest(consoleLines(1, 2)), { type: 'pause' }, live(consoleLines(3, 5))]);
    expect(shown(state)).toEqual(['1', '2']);
    expect(state.waitingLines).toBe(3);
    state = run([{ type: 'resume' }], state);
    expect(shown(state)).toEqual(['1', '2', '3', '4', '5']);
    expect(state.waitingLines).toBe(0);
  });

  it('names the lines that did not fit while paused with a gap, instead of losing them silently', () => {
    let state = run([newest(consoleLines(1, 1)), { type: 'pause' }, live(consoleLines(2, CONSOLE_KEPT_LINES + 101))]);
    expect(state.waitingLines).toBe(CONSOLE_KEPT_LINES + 100);
    state = run([{ type: 'resume' }], state);
    expect(state.entries).toHaveLength(CONSOLE_KEPT_LINES);
    // 100 did not fit while paused; one more makes room for the gap itself.
    expect(shown(state)[0]).toBe('gap 101');
    expect(shown(state)[1]).toBe('103');
    expect(shown(state).at(-1)).toBe(String(CONSOLE_KEPT_LINES + 101));
    expect(new Set(state.entries.map((entry) => entry.seq)).size).toBe(CONSOLE_KEPT_LINES);
  });

  it('puts an older page before what it holds, up to the limit', () => {
    let state = run([newest(consoleLines(201, 300), 'c1')]);
    state = run([{ type: 'older', lines: consoleLines(101, 200).reverse(), nextCursor: 'c2' }], state);
    expect(shown(state).slice(0, 2)).toEqual(['101', '102']);
    expect(state.olderCursor).toBe('c2');
    const seqs = state.entries.map((entry) => entry.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    state = run([live(consoleLines(301, CONSOLE_KEPT_LINES + 50))], initialFeed());
    state = run([newest([], 'c3')], state);
    state = run([{ type: 'older', lines: consoleLines(1, 300).reverse(), nextCursor: 'c4' }], state);
    expect(state.entries).toHaveLength(CONSOLE_KEPT_LINES);
    expect(shown(state)[0]).toBe('51');
    expect(state.olderCursor).toBeNull();
  });
});

describe('matchesFilter', () => {
  it('matches the server, the levels and the search, case-insensitively in the text and the stack', () => {
    const error = consoleLine(1, { level: 'error', text: 'Boss fight failed', stack: 'Arena:12 function spawnBoss' });
    expect(matchesFilter(error, DEFAULT_FILTER)).toBe(true);
    expect(matchesFilter(error, { ...DEFAULT_FILTER, q: 'BOSS' })).toBe(true);
    expect(matchesFilter(error, { ...DEFAULT_FILTER, q: 'spawnboss' })).toBe(true);
    expect(matchesFilter(error, { ...DEFAULT_FILTER, q: 'lobby' })).toBe(false);
    expect(matchesFilter(error, { ...DEFAULT_FILTER, levels: ['output', 'warning'] })).toBe(false);
    expect(matchesFilter(error, { ...DEFAULT_FILTER, serverId: SERVER_A })).toBe(true);
    expect(matchesFilter(error, { ...DEFAULT_FILTER, serverId: SERVER_B })).toBe(false);
  });
});
