import { Alert, Badge, Card, DataList, HStack, Stack, Text } from '@chakra-ui/react';
import { GAME_HEALTH } from '@moonrelay/contract/messages';
import { isSimulatedServerId } from '@moonrelay/contract/simulated';
import type { GameServerRefusal } from '@moonrelay/contract/game';
import type { PlayerData } from '@moonrelay/contract/game';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { formatTime } from '../../../lib/format.ts';
import { ServerErrorCount } from '../console/ServerErrorCount.tsx';
import { SimulatedBadge } from '../../../components/SimulatedBadge.tsx';
import { GAME_ACTIONS, GAME_TEXT } from '../game-text.ts';
import { ConnectSteps } from '../integration/ConnectSteps.tsx';
import type { GameLinkState } from '../../../lib/useGameLink.ts';
import { formatHealth, formatId, formatPosition } from './player-data.ts';

/** Game Connection: whether the game is connected and its player's data, or how to connect it. */
export function GameConnectionCard({ link }: { link: GameLinkState }) {
  const known = link.state === 'ready';
  // The server shown: the chosen one of several, or the only one.
  const shownServerId = link.serverId ?? link.liveServers[0]?.serverId;
  return (
    <Card.Root role="region" aria-label="Game Connection">
      <Card.Header>
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Card.Title whiteSpace="nowrap">Game Connection</Card.Title>
          {known && (
            <HStack gap="2">
              {link.connected && isSimulatedServerId(shownServerId) && <SimulatedBadge />}
              {link.connected && link.studio && (
                <Badge colorPalette="purple" title={GAME_HEALTH.studioBadgeHint} data-testid="game-studio">
                  {GAME_HEALTH.studioBadge}
                </Badge>
              )}
              <Badge colorPalette={link.connected ? 'green' : 'red'} data-testid="game-connection">
                {link.connected ? GAME_TEXT.connected : GAME_TEXT.disconnected}
              </Badge>
            </HStack>
          )}
        </HStack>
      </Card.Header>
      <Card.Body>
        {link.serverBudget && <ServerBudgetWarning refusal={link.serverBudget} />}
        {link.refusedPings.length > 0 && <RefusedPings refusals={link.refusedPings} />}
        {link.state === 'refused' ? (
          <PermissionNotes notes={[{ action: GAME_ACTIONS.status, can: link.watch }]} />
        ) : link.state === 'loading' ? (
          <Text color="fg.muted">Checking the game connection...</Text>
        ) : link.state === 'failed' ? (
          <Text color="fg.error">The game status could not be loaded.</Text>
        ) : link.connected ? (
          <Stack gap="3">
            <Text>{GAME_TEXT.receivingCommands}</Text>
            <Text fontSize="sm" color="fg.muted">
              Last ping: {formatTime(link.lastPing)}
            </Text>
            <PlayerDataList data={link.gameData ?? {}} />
            <ServerErrorCount serverId={shownServerId} />
          </Stack>
        ) : (
          <ConnectSteps />
        )}
      </Card.Body>
    </Card.Root>
  );
}

function PlayerDataList({ data }: { data: PlayerData }) {
  const rows: [string, string][] = [
    ['Position', formatPosition(data.position)],
    ['Health', formatHealth(data)],
    ['Player', data.playerName ?? 'Unknown'],
    ['User ID', formatId(data.userId)],
    ['Game ID', formatId(data.gameId)],
  ];
  return (
    <DataList.Root orientation="horizontal" size="sm" gap="2">
      {rows.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue>{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

/** The game's own health: servers whose pings Moonrelay refuses, with the reason each was given. */
function RefusedPings({ refusals }: { refusals: GameServerRefusal[] }) {
  return (
    <Alert.Root status="error" mb="4" data-testid="game-pings-refused">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{GAME_HEALTH.pingsRefused}</Alert.Title>
        <Alert.Description>
          <Stack gap="1">
            {refusals.map((refusal) => (
              <Text key={refusal.serverId} fontSize="sm" wordBreak="break-word">
                {refusal.serverId}: {refusal.reason} ({formatTime(refusal.refusedAt)})
              </Text>
            ))}
            <Text fontSize="sm">{GAME_HEALTH.pingsRefusedHint}</Text>
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/** Game servers refused because the API key has as many as it may (or as many new ones this minute). */
function ServerBudgetWarning({ refusal }: { refusal: GameServerRefusal }) {
  return (
    <Alert.Root status="warning" mb="4" data-testid="game-server-budget">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{GAME_HEALTH.serverBudget}</Alert.Title>
        <Alert.Description>
          <Stack gap="1">
            <Text fontSize="sm" wordBreak="break-word">
              {refusal.reason} ({formatTime(refusal.refusedAt)})
            </Text>
            <Text fontSize="sm">{GAME_HEALTH.serverBudgetHint}</Text>
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
