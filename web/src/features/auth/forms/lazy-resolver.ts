import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver whose schema loads on first use. The sign-in screen is the first thing a visitor
 * downloads: its schemas would bring zod (about 90 KB) into that first download, though nothing is
 * checked before the visitor types. `preload()` fetches it once the screen is up, so the first
 * check does not wait on the network.
 */
export function lazyResolver<T extends FieldValues>(
  load: () => Promise<Resolver<T>>,
): { resolver: Resolver<T>; preload: () => void } {
  let loading: Promise<Resolver<T>> | null = null;
  // A failed fetch (a dropped connection) is forgotten, so the next check tries again.
  const get = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    // Its failure is the next check's to report, where it reaches the form.
    preload: () => void get().catch(() => undefined),
  };
}
