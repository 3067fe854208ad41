import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useReducer, useRef } from 'react';
import {
  CONSOLE_KEPT_LINES,
  dropMatches,
  feedReducer,
  initialFeed,
  matchesFilter,
  type ConsoleFilter,
  type LiveEvent,
} from './console-feed.ts';
import { filterKeyOf, type ConsoleSource } from './console-source.ts';
import { createFrameBatch } from './frame-batch.ts';

/**
 * One filter's lines (console-feed.ts): the newest page, then live lines as they come (or the
 * newest page again every `pollMs` while there is no live push, and once more when the push comes
 * back, for what it missed), older pages on request. Live lines reach the feed once a frame, however
 * many socket events brought them (frame-batch.ts). Made for a view keyed by its filter: a new
 * filter is a new feed.
 */
export function useConsoleFeed(source: ConsoleSource, filter: ConsoleFilter, paused: boolean) {
  const [state, dispatch] = useReducer(feedReducer, paused, initialFeed);
  const enabled = filter.levels.length > 0;

  const newest = useQuery({
    queryKey: [...source.queryKey, filterKeyOf(filter)],
    queryFn: () => source.fetchPage(filter, null),
    enabled,
    // Live lines are not written back into the cache: a view opened later fetches afresh.
    staleTime: 0,
    gcTime: 0,
    refetchInterval: source.live ? false : source.pollMs,
  });
  const { data, refetch } = newest;
  useEffect(() => {
    if (data) dispatch({ type: 'newest', lines: data.lines, nextCursor: data.nextCursor });
  }, [data]);

  const { subscribe, live } = source;
  useEffect(() => {
    if (!subscribe || !enabled) return;
    // More than the view keeps need not wait for a frame: the feed lets the excess go (or counts it
    // while paused) either way.
    const batch = createFrameBatch<LiveEvent>(
      (events) => dispatch({ type: 'live', events }),
      CONSOLE_KEPT_LINES,
      (event) => event.lines.length + event.drops.length,
    );
    const unsubscribe = subscribe(({ lines, drops }) => {
      const shown = lines.filter((line) => matchesFilter(line, filter));
      const dropped = drops.filter((drop) => dropMatches(drop, filter));
      if (shown.length || dropped.length) batch.push({ lines: shown, drops: dropped });
    });
    return () => {
      unsubscribe();
      // What came already still reaches the feed (a new subscription may follow, not a new view).
      batch.flush();
    };
  }, [subscribe, filter, enabled]);

  const wasLive = useRef(live);
  useEffect(() => {
    if (live && !wasLive.current && enabled) void refetch();
    wasLive.current = live;
  }, [live, enabled, refetch]);

  useEffect(() => dispatch({ type: paused ? 'pause' : 'resume' }), [paused]);

  const older = useMutation({
    mutationFn: (cursor: string) => source.fetchPage(filter, cursor),
    onSuccess: (page) => dispatch({ type: 'older', lines: page.lines, nextCursor: page.nextCursor }),
  });
  const loadOlder = () => {
    if (state.olderCursor !== null && !older.isPending) older.mutate(state.olderCursor);
  };

  return { state, enabled, newest, older, loadOlder };
}
