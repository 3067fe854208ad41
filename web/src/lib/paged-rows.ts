import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef } from 'react';
import { useFocusableScroller } from './scroll-focus.ts';

/** The next page is asked for once the drawn rows come within this many of the last one loaded. */
const LOAD_AHEAD_ROWS = 20;

interface Paging {
  /** Whether more rows remain to be loaded. */
  more: boolean;
  /** Whether the next page may be asked for now (none on its way, the last one did not fail). */
  loadAhead: boolean;
  /** Asks for the next page: the end of the loaded rows comes into view. */
  onNeedMore(): void;
}

/**
 * A long list paged by the server and drawn only where it is in view (decision 051): its scroll
 * box (a tab stop while it scrolls), the rows to draw, the space standing in for the rows above
 * and below them, and the next page asked for as the end of the loaded rows comes near.
 * `keyOf` and `estimateSize` must keep their identity from render to render (module functions).
 */
export function usePagedRows<T>(
  items: readonly T[],
  options: { keyOf(item: T): string; estimateSize(): number; overscan: number },
  paging: Paging,
) {
  const { keyOf, estimateSize, overscan } = options;
  const { scroller, ref, tabIndex } = useFocusableScroller<HTMLDivElement>();
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize,
    getItemKey: useCallback((index: number) => keyOf(items[index]!), [items, keyOf]),
    overscan,
  });
  const drawn = virtualizer.getVirtualItems();
  const first = drawn[0];
  const last = drawn.at(-1);
  const total = virtualizer.getTotalSize();
  useLoadAhead(last?.index, items.length, paging);
  return {
    /** For the scroll box: its element, and its tabIndex. */
    scrollerRef: ref,
    tabIndex,
    /** Measures a drawn row whose height is not known ahead (a card whose text wraps). */
    measure: virtualizer.measureElement,
    drawn,
    /** Space above the drawn rows. */
    before: first?.start ?? 0,
    // Before the first rows are drawn the list is all space: a box of no height would show the
    // virtualizer no room to draw them in.
    after: last ? total - last.end : total,
  };
}

/**
 * Asks for the next page whenever the drawn rows are near the end and a page may be asked for,
 * looked at again each time that changes (a fetch ends): a refresh of the loaded pages on its way
 * when the end came near would otherwise leave the list at its last page.
 */
function useLoadAhead(lastDrawn: number | undefined, loaded: number, { more, loadAhead, onNeedMore }: Paging): void {
  const nearEnd = lastDrawn !== undefined && lastDrawn + LOAD_AHEAD_ROWS >= loaded;
  const needMore = useRef(onNeedMore);
  useEffect(() => {
    needMore.current = onNeedMore;
  }, [onNeedMore]);
  useEffect(() => {
    if (more && loadAhead && nearEnd) needMore.current();
  }, [more, loadAhead, nearEnd, loaded]);
}
