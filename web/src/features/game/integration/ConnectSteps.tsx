import { List, Stack, Text } from '@chakra-ui/react';
import { CONNECT_TEXT } from './connect-text.ts';
import { useIntegrationState, type IntegrationState } from './useIntegrationState.ts';

/**
 * How to connect a game (spec section 2, Game Connection while disconnected). The paste step says
 * "below" only when the Quick Loader is shown below, and works for a game on Roblox.
 */
function pasteStep(state: IntegrationState, isAdmin: boolean): string {
  switch (state.kind) {
    case 'shown':
      return state.scripts.reachability.reachable ? CONNECT_TEXT.paste : CONNECT_TEXT.pasteOnceReachable;
    case 'not-served':
      return isAdmin ? CONNECT_TEXT.pasteNotShownAdmin : CONNECT_TEXT.pasteNotShownMember;
    // The Quick Loader carries the team's game key: only a member who may manage keys sees it.
    case 'refused':
      return CONNECT_TEXT.pasteRefused;
    default:
      return CONNECT_TEXT.pasteWhenLoaded;
  }
}

export function ConnectSteps() {
  const { state, isAdmin } = useIntegrationState();
  const steps = [CONNECT_TEXT.allowHttp, CONNECT_TEXT.loadString, pasteStep(state, isAdmin), CONNECT_TEXT.start];
  return (
    <Stack gap="2" data-testid="connect-steps">
      <Text color="fg.muted">{CONNECT_TEXT.intro}</Text>
      <List.Root as="ol" gap="1" ps="5" fontSize="sm">
        {steps.map((step) => (
          <List.Item key={step}>{step}</List.Item>
        ))}
      </List.Root>
    </Stack>
  );
}
