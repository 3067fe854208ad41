import { PAGE_LOADERS, pageForPath } from './routes/route-pages.ts';

/** The signed-in app's chunk (the shell, the live socket, the router). */
export const loadSignedInApp = () => import('./SignedInApp.tsx');

/**
 * With a session at start-up, fetches the signed-in app and the page the address opens side by
 * side, instead of one after the other as rendering discovers them (the app first, its page only
 * once the app has run): on a phone's network every step of that chain is a round trip and a
 * download. The router then renders the same modules. A fetch that fails here is left for the
 * router's own attempt to report.
 */
export function preloadSignedInScreen(pathname: string): void {
  loadSignedInApp().catch(() => undefined);
  const page = pageForPath(pathname);
  if (page) PAGE_LOADERS[page]().catch(() => undefined);
}
