import { Card, DataList, HStack, Stack, Status, Text, Wrap } from '@chakra-ui/react';
import { Heart, MapPin, RotateCcw, Zap } from 'lucide-react';
import type { AdminConnection } from '@moonrelay/contract/admin';
import { ADMIN_QUICK_SPEED, QUICK_TELEPORTS } from '@moonrelay/contract/constants';
import type { GameCommandType } from '@moonrelay/contract/game';
import { isSimulatedServerId } from '@moonrelay/contract/simulated';
import { CommandStatusBadge } from '../../../../components/CommandStatusBadge.tsx';
import { formatTime, shortId } from '../../../../lib/format.ts';
import { SimulatedBadge } from '../../../../components/SimulatedBadge.tsx';
import { connectionKey, useAdminLiveStore } from '../../live/admin-live-store.ts';
import { accountLine, gameIdText, healthText, positionText } from './connection-data.ts';
import { QuickCommandButton } from './QuickCommandButton.tsx';
import { UserConsoleButton } from './UserConsoleButton.tsx';

/**
 * One game server of one user (spec section 2, Connections): a connected/disconnected dot, the
 * user's name and email, the player's position (rounded), health over max health, game id and
 * last ping, and the quick buttons Spawn (0, 50, 0), Heal, Speed (50) and Reset. The buttons act
 * on this game server, so they are disabled while it is disconnected. Its Console opens the user's
 * game console (its lines are kept after the server stops, so it is offered either way).
 */
export function ConnectionCard({ connection }: { connection: AdminConnection }) {
  const { userId, serverId, isConnected, gameData } = connection;
  const simulated = isSimulatedServerId(serverId);
  const rows: [label: string, value: string, full?: string][] = [
    ['Position', positionText(gameData?.position)],
    ['Health', healthText(gameData)],
    ['Game ID', gameIdText(gameData)],
    ['Last Ping', formatTime(connection.lastPing)],
    // A simulated server's id is short: whole, it says what it is.
    ['Server', simulated ? serverId : shortId(serverId), serverId],
  ];
  const disabled = !isConnected;
  return (
    <Card.Root size="sm" role="article" aria-label={`Connection of ${connection.userName}`} data-testid="connection">
      <Card.Header>
        <HStack justify="space-between" gap="2">
          <HStack gap="2" minW="0">
            <Status.Root colorPalette={isConnected ? 'green' : 'gray'} size="md">
              <Status.Indicator data-testid="connection-dot" data-connected={isConnected} />
            </Status.Root>
            <Text fontWeight="semibold" truncate>
              {connection.userName}
            </Text>
            {simulated && <SimulatedBadge size="sm" flexShrink={0} />}
          </HStack>
          <Text fontSize="xs" color={isConnected ? 'fg.success' : 'fg.muted'} flexShrink={0}>
            {isConnected ? 'Connected' : 'Disconnected'}
          </Text>
        </HStack>
        <Text fontSize="sm" color="fg.muted" truncate>
          {accountLine(connection)}
        </Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="3">
          <DataList.Root orientation="horizontal" size="sm" gap="1.5">
            {rows.map(([label, value, full]) => (
              <DataList.Item key={label}>
                <DataList.ItemLabel>{label}</DataList.ItemLabel>
                <DataList.ItemValue title={full}>{value}</DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList.Root>
          <Wrap gap="2">
            <QuickCommandButton
              userId={userId}
              serverId={serverId}
              command={{ type: 'teleport', data: { ...QUICK_TELEPORTS.spawn } }}
              disabled={disabled}
            >
              <MapPin /> Spawn
            </QuickCommandButton>
            <QuickCommandButton
              userId={userId}
              serverId={serverId}
              command={{ type: 'heal', data: {} }}
              disabled={disabled}
              colorPalette="green"
            >
              <Heart /> Heal
            </QuickCommandButton>
            <QuickCommandButton
              userId={userId}
              serverId={serverId}
              command={{ type: 'speed', data: { speed: ADMIN_QUICK_SPEED } }}
              disabled={disabled}
              colorPalette="blue"
            >
              <Zap /> Speed
            </QuickCommandButton>
            <QuickCommandButton
              userId={userId}
              serverId={serverId}
              command={{ type: 'reset', data: {} }}
              disabled={disabled}
              colorPalette="red"
            >
              <RotateCcw /> Reset
            </QuickCommandButton>
            <UserConsoleButton connection={connection} />
          </Wrap>
          <LastCommand userId={userId} serverId={serverId} />
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

const COMMAND_NAMES: Record<GameCommandType, string> = {
  teleport: 'Spawn',
  heal: 'Heal',
  speed: 'Speed',
  reset: 'Reset',
  execute: 'Script',
  script: 'Script',
  ban: 'Ban',
  unban: 'Unban',
  kick: 'Kick',
  warn: 'Warning',
};

/** How the last command sent from this card is doing, as `command:update` events tell. */
function LastCommand({ userId, serverId }: { userId: string; serverId: string }) {
  const sent = useAdminLiveStore((state) => state.sentFromCard[connectionKey(userId, serverId)]);
  const command = useAdminLiveStore((state) => (sent ? state.commands[sent.commandId] : undefined));
  if (!sent) return null;
  return (
    <Stack gap="1">
      <HStack gap="2" fontSize="sm" data-testid="connection-last-command">
        <Text color="fg.muted">Last command:</Text>
        <Text fontWeight="medium">{COMMAND_NAMES[sent.type]}</Text>
        <CommandStatusBadge status={command?.status ?? 'queued'} />
      </HStack>
      {command?.status === 'failed' && command.error && (
        <Text fontSize="sm" color="fg.error">
          {command.error}
        </Text>
      )}
    </Stack>
  );
}
