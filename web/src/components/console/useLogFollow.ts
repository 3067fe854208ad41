import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { ConsoleEntry } from './console-feed.ts';
import { CONSOLE_END_SLACK_PX, type ConsoleVirtualizer } from './useConsoleVirtualizer.ts';

/** Lines among `entries` that came at the live end from `seq` on. */
export function linesSince(entries: readonly ConsoleEntry[], seq: number): number {
  let count = 0;
  for (let index = entries.length - 1; index >= 0 && entries[index]!.seq >= seq; index -= 1) {
    if (entries[index]!.kind === 'line') count += 1;
  }
  return count;
}

interface Options {
  log: RefObject<HTMLDivElement | null>;
  virtualizer: ConsoleVirtualizer;
  entries: readonly ConsoleEntry[];
  /** The seq the next live entry gets. */
  nextSeq: number;
  paused: boolean;
  /** Asked for when the reader scrolls up near the oldest line. */
  loadOlder(): void;
}

/**
 * Whether the log follows its live end. At the bottom it does, and new lines scroll into view. A
 * reader who scrolls up stops it: the rows they read stay where they are (the virtual list anchors
 * them) and the lines that come meanwhile are counted for a "jump to latest" button. Only a move
 * up leaves the live end: rows growing under a log that follows (a line measured taller than its
 * estimate) are no reason to stop following.
 */
export function useLogFollow({ log, virtualizer, entries, nextSeq, paused, loadOlder }: Options) {
  const following = useRef(true);
  const lastTop = useRef(0);
  // Null while following; else the seq of the first entry that came after the reader left.
  const [readingFrom, setReadingFrom] = useState<number | null>(null);

  const atEnd = useCallback(() => {
    following.current = true;
    setReadingFrom(null);
  }, []);
  const follow = useCallback(() => {
    atEnd();
    virtualizer.scrollToEnd();
  }, [atEnd, virtualizer]);

  // Resuming goes back to the live end (the waiting lines come in with the next render).
  useEffect(() => {
    if (!paused) follow();
  }, [paused, follow]);

  useLayoutEffect(() => {
    if (following.current && entries.length > 0) virtualizer.scrollToEnd();
  }, [entries, virtualizer]);

  // A log that changes size (a phone turned, the window resized) stays at the live end it followed.
  useEffect(() => {
    const element = log.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (following.current) virtualizer.scrollToEnd();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [log, virtualizer]);

  const onScroll = () => {
    const element = log.current;
    if (!element) return;
    const top = element.scrollTop;
    const up = top < lastTop.current;
    lastTop.current = top;
    if (element.scrollHeight - top - element.clientHeight <= CONSOLE_END_SLACK_PX) {
      if (!following.current) atEnd();
    } else if (up && following.current) {
      following.current = false;
      setReadingFrom(nextSeq);
    }
    // Within a screen of the oldest line, the next older page is asked for before the reader gets there.
    if (up && top < element.clientHeight) loadOlder();
  };

  const newLines = readingFrom === null || paused ? 0 : linesSince(entries, readingFrom);
  return { onScroll, newLines, jumpToLatest: follow };
}
