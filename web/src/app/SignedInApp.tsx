import { Center, Spinner } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { useAdminLiveEvents } from '../features/admin/live/useAdminLiveEvents.ts';
import { useLiveEvents } from '../features/game/live/useLiveEvents.ts';
import { useRunsLiveEvents } from '../features/runs/live/useRunsLiveEvents.ts';
import { SHARED_SCRIPT_PATH } from '../features/scripts/sharing/shared-link.ts';
import { TeamGate } from '../features/teams/components/TeamGate.tsx';
import { useTeam } from '../lib/team.ts';
import { AppShell } from './layout/AppShell.tsx';
import { NotFoundPage } from './routes/NotFoundPage.tsx';

// The editor brings Ace: it is its own chunk, fetched only when a screen with an editor opens.
const DashboardPage = lazy(() => import('./routes/DashboardPage.tsx'));
const EditorPage = lazy(() => import('./routes/EditorPage.tsx'));
const ScriptsPage = lazy(() => import('./routes/ScriptsPage.tsx'));
const RunsPage = lazy(() => import('./routes/RunsPage.tsx'));
const SettingsPage = lazy(() => import('./routes/SettingsPage.tsx'));
const CataloguePage = lazy(() => import('./routes/CataloguePage.tsx'));
const AdminPage = lazy(() => import('./routes/AdminPage.tsx'));
const ConsolePage = lazy(() => import('./routes/ConsolePage.tsx'));
const PlayersPage = lazy(() => import('./routes/PlayersPage.tsx'));
const ApiDocsPage = lazy(() => import('./routes/ApiDocsPage.tsx'));
// Brings recharts: its own chunk, fetched only when the analytics open.
const AnalyticsPage = lazy(() => import('./routes/AnalyticsPage.tsx'));
const TeamPage = lazy(() => import('./routes/TeamPage.tsx'));
const JoinTeamPage = lazy(() => import('./routes/JoinTeamPage.tsx'));
const SharedScriptPage = lazy(() => import('./routes/SharedScriptPage.tsx'));

const loading = (
  <Center py="20">
    <Spinner />
  </Center>
);

/**
 * The routes of a signed-in user (spec section 2), for the team the dashboard acts on. Keyed by
 * that team: changing it mounts every screen afresh (their state and their live listeners), so
 * nothing of the previous team's stays on screen.
 */
export default function SignedInApp() {
  const teamId = useTeam((state) => state.teamId);
  return (
    <TeamGate>
      <TeamScreens key={teamId ?? ''} />
    </TeamGate>
  );
}

/** The screens, kept current by the live socket on every one. */
function TeamScreens() {
  useLiveEvents();
  useAdminLiveEvents();
  useRunsLiveEvents();
  return (
    <AppShell>
      <Suspense fallback={loading}>
        <Routes>
          <Route path="/" element={<DashboardPage />} />
          <Route path="/dashboard" element={<DashboardPage />} />
          <Route path="/editor" element={<EditorPage />} />
          <Route path="/scripts" element={<ScriptsPage />} />
          <Route path="/runs" element={<RunsPage />} />
          <Route path="/console" element={<ConsolePage />} />
          <Route path="/players" element={<PlayersPage />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/scriptblox" element={<CataloguePage />} />
          <Route path="/api-docs" element={<ApiDocsPage />} />
          <Route path="/analytics" element={<AnalyticsPage />} />
          <Route path="/admin" element={<AdminPage />} />
          <Route path="/team" element={<TeamPage />} />
          <Route path="/join" element={<JoinTeamPage />} />
          <Route path={SHARED_SCRIPT_PATH} element={<SharedScriptPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </AppShell>
  );
}
