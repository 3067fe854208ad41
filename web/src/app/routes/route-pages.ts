/**
 * The signed-in screens' pages by path (spec section 2), each its own chunk, loaded on demand.
 * The router makes its lazy pages from these loaders, and the start-up preload (preload.ts) calls
 * the same ones, so a page fetched early is the module the router then renders, fetched once.
 */
const loaders = {
  dashboard: () => import('./DashboardPage.tsx'),
  // The editor brings Ace: fetched only when a screen with an editor opens.
  editor: () => import('./EditorPage.tsx'),
  scripts: () => import('./ScriptsPage.tsx'),
  runs: () => import('./RunsPage.tsx'),
  console: () => import('./ConsolePage.tsx'),
  players: () => import('./PlayersPage.tsx'),
  settings: () => import('./SettingsPage.tsx'),
  catalogue: () => import('./CataloguePage.tsx'),
  apiDocs: () => import('./ApiDocsPage.tsx'),
  // Brings recharts: fetched only when the analytics open.
  analytics: () => import('./AnalyticsPage.tsx'),
  admin: () => import('./AdminPage.tsx'),
} as const;

export type PageName = keyof typeof loaders;

export const PAGE_LOADERS: Readonly<Record<PageName, () => Promise<{ default: () => React.JSX.Element }>>> = loaders;

/** Each route's path and page; any other path is the not-found screen. */
export const PAGE_ROUTES: readonly { path: string; page: PageName }[] = [
  { path: '/', page: 'dashboard' },
  { path: '/dashboard', page: 'dashboard' },
  { path: '/editor', page: 'editor' },
  { path: '/scripts', page: 'scripts' },
  { path: '/runs', page: 'runs' },
  { path: '/console', page: 'console' },
  { path: '/players', page: 'players' },
  { path: '/settings', page: 'settings' },
  { path: '/scriptblox', page: 'catalogue' },
  { path: '/api-docs', page: 'apiDocs' },
  { path: '/analytics', page: 'analytics' },
  { path: '/admin', page: 'admin' },
];

/** The page a path opens (in any case, a trailing slash allowed, as the router matches), or undefined. */
export function pageForPath(pathname: string): PageName | undefined {
  const lower = pathname.toLowerCase();
  const path = lower.length > 1 ? lower.replace(/\/+$/, '') : lower;
  return PAGE_ROUTES.find((route) => route.path === path)?.page;
}
