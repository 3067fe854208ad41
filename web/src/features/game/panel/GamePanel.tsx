import { Flex, Heading, SimpleGrid, Stack } from '@chakra-ui/react';
import { SimulatorBar } from '../simulator/SimulatorBar.tsx';
import { useGameLink } from '../../../lib/useGameLink.ts';
import { GameConnectionCard } from './GameConnectionCard.tsx';
import { GameControlsCard } from './GameControlsCard.tsx';
import { PlayerProfileCard } from './PlayerProfileCard.tsx';
import { ServerPicker } from './ServerPicker.tsx';

/** The dashboard's game control panel (spec section 2): connection, player profile and controls. */
export function GamePanel() {
  const link = useGameLink();
  return (
    <Stack as="section" aria-label="Game" gap="4">
      <Flex justify="space-between" align="flex-end" wrap="wrap" gap="3">
        <Heading size="lg">Game</Heading>
        <ServerPicker liveServers={link.liveServers} serverId={link.serverId} />
      </Flex>
      <SimulatorBar link={link} />
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4" alignItems="start">
        <GameConnectionCard link={link} />
        <PlayerProfileCard connected={link.connected} userId={link.gameData?.userId} />
        <GameControlsCard connected={link.connected} serverId={link.serverId} />
      </SimpleGrid>
    </Stack>
  );
}
