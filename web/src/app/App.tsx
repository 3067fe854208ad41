import { Center, Spinner } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router-dom';
import { OIDC_CALLBACK_PATH } from '@moonrelay/contract/constants';
import { SignInScreen } from '../features/auth/components/SignInScreen.tsx';
import { useSession } from '../lib/session.ts';
import { Providers } from './providers.tsx';
import { AuthCallbackPage } from './routes/AuthCallbackPage.tsx';

// Everything behind sign-in loads on demand, so the sign-in screen's first load stays small.
const SignedInApp = lazy(() => import('./SignedInApp.tsx'));

function Screens() {
  const token = useSession((state) => state.token);
  const { pathname } = useLocation();
  // The identity provider's return, signed in (linking from Settings) or not (signing in).
  if (pathname === OIDC_CALLBACK_PATH) return <AuthCallbackPage />;
  if (!token) return <SignInScreen />;
  return (
    <Suspense
      fallback={
        <Center minH="100vh">
          <Spinner size="lg" />
        </Center>
      }
    >
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
