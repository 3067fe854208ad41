import { useEffect, useRef } from 'react';
import { useRowsInView } from './rows-in-view.ts';

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
 * A long list paged by the server and drawn only where it is in view (decision 051): what
 * `useRowsInView` gives (the scroll box, the rows to draw, the space above and below them), and
 * the next page asked for as the end of the loaded rows comes near. Without a `screenful`, a box
 * not laid out yet draws no row (a browser lays it out as it is added).
 * `keyOf` and `estimateSize` must keep their identity from render to render (module functions).
 */
export function usePagedRows<T>(
  items: readonly T[],
  options: { keyOf(item: T): string | number; estimateSize(): number; overscan: number; screenful?: number },
  paging: Paging,
) {
  const rows = useRowsInView(items, { ...options, screenful: options.screenful ?? 0 });
  useLoadAhead(rows.drawn.at(-1)?.index, items.length, paging);
  return rows;
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
