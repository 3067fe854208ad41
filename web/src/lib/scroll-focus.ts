import { useCallback, useEffect, useState } from 'react';

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
    measure();
    if (typeof ResizeObserver === 'undefined' || typeof MutationObserver === 'undefined') return;
    // The box changes size with the window; its content changes with new text or rows arriving.
    const resizes = new ResizeObserver(measure);
    resizes.observe(element);
    const changes = new MutationObserver(measure);
    changes.observe(element, { childList: true, subtree: true, characterData: true });
    return () => {
      resizes.disconnect();
      changes.disconnect();
    };
  }, [element]);

  return { ref, tabIndex: scrolls ? 0 : undefined };
}
