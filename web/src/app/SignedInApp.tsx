import { Center, Spinner } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { AppShell } from './layout/AppShell.tsx';
import { ComingLaterPage } from './routes/ComingLaterPage.tsx';
import { NotFoundPage } from './routes/NotFoundPage.tsx';

// The editor brings Ace: it is its own chunk, fetched only when a screen with an editor opens.
const DashboardPage = lazy(() => import('./routes/DashboardPage.tsx'));
const EditorPage = lazy(() => import('./routes/EditorPage.tsx'));
const ScriptsPage = lazy(() => import('./routes/ScriptsPage.tsx'));
const SettingsPage = lazy(() => import('./routes/SettingsPage.tsx'));

const loading = (
  <Center py="20">
    <Spinner />
  </Center>
);

/** The routes of a signed-in user (spec section 2). */
export default function SignedInApp() {
  return (
    <AppShell>
      <Suspense fallback={loading}>
        <Routes>
          <Route path="/" element={<DashboardPage />} />
          <Route path="/dashboard" element={<DashboardPage />} />
          <Route path="/editor" element={<EditorPage />} />
          <Route path="/scripts" element={<ScriptsPage />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/scriptblox" element={<ComingLaterPage title="ScriptBlox" />} />
          <Route path="/api-docs" element={<ComingLaterPage title="API Documentation" />} />
          <Route path="/admin" element={<ComingLaterPage title="Admin Panel" />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </AppShell>
  );
}
