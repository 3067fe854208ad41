import { Alert, Box, Card, Heading, Separator, Stack, Tabs, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { APP_NAME, APP_VERSION } from '@moonrelay/contract/constants';
import { SIGN_IN } from '@moonrelay/contract/messages';
import type { AuthResponse } from '@moonrelay/contract/auth';
import type { TwoFactorChallenge } from '@moonrelay/contract/two-factor';
import { signInDestination } from '../../../lib/oidc-flow.ts';
import { useSession } from '../../../lib/session.ts';
import { useAuthProviders } from '../api/google.ts';
import { GoogleButton } from './GoogleButton.tsx';
import { LoginForm } from './LoginForm.tsx';
import { RegisterForm } from './RegisterForm.tsx';
import { TwoFactorStep } from './TwoFactorStep.tsx';
import { preloadSignInChecks } from '../forms/sign-in-resolvers.ts';

/** Said over the forms when the session ended elsewhere (another device, a password change, expiry). */
export const SIGNED_OUT_DETAIL =
  'This session was ended from another device or by a password change, or it expired. Sign in again.';

/** Over the forms of an instance with no account yet, which opens on Register. */
export const FIRST_ACCOUNT_NOTE = SIGN_IN.firstAccountNote;

/**
 * The signed-out screen, shown for every path without a stored token (spec section 2).
 * `googleExchanging`: /auth/callback is exchanging the provider's code; its buttons say so.
 * `twoFactor`: the provider's sign-in answered a challenge; its step replaces the forms.
 * A sign-in goes to /dashboard, or back to the invitation or shared script it began on.
 */
export function SignInScreen({
  googleExchanging = false,
  twoFactor,
  afterSignIn,
}: {
  googleExchanging?: boolean;
  twoFactor?: { challenge: TwoFactorChallenge; onBack: () => void };
  /** Where to go once signed in, when not this address's (a provider's sign-in kept it for later). */
  afterSignIn?: string;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const endedNotice = useSession((state) => state.endedNotice);
  // No account yet: there is nobody to log in as, and the first account made becomes the admin.
  const firstAccount = useAuthProviders().data?.firstAccount === true;
  // The tab the visitor chose; until then, the one that suits the instance.
  const [tab, setTab] = useState<string | null>(null);
  // The form checks load once the screen is up and the browser is idle: off the first paint's
  // path, yet in place before anyone has typed a name and a password.
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') return preloadSignInChecks();
    const idle = requestIdleCallback(preloadSignInChecks, { timeout: 2_000 });
    return () => cancelIdleCallback(idle);
  }, []);
  const destination = afterSignIn ?? signInDestination(location.pathname, location.search);
  const signedIn = ({ token, user }: AuthResponse) => {
    useSession.getState().signIn(token, user);
    navigate(destination);
  };
  return (
    <Box as="main" minH="100vh" display="flex" alignItems="center" justifyContent="center" p="6" bg="bg.subtle">
      <Card.Root width="full" maxW="md">
        <Card.Header>
          <Heading as="h1" size="2xl">
            {APP_NAME}{' '}
            <Text as="span" fontSize="sm" color="fg.muted">
              {APP_VERSION}
            </Text>
          </Heading>
          <Text color="fg.muted">
            A Lua script execution platform with secure authentication, free API access and instant setup.
          </Text>
        </Card.Header>
        <Card.Body>
          {endedNotice && !twoFactor && (
            <Alert.Root status="info" mb="4" data-testid="signed-out-notice">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{endedNotice}</Alert.Title>
                <Alert.Description>{SIGNED_OUT_DETAIL}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          {firstAccount && !twoFactor && (
            <Alert.Root status="info" mb="4" data-testid="first-account-note">
              <Alert.Indicator />
              <Alert.Title>{FIRST_ACCOUNT_NOTE}</Alert.Title>
            </Alert.Root>
          )}
          {twoFactor ? (
            <TwoFactorStep
              challenge={twoFactor.challenge.challenge}
              methods={twoFactor.challenge.methods}
              onSignedIn={signedIn}
              onBack={twoFactor.onBack}
            />
          ) : (
            <Tabs.Root
              value={tab ?? (firstAccount ? 'register' : 'login')}
              onValueChange={(details) => setTab(details.value)}
              variant="enclosed"
              fitted
              lazyMount
            >
              <Tabs.List>
                {/* Each tab is a tab stop of its own (not only the selected one, as arrow-key tabs
                  have): people who only know Tab must find Register. */}
                <Tabs.Trigger value="login" tabIndex={0}>
                  Login
                </Tabs.Trigger>
                <Tabs.Trigger value="register" tabIndex={0}>
                  Register
                </Tabs.Trigger>
              </Tabs.List>
              <Tabs.Content value="login">
                <Stack gap="4">
                  <GoogleButton exchanging={googleExchanging} />
                  <Separator />
                  <LoginForm onSignedIn={signedIn} />
                </Stack>
              </Tabs.Content>
              <Tabs.Content value="register">
                <Stack gap="4">
                  <GoogleButton exchanging={googleExchanging} />
                  <Separator />
                  <RegisterForm onSignedIn={signedIn} />
                </Stack>
              </Tabs.Content>
            </Tabs.Root>
          )}
        </Card.Body>
      </Card.Root>
    </Box>
  );
}
