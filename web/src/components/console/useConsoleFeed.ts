import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useReducer, useRef } from 'react';
import { dropMatches, feedReducer, initialFeed, matchesFilter, type ConsoleFilter } from './console-feed.ts';
import { filterKeyOf, type ConsoleSource } from './console-source.ts';

/**
 * One filter's lines (console-feed.ts): the newest page, then live lines as they come (or the
 * newest page again every `pollMs` while there is no live push, and once more when the push comes
 * back, for what it missed), older pages on request. Made for a view keyed by its filter: a new
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
    return subscribe(({ lines, drops }) => {
      const shown = lines.filter((line) => matchesFilter(line, filter));
      const dropped = drops.filter((drop) => dropMatches(drop, filter));
      if (shown.length || dropped.length) dispatch({ type: 'live', lines: shown, drops: dropped });
    });
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
