import {
  measureElement,
  observeElementRect,
  useVirtualizer,
  type Rect,
  type Virtualizer,
} from '@tanstack/react-virtual';
import { useCallback, useMemo } from 'react';
import { useFocusableScroller } from './scroll-focus.ts';

interface Options<T> {
  /** A row's key, kept by the row whatever is added above it. */
  keyOf(item: T): string | number;
  /** A row's height in pixels, or the guess for rows measured once drawn (text that wraps). */
  estimateSize(): number;
  /** Rows drawn past each edge of the view, so Tab always has a next row to reach. */
  overscan: number;
  /**
   * The height assumed for the scroll box while it has none: before it is laid out, while it is
   * hidden, and in tests where nothing is (jsdom). A box of no height would draw no row at all,
   * leaving nothing to Tab to. A box of fixed height (the Admin Panel's 600px areas) passes it.
   */
  screenful: number;
}

/**
 * A row drawn but not laid out (jsdom, or hidden) measures 0: it keeps its estimate, or a list of
 * such rows would draw every one of them, all fitting in a height of 0.
 */
const measureOrEstimate: typeof measureElement = (element, entry, instance) => {
  const size = measureElement(element, entry, instance);
  return size > 0 ? size : instance.options.estimateSize(instance.indexFromElement(element));
};

/**
 * A list too long to draw at once, in a scroll box of its own (decision 051): the box (a tab stop
 * while it scrolls), the rows to draw, and the space standing in for the rows above and below them.
 * A row whose height is not known ahead passes `measure` as its ref, with `data-index` set to its
 * index. The lists that load pages from the server as they scroll use `usePagedRows`, built on this.
 * `keyOf` and `estimateSize` must keep their identity from render to render (module functions).
 */
export function useRowsInView<T>(items: readonly T[], { keyOf, estimateSize, overscan, screenful }: Options<T>) {
  const { scroller, ref, tabIndex } = useFocusableScroller<HTMLDivElement>();
  const initialRect = useMemo<Rect>(() => ({ width: 0, height: screenful }), [screenful]);
  const observeRect = useCallback<typeof observeElementRect<HTMLDivElement>>(
    (instance, report) => observeElementRect(instance, (rect) => report(rect.height > 0 ? rect : initialRect)),
    [initialRect],
  );
  const virtualizer: Virtualizer<HTMLDivElement, Element> = useVirtualizer<HTMLDivElement, Element>({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize,
    getItemKey: useCallback((index: number) => keyOf(items[index]!), [items, keyOf]),
    overscan,
    initialRect,
    observeElementRect: observeRect,
    measureElement: measureOrEstimate,
  });
  const drawn = virtualizer.getVirtualItems();
  const first = drawn[0];
  const last = drawn.at(-1);
  const total = virtualizer.getTotalSize();
  return {
    /** For the scroll box: its element, and its tabIndex. */
    scrollerRef: ref,
    tabIndex,
    /** Measures a drawn row whose height is not known ahead (its ref; the row carries `data-index`). */
    measure: virtualizer.measureElement,
    drawn,
    /** Space above the drawn rows. */
    before: first?.start ?? 0,
    /** Space below them. */
    after: last ? total - last.end : total,
  };
}
