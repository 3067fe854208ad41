import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';

/** Rows drawn above and below the visible ones, so Tab and the arrows always have a row to reach. */
const OVERSCAN = 8;

export interface RowWindow {
  /** First and last (exclusive) row drawn. */
  start: number;
  end: number;
  /** Space standing in for the rows not drawn, above and below. */
  before: number;
  after: number;
  /** Scrolls so that this row is in view (for the arrow keys). */
  reveal(index: number): void;
}

/**
 * Which of `count` rows of `rowHeight` pixels a scrolling element shows now: a long list draws only
 * those (and a few around them), so ten thousand rows cost the page what forty do.
 */
export function useRowWindow(scroller: RefObject<HTMLElement | null>, count: number, rowHeight: number): RowWindow {
  const [view, setView] = useState({ top: 0, height: 0 });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const read = () => setView({ top: element.scrollTop, height: element.clientHeight });
    read();
    element.addEventListener('scroll', read, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(read);
    observer?.observe(element);
    return () => {
      element.removeEventListener('scroll', read);
      observer?.disconnect();
    };
  }, [scroller]);

  const reveal = useCallback(
    (index: number) => {
      const element = scroller.current;
      if (!element) return;
      const top = index * rowHeight;
      if (top < element.scrollTop) element.scrollTop = top;
      else if (top + rowHeight > element.scrollTop + element.clientHeight) {
        element.scrollTop = top + rowHeight - element.clientHeight;
      }
    },
    [scroller, rowHeight],
  );

  // Before the first measure (and in tests without layout) a screenful is assumed.
  const height = view.height || rowHeight * 20;
  const start = Math.max(0, Math.floor(view.top / rowHeight) - OVERSCAN);
  const end = Math.min(count, Math.ceil((view.top + height) / rowHeight) + OVERSCAN);
  return {
    start,
    end: Math.max(start, end),
    before: start * rowHeight,
    after: Math.max(0, (count - Math.max(start, end)) * rowHeight),
    reveal,
  };
}
