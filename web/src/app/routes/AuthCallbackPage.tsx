import { Card, Center, HStack, Spinner, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import type { TwoFactorChallenge } from '@moonrelay/contract/two-factor';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useLinkGoogle } from '../../features/account/api/google-link.ts';
import { authProvidersQuery, useGoogleSignIn } from '../../features/auth/api/google.ts';
import { SignInScreen } from '../../features/auth/components/SignInScreen.tsx';
import { ApiError, cancelledOr, messageOf } from '../../lib/api-client.ts';
import { callbackUrl, peekFlow, takeFlow } from '../../lib/oidc-flow.ts';
import { queryClient } from '../../lib/query-client.ts';
import { useSession } from '../../lib/session.ts';
import { notify } from '../../lib/toaster.tsx';

/**
 * /auth/callback, where the identity provider sends the browser back (spec sections 2, 7 and 8).
 * It reads code, state and error; the answer counts only if its state is the one this tab kept
 * when it left (lib/oidc-flow.ts). A sign-in exchanges the code for a session and goes to the
 * dashboard (or back to the invitation or shared script it began on), or, for an account with two-factor sign-in, for a challenge: the same code or passkey
 * step as after a password, then the session. A link attempt (started from Settings) links the
 * identity and goes back to Settings.
 */
export function AuthCallbackPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const googleSignIn = useGoogleSignIn();
  const linkGoogle = useLinkGoogle();
  // Read, not taken, while rendering: the effect below takes it, once.
  const [linking] = useState(() => peekFlow()?.purpose === 'link' && Boolean(useSession.getState().token));
  const handled = useRef(false);
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  // An invitation or a shared script the sign-in began on (lib/oidc-flow.ts), else the dashboard.
  const [destination] = useState(() => peekFlow()?.returnTo ?? '/dashboard');
  const name = queryClient.getQueryData(authProvidersQuery().queryKey)?.google.name ?? 'Google';

  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    const flow = takeFlow();
    const signedIn = Boolean(useSession.getState().token);
    const failed = (title: string, description: string) => {
      navigate(linking ? '/settings' : signedIn ? '/dashboard' : '/', { replace: true });
      notify({ type: 'error', title, description });
    };
    const exchangeFailed = (error?: unknown) =>
      failed(
        'Authentication Failed',
        // A conflict needs the user to act (sign in with the password first, say): say which.
        error instanceof ApiError && error.status === 409
          ? messageOf(error, '')
          : cancelledOr(error, `Failed to authenticate with ${name}. Please try again.`),
      );

    const error = params.get('error');
    if (error) {
      failed(
        'Authentication Error',
        error === 'access_denied' ? 'Authentication was cancelled.' : 'Authentication failed.',
      );
      return;
    }
    const code = params.get('code');
    const state = params.get('state');
    if (!code || !state || !flow || flow.state !== state || (flow.purpose === 'link') !== linking) {
      exchangeFailed();
      return;
    }
    const input = { code, state, redirectUri: callbackUrl() };
    void (async () => {
      try {
        if (linking) {
          await linkGoogle.mutateAsync(input);
          navigate('/settings', { replace: true });
          notify({ title: `${name} Account Linked`, description: `You can now sign in with ${name}.` });
        } else {
          const answer = await googleSignIn.mutateAsync(input);
          if ('twoFactorRequired' in answer) {
            setChallenge(answer);
            return;
          }
          useSession.getState().signIn(answer.token, answer.user);
          navigate(destination, { replace: true });
        }
      } catch (failure) {
        exchangeFailed(failure);
      }
    })();
    // Runs once per visit (the ref survives StrictMode's second run): the provider's answer is single-use.
  }, []);

  if (challenge) {
    return (
      <SignInScreen
        twoFactor={{ challenge, onBack: () => navigate('/', { replace: true }) }}
        afterSignIn={destination}
      />
    );
  }
  if (!linking) return <SignInScreen googleExchanging />;
  return (
    <Center minH="100vh" p="6" bg="bg.subtle">
      <Card.Root>
        <Card.Body>
          <HStack gap="3">
            <Spinner size="sm" />
            <Text>Linking your {name} account...</Text>
          </HStack>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}
