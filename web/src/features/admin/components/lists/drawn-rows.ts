import { measureElement, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback } from 'react';
import { useFocusableScroller } from '../../../../lib/scroll-focus.ts';

/** The admin lists' height in pixels (spec section 9: admin lists sit in 600px scroll areas). */
export const ADMIN_LIST_HEIGHT_PX = 600;

/**
 * A drawn row's height as laid out, or its estimate where nothing is laid out (jsdom measures 0,
 * which would leave every row counted as no height at all).
 */
function measureRow(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<HTMLDivElement, Element>,
) {
  return measureElement(element, entry, instance) || instance.options.estimateSize(instance.indexFromElement(element));
}

/** The list area's scroll box as the rows' virtualizer reads it: its element, and a tab stop while it scrolls. */
export interface ListScroll {
  ref(element: HTMLDivElement | null): void;
  tabIndex: 0 | undefined;
}

export interface DrawnRows {
  /** For the ListArea holding the rows. */
  scroll: ListScroll;
  /** The places (in the page's rows) of the rows to draw, in order. */
  indexes: number[];
  /** Space standing in for the rows above the drawn ones, and below them. */
  before: number;
  after: number;
  /**
   * Measures a drawn row (its ref; the row carries `data-index`): admin rows wrap to more or fewer
   * lines than estimated (details, members, a long name), so each drawn row is measured.
   */
  measure(element: HTMLElement | null): void;
}

/**
 * One page of an admin list (up to 50 rows from the server, the Pager for the rest) drawn only
 * where its 600px area shows it (decision 051): the rows in view, `overscan` more past each edge
 * so Tab always has a next row to reach (focusing it scrolls it into view, which draws the ones
 * after it), and space for the others. Until the area has been measured (and where nothing lays it
 * out, as in jsdom), the rows its 600px hold at their estimated height are drawn.
 * `keyOf` must keep its identity from render to render (a module function).
 */
export function useDrawnRows<T>(
  items: readonly T[],
  { keyOf, estimate, overscan }: { keyOf(item: T): string; estimate: number; overscan: number },
): DrawnRows {
  const { scroller, ref, tabIndex } = useFocusableScroller<HTMLDivElement>();
  const virtualizer = useVirtualizer<HTMLDivElement, Element>({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: useCallback(() => estimate, [estimate]),
    getItemKey: useCallback((index: number) => keyOf(items[index]!), [items, keyOf]),
    overscan,
    measureElement: measureRow,
  });
  const scroll = { ref, tabIndex };
  const measure = virtualizer.measureElement as (element: HTMLElement | null) => void;
  const total = virtualizer.getTotalSize();
  const measured = virtualizer.getVirtualItems();
  const first = measured[0];
  const last = measured.at(-1);
  if (first && last) {
    return {
      scroll,
      indexes: measured.map((item) => item.index),
      before: first.start,
      after: total - last.end,
      measure,
    };
  }
  const count = Math.min(items.length, Math.ceil(ADMIN_LIST_HEIGHT_PX / estimate) + overscan);
  return {
    scroll,
    indexes: Array.from({ length: count }, (_, index) => index),
    before: 0,
    after: Math.max(0, total - count * estimate),
    measure,
  };
}
