import { Center, Spinner } from '@chakra-ui/react';
import { lazy, Suspense, useState } from 'react';
import { matchPath, useLocation } from 'react-router-dom';
import { OIDC_CALLBACK_PATH } from '@moonrelay/contract/constants';
import { SignInScreen } from '../features/auth/components/SignInScreen.tsx';
import { useSession } from '../lib/session.ts';
import { useSudoPrompt } from '../lib/sudo.ts';
import { Providers } from './providers.tsx';
import { AuthCallbackPage } from './routes/AuthCallbackPage.tsx';
import { SHARED_SCRIPT_PATH } from '../features/scripts/sharing/shared-link.ts';

// Everything behind sign-in loads on demand, so the sign-in screen's first load stays small.
const SignedInApp = lazy(() => import('./SignedInApp.tsx'));
const SudoLayer = lazy(() => import('./SudoLayer.tsx'));
// A shared script's page, for visitors who are not signed in.
const PublicSharedScriptPage = lazy(() => import('./routes/PublicSharedScriptPage.tsx'));

const waiting = (
  <Center minH="100vh">
    <Spinner size="lg" />
  </Center>
);

/**
 * "Confirm it is you", for any protected change of a signed-in user (Settings, the dashboard, the
 * link finished at /auth/callback). Its code loads the first time a change asks for it.
 */
function SudoGate() {
  const asked = useSudoPrompt((state) => state.prompt !== null);
  const [loaded, setLoaded] = useState(false);
  if (asked && !loaded) setLoaded(true);
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <SudoLayer />
    </Suspense>
  );
}

function Screens() {
  const token = useSession((state) => state.token);
  return (
    <>
      <Screen />
      {token && <SudoGate />}
    </>
  );
}

function Screen() {
  const token = useSession((state) => state.token);
  const { pathname } = useLocation();
  // The identity provider's return, signed in (linking from Settings) or not (signing in).
  if (pathname === OIDC_CALLBACK_PATH) return <AuthCallbackPage />;
  if (!token) {
    // A shared script's link works signed out too; every other path asks to sign in.
    if (!matchPath(SHARED_SCRIPT_PATH, pathname)) return <SignInScreen />;
    return (
      <Suspense fallback={waiting}>
        <PublicSharedScriptPage />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={waiting}>
      <SignedInApp />
    </Suspense>
  );
}

export function App() {
  return (
    <Providers>
      <Screens />
    </Providers>
  );
}
