import {
  Alert,
  Badge,
  Center,
  CloseButton,
  DataList,
  Drawer,
  Portal,
  Spinner,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import type { PlayerRecord } from '@moonrelay/contract/players';
import { ApiError, messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { usePlayerRecord } from '../api/players.ts';
import { PlayerModeration } from './PlayerModeration.tsx';

/** Seconds as "3 h 12 min" (or "45 s"). */
export function formatPlayTime(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60).toLocaleString()} h ${minutes % 60} min`;
}

/** One player's record: totals, moderation, names seen and latest sessions. */
export function PlayerDrawer({ userId, onClose }: { userId: number | null; onClose(): void }) {
  return (
    <Drawer.Root
      open={userId !== null}
      onOpenChange={(details) => !details.open && onClose()}
      size={{ base: 'full', md: 'md' }}
      placement="end"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="player-record">
            {userId !== null && <PlayerDetail userId={userId} />}
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

function PlayerDetail({ userId }: { userId: number }) {
  const query = usePlayerRecord(userId);
  const player = query.data;
  return (
    <>
      <Drawer.Header>
        <Stack gap="1" minW="0">
          <Drawer.Title truncate>{player ? (player.displayName ?? player.name) : 'Player'}</Drawer.Title>
          <Text fontSize="sm" color="fg.muted">
            {player ? `@${player.name} · ` : ''}
            {userId}
          </Text>
        </Stack>
      </Drawer.Header>
      <Drawer.Body>
        {player ? (
          <PlayerBody player={player} />
        ) : query.isError ? (
          <Alert.Root status={query.error instanceof ApiError && query.error.status === 404 ? 'warning' : 'error'}>
            <Alert.Indicator />
            <Alert.Title>{messageOf(query.error, query.error.message)}</Alert.Title>
          </Alert.Root>
        ) : (
          <Center py="16">
            <Spinner aria-label="Loading player" />
          </Center>
        )}
      </Drawer.Body>
      <Drawer.CloseTrigger asChild>
        <CloseButton size="sm" aria-label="Close" />
      </Drawer.CloseTrigger>
    </>
  );
}

function PlayerBody({ player }: { player: PlayerRecord }) {
  return (
    <Stack gap="6">
      <DataList.Root orientation="horizontal" size="sm">
        <DataList.Item>
          <DataList.ItemLabel>Now</DataList.ItemLabel>
          <DataList.ItemValue>
            <Badge colorPalette={player.online ? 'green' : 'gray'}>{player.online ? 'Online' : 'Offline'}</Badge>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>First seen</DataList.ItemLabel>
          <DataList.ItemValue>{formatDateTime(player.firstSeen)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Last seen</DataList.ItemLabel>
          <DataList.ItemValue>{formatDateTime(player.lastSeen)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Play time</DataList.ItemLabel>
          <DataList.ItemValue>{formatPlayTime(player.playSeconds)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Sessions</DataList.ItemLabel>
          <DataList.ItemValue>{player.sessions.toLocaleString()}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Account age</DataList.ItemLabel>
          <DataList.ItemValue>
            {player.accountAgeDays === null ? '—' : `${player.accountAgeDays.toLocaleString()} days`}
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>

      <PlayerModeration userId={player.userId} online={player.online} />

      <Stack gap="2">
        <Text fontWeight="semibold">Names seen</Text>
        {player.namesSeen.map((name) => (
          <Text key={`${name.name}\n${name.displayName ?? ''}`} fontSize="sm">
            {name.displayName ?? name.name} (@{name.name}) · since {formatDateTime(name.firstSeen)}
          </Text>
        ))}
      </Stack>

      <Stack gap="2">
        <Text fontWeight="semibold">Latest sessions</Text>
        <Table.ScrollArea>
          <Table.Root size="sm" aria-label="Sessions">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Server</Table.ColumnHeader>
                <Table.ColumnHeader>Joined</Table.ColumnHeader>
                <Table.ColumnHeader>Left</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {player.recentSessions.map((session) => (
                <Table.Row key={`${session.serverId}\n${session.joinedAt}`} data-testid="player-session">
                  <Table.Cell maxW="10rem" truncate title={session.serverId}>
                    {session.serverId}
                  </Table.Cell>
                  <Table.Cell>{formatDateTime(session.joinedAt)}</Table.Cell>
                  <Table.Cell>{session.leftAt ? formatDateTime(session.leftAt) : 'Still there'}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      </Stack>
    </Stack>
  );
}
