import { Button, Card, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { Link2, Unlink } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { beginFlow } from '../../../lib/oidc-flow.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useSignInMethods, useStartGoogleLink, useUnlinkGoogle } from '../api/google-link.ts';

/**
 * Settings' identity-provider card: link Google to this account (a round trip through the
 * provider, finished at /auth/callback) or unlink it. An account without a password cannot unlink:
 * Google would be its only way in.
 */
export function GoogleAccountCard() {
  const methods = useSignInMethods();
  const startLink = useStartGoogleLink();
  const unlink = useUnlinkGoogle();
  const [confirming, setConfirming] = useState(false);
  const name = methods.data?.google.name ?? 'Google';

  const link = () =>
    startLink.mutate(undefined, {
      onSuccess: (authorization) => beginFlow('link', authorization),
      onError: (error) =>
        notify({
          type: 'error',
          title: 'Authentication Failed',
          description: messageOf(error, `Failed to authenticate with ${name}. Please try again.`),
        }),
    });

  const confirmUnlink = async () => {
    try {
      await unlink.mutateAsync();
    } catch (error) {
      notify({
        type: 'error',
        title: 'Error',
        description: messageOf(error, `Failed to unlink ${name}. Please try again.`),
      });
      return;
    }
    setConfirming(false);
    notify({ title: `${name} Account Unlinked`, description: 'Sign in with your email or username and password.' });
  };

  let body;
  if (methods.isPending) {
    body = <Spinner size="sm" />;
  } else if (methods.isError) {
    body = <Text color="fg.error">{messageOf(methods.error, 'Sign-in methods could not be loaded.')}</Text>;
  } else {
    const { password, google } = methods.data;
    if (google.googleId !== null) {
      body = (
        <Stack gap="3">
          <Text>
            Linked to {name} ID{' '}
            <Text as="span" fontFamily="mono" data-testid="linked-google-id">
              {google.googleId}
            </Text>
            . You can sign in with {name}
            {password ? ' or with your password.' : '.'}
          </Text>
          {!password && (
            <Text color="fg.muted" fontSize="sm">
              Your account has no password, so {name} is its only way to sign in: it cannot be unlinked.
            </Text>
          )}
          <HStack>
            <ConfirmDialog
              trigger={
                <Button variant="outline" colorPalette="red" disabled={!password}>
                  <Unlink /> Unlink {name}
                </Button>
              }
              open={confirming}
              onOpenChange={setConfirming}
              title={`Unlink ${name}`}
              confirmLabel="Unlink"
              pendingLabel="Unlinking..."
              pending={unlink.isPending}
              onConfirm={() => void confirmUnlink()}
            >
              <Text>
                You will no longer be able to sign in with this {name} account. You can still sign in with your
                password, and link {name} again at any time.
              </Text>
            </ConfirmDialog>
          </HStack>
        </Stack>
      );
    } else {
      body = (
        <Stack gap="3" align="start">
          <Text color="fg.muted">
            {google.enabled
              ? `Link your ${name} account to sign in with it as well as with your password.`
              : `Sign in with ${name} is not configured on this server.`}
          </Text>
          <Button
            variant="outline"
            onClick={link}
            disabled={!google.enabled}
            // Stays busy after success too: the browser is on its way to the provider.
            loading={startLink.isPending || startLink.isSuccess}
            loadingText="Redirecting..."
          >
            <Link2 /> Link {name} Account
          </Button>
        </Stack>
      );
    }
  }

  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">{name} Sign-In</Card.Title>
        <Card.Description>Sign in with your {name} account instead of a password.</Card.Description>
      </Card.Header>
      <Card.Body>{body}</Card.Body>
    </Card.Root>
  );
}
