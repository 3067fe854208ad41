import { useSyncExternalStore } from 'react';

/** Below Chakra's md breakpoint (768 px): a phone, held either way, or a narrow window. */
const NARROW = '(max-width: 47.99em)';

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia?.(NARROW);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
};

/**
 * Whether the screen is narrower than Chakra's md breakpoint, following the window as it changes.
 * For layouts that differ in their elements, not only in style (a table or cards): one of them is
 * rendered, not both with one hidden. Without matchMedia (jsdom) the screen is wide.
 */
export const useNarrowScreen = () =>
  useSyncExternalStore(subscribe, () => window.matchMedia?.(NARROW).matches ?? false);
