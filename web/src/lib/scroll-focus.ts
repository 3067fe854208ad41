import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/**
 * A box that scrolls must be reachable by keyboard, or its hidden part is out of reach for anyone
 * without a mouse (WCAG 2.1.1; axe's `scrollable-region-focusable`). This makes the box a tab stop
 * (tabIndex 0) only while its content overflows it, so boxes that fit add no empty tab stops.
 * Pair it with an accessible name (`aria-label`) and `role="region"` where the box is a region.
 */
export function useFocusableWhenScrolling<T extends HTMLElement>(): {
  ref: (element: T | null) => void;
  tabIndex: 0 | undefined;
} {
  const [element, setElement] = useState<T | null>(null);
  const [scrolls, setScrolls] = useState(false);
  const ref = useCallback((next: T | null) => setElement(next), []);

  useEffect(() => {
    if (!element) return;
    const measure = () =>
      setScrolls(element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1);
    if (typeof ResizeObserver === 'undefined' || typeof MutationObserver === 'undefined') {
      measure();
      return;
    }
    // Measured when the browser lays the page out anyway, never in the middle of React's work:
    // reading a size right after new content forces a layout of the whole page then and there,
    // inside the task that rendered it, and makes that task longer. A ResizeObserver reports once
    // after the first layout and whenever the box changes size with the window; new text or rows
    // are measured in the next frame, once however many arrived.
    const resizes = new ResizeObserver(measure);
    resizes.observe(element);
    let frame = 0;
    const changes = new MutationObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(measure);
    });
    changes.observe(element, { childList: true, subtree: true, characterData: true });
    return () => {
      cancelAnimationFrame(frame);
      resizes.disconnect();
      changes.disconnect();
    };
  }, [element]);

  return { ref, tabIndex: scrolls ? 0 : undefined };
}

/**
 * A scrolling list's box as a list that draws only the rows in view needs it: the element itself
 * (read by the row window or virtualizer on scroll), and a tab stop while it scrolls.
 */
export function useFocusableScroller<T extends HTMLElement>(): {
  scroller: RefObject<T | null>;
  ref: (element: T | null) => void;
  tabIndex: 0 | undefined;
} {
  const scroller = useRef<T | null>(null);
  const focusable = useFocusableWhenScrolling<T>();
  const { ref: focusableRef } = focusable;
  const ref = useCallback(
    (element: T | null) => {
      scroller.current = element;
      focusableRef(element);
    },
    [focusableRef],
  );
  return { scroller, ref, tabIndex: focusable.tabIndex };
}
