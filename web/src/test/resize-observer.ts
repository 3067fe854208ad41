import { afterAll } from 'vitest';

/**
 * Stands in for ResizeObserver, which jsdom lacks, in a file whose components need one to exist
 * (floating-ui's menus, recharts): it never reports. It goes again after the file. Test files
 * share their worker (`isolate: false`), and an observer that never reports would keep the next
 * file's scroll boxes (lib/scroll-focus.ts) from ever measuring themselves.
 */
export function standInResizeObserver(): void {
  if (globalThis.ResizeObserver) return;
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  afterAll(() => {
    delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
  });
}
