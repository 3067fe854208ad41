import { Button, Tooltip } from '@chakra-ui/react';

/**
 * The identity-provider button. Sign-in with Google needs a client id configured on the server;
 * until then the button is disabled and its tooltip says why.
 */
export function GoogleButton() {
  return (
    <Tooltip.Root openDelay={100}>
      <Tooltip.Trigger asChild>
        <span style={{ display: 'block' }} tabIndex={0}>
          <Button width="full" variant="outline" disabled>
            Continue with Google
          </Button>
        </span>
      </Tooltip.Trigger>
      <Tooltip.Positioner>
        <Tooltip.Content>Sign in with Google is not configured on this server yet.</Tooltip.Content>
      </Tooltip.Positioner>
    </Tooltip.Root>
  );
}
