import { Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { INTEGRATION_KEY_NAME } from '@moonrelay/contract/api-keys';
import type { IntegrationScripts } from '@moonrelay/contract/game';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { GAME_ACTIONS } from '../game-text.ts';
import { IntegrationScriptCard } from './IntegrationScriptCard.tsx';
import { HostNotServedNotice, ReachabilityNotice } from './ReachabilityNotice.tsx';
import { useIntegrationState } from './useIntegrationState.ts';

type ScriptName = Exclude<keyof IntegrationScripts, 'reachability'>;

const CARDS: { key: ScriptName; title: string; description: string; fileName: string }[] = [
  {
    key: 'quickLoader',
    title: 'Quick Loader',
    description:
      'One line that loads the full integration. Paste it into a Script in ServerScriptService; it needs Allow HTTP Requests turned on (Game Settings > Security) and LoadStringEnabled ticked on ServerScriptService.',
    fileName: 'quick-loader.txt',
  },
  {
    key: 'gameIntegration',
    title: 'Full Game Integration Script',
    description: 'The whole integration script, to keep in your game instead of loading it.',
    fileName: 'game-integration.txt',
  },
  {
    key: 'teleportExample',
    title: 'Dashboard Teleport Script',
    description: 'An example: teleports the player to named locations (spawn, tower, arena, secret).',
    fileName: 'teleport-example.txt',
  },
];

/**
 * The game integration scripts panel (spec section 2). The server templates them with its public
 * URL and the user's game key (a scoped key that can only connect a game), so what is copied works
 * as it is and a collaborator who reads the game's Script cannot change scripts with it.
 */
export function IntegrationPanel() {
  const { state, isAdmin } = useIntegrationState();

  let content;
  if (state.kind === 'shown') {
    const loaded = state.scripts;
    content = (
      <>
        <ReachabilityNotice reachability={loaded.reachability} isAdmin={isAdmin} />
        <SimpleGrid columns={{ base: 1, xl: 3 }} gap="4" alignItems="start">
          {CARDS.map(({ key, ...card }) => (
            <IntegrationScriptCard key={key} {...card} script={loaded[key]} />
          ))}
        </SimpleGrid>
      </>
    );
  } else if (state.kind === 'not-served') {
    content = <HostNotServedNotice isAdmin={isAdmin} />;
  } else if (state.kind === 'refused') {
    content = <PermissionNotes notes={[{ action: GAME_ACTIONS.integration, can: state.keys }]} />;
  } else if (state.kind === 'failed') {
    content = <Text color="fg.error">{messageOf(state.error, 'The integration scripts could not be loaded.')}</Text>;
  } else {
    content = <Text color="fg.muted">Loading integration scripts...</Text>;
  }

  return (
    <Stack as="section" aria-label="Game Integration" gap="4">
      <Heading size="lg">Game Integration</Heading>
      {state.kind !== 'not-served' && (
        <Text color="fg.muted" fontSize="sm">
          These scripts carry your game key, “{INTEGRATION_KEY_NAME}”: it connects your game and runs your auto-execute
          scripts, but cannot change your scripts or run other code. Revoke it in Settings to cut every game that uses
          it.
        </Text>
      )}
      {content}
    </Stack>
  );
}
