import { Center, Spinner } from '@chakra-ui/react';
import { lazy, Suspense, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router-dom';
import { useAdminLiveEvents } from '../features/admin/live/useAdminLiveEvents.ts';
import { useLiveEvents } from '../features/game/live/useLiveEvents.ts';
import { useRunsLiveEvents } from '../features/runs/live/useRunsLiveEvents.ts';
import { AppShell } from './layout/AppShell.tsx';
import { NotFoundPage } from './routes/NotFoundPage.tsx';
import { PAGE_LOADERS, PAGE_ROUTES, type PageName } from './routes/route-pages.ts';

// Each page is its own chunk (route-pages.ts); one lazy component per page, made once.
const PAGES = Object.fromEntries(Object.entries(PAGE_LOADERS).map(([name, load]) => [name, lazy(load)])) as Record<
  PageName,
  LazyExoticComponent<() => React.JSX.Element>
>;

const loading = (
  <Center py="20">
    <Spinner />
  </Center>
);

/** The routes of a signed-in user (spec section 2), kept current by the live socket on every screen. */
export default function SignedInApp() {
  useLiveEvents();
  useAdminLiveEvents();
  useRunsLiveEvents();
  return (
    <AppShell>
      <Suspense fallback={loading}>
        <Routes>
          {PAGE_ROUTES.map(({ path, page }) => {
            const Page = PAGES[page];
            return <Route key={path} path={path} element={<Page />} />;
          })}
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </AppShell>
  );
}
