import { Button, Spinner, Stack, Text } from '@chakra-ui/react';
import { LogIn } from 'lucide-react';
import { useEffect, useId } from 'react';
import { useLocation } from 'react-router-dom';
import { beginFlow, returnPathOf } from '../../../lib/oidc-flow.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useAuthProviders, useStartGoogleSignIn } from '../api/google.ts';

/** Google's four-colour "G", shown when the provider is Google. */
function GoogleMark() {
  return (
    <svg viewBox="0 0 48 48" width="18" height="18" aria-hidden="true">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  );
}

/**
 * The identity-provider button (spec section 2). Enabled when the server has a provider configured
 * (GET /api/auth/providers); a click asks the server for the authorization URL and leaves for the
 * provider. `exchanging` is the callback's state: it reads 'Authenticating...' while the code is
 * exchanged.
 */
export function GoogleButton({ exchanging = false }: { exchanging?: boolean }) {
  const providers = useAuthProviders();
  const start = useStartGoogleSignIn();
  const here = useLocation();
  const { reset } = start;
  const reasonId = useId();
  // Coming back with the browser's Back button may restore this page as it was left ("Redirecting...").
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [reset]);
  const provider = providers.data?.google;
  const name = provider?.name ?? 'Google';
  const label = `Continue with ${name}`;
  const mark = name === 'Google' ? <GoogleMark /> : <LogIn />;

  if (exchanging) {
    return (
      <Button width="full" variant="outline" disabled>
        <Spinner size="sm" /> Authenticating...
      </Button>
    );
  }

  if (!provider?.enabled) {
    const reason = providers.isError
      ? 'Sign-in options could not be loaded. Reload the page to try again.'
      : `Sign in with ${name} is not configured on this server.`;
    // Disabled, so no tab stop that does nothing; the reason is shown under it in text (not only on
    // hover, which keyboard and touch users never see) and read out with the button.
    return (
      <Stack gap="1">
        <Button width="full" variant="outline" disabled aria-describedby={providers.isPending ? undefined : reasonId}>
          {mark} {label}
        </Button>
        {!providers.isPending && (
          <Text id={reasonId} fontSize="xs" color="fg.muted" textAlign="center">
            {reason}
          </Text>
        )}
      </Stack>
    );
  }

  const signIn = () =>
    start.mutate(undefined, {
      // Back where the sign-in began when that is an invitation or a shared script (lib/oidc-flow.ts).
      onSuccess: (authorization) => beginFlow('sign-in', authorization, returnPathOf(here.pathname, here.search)),
      onError: () =>
        notify({
          type: 'error',
          title: 'Authentication Failed',
          description: `Failed to authenticate with ${name}. Please try again.`,
        }),
    });

  return (
    <Button
      width="full"
      variant="outline"
      onClick={signIn}
      // Stays busy after success too: the browser is on its way to the provider.
      loading={start.isPending || start.isSuccess}
      loadingText="Redirecting..."
    >
      {mark} {label}
    </Button>
  );
}
