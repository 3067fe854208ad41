import { Alert, Badge, Button, Card, Center, Flex, Input, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useDeferredValue, useMemo, useState } from 'react';
import type { OnlinePlayer } from '@moonrelay/contract/players';
import { PageHeading } from '../../../components/PageHeading.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useOnlinePlayers, usePlayersLiveEvents } from '../api/players.ts';
import { PlayerDrawer } from './PlayerDrawer.tsx';

export const PLAYERS_TEXT = {
  title: 'Players',
  subtitle: 'Who is playing in your games now, across every server. Open a player for their record.',
  search: 'Search by name, display name or user id',
  server: 'Server id',
  loading: 'Loading players…',
  loadFailed: 'Could not load the players',
  empty: 'Nobody is playing in your games right now.',
  emptyFiltered: 'No player online matches these filters.',
  loadMore: 'Load more',
  online: (shown: number, total: number) =>
    total === 1
      ? '1 player online'
      : `${total.toLocaleString()} players online${shown < total ? `, ${shown.toLocaleString()} shown` : ''}`,
};

/** The Players screen: everyone online, live (joins and leaves refetch the list), searchable, by server. */
export function PlayersScreen() {
  usePlayersLiveEvents();
  const [q, setQ] = useState('');
  const [serverId, setServerId] = useState('');
  // Typing does not refetch on every key while the last answer is still arriving.
  const filter = useDeferredValue(useMemo(() => ({ q, serverId }), [q, serverId]));
  const online = useOnlinePlayers(filter);
  const players = useMemo(() => online.data?.pages.flatMap((page) => page.players) ?? [], [online.data]);
  const total = online.data?.pages[0]?.total ?? 0;
  const [selected, setSelected] = useState<number | null>(null);
  const filtered = Boolean(q.trim() || serverId.trim());

  return (
    <Stack gap="6">
      <Stack gap="1">
        <PageHeading>{PLAYERS_TEXT.title}</PageHeading>
        <Text color="fg.muted">{PLAYERS_TEXT.subtitle}</Text>
      </Stack>
      <Card.Root size={{ base: 'sm', md: 'md' }}>
        <Card.Header>
          <Flex gap="3" wrap="wrap" align="center">
            <Input
              flex="2 1 16rem"
              type="search"
              aria-label={PLAYERS_TEXT.search}
              placeholder={PLAYERS_TEXT.search}
              value={q}
              maxLength={100}
              onChange={(event) => setQ(event.target.value)}
            />
            <Input
              flex="1 1 10rem"
              aria-label={PLAYERS_TEXT.server}
              placeholder={PLAYERS_TEXT.server}
              value={serverId}
              maxLength={100}
              onChange={(event) => setServerId(event.target.value)}
            />
            {online.data && (
              <Text fontSize="sm" color="fg.muted" role="status" data-testid="players-online">
                {PLAYERS_TEXT.online(players.length, total)}
              </Text>
            )}
          </Flex>
        </Card.Header>
        <Card.Body>
          {online.isPending ? (
            <Center py="10" gap="2" color="fg.muted">
              <Spinner size="sm" /> {PLAYERS_TEXT.loading}
            </Center>
          ) : online.isError && !online.data ? (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{PLAYERS_TEXT.loadFailed}</Alert.Title>
                <Alert.Description>{messageOf(online.error, online.error.message)}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : players.length === 0 ? (
            <Text color="fg.muted" py="6" textAlign="center">
              {filtered ? PLAYERS_TEXT.emptyFiltered : PLAYERS_TEXT.empty}
            </Text>
          ) : (
            <Stack gap="4">
              <OnlineTable players={players} onSelect={(player) => setSelected(player.userId)} />
              {online.hasNextPage && (
                <Center>
                  <Button
                    variant="outline"
                    size="sm"
                    loading={online.isFetchingNextPage}
                    onClick={() => void online.fetchNextPage()}
                  >
                    {PLAYERS_TEXT.loadMore}
                  </Button>
                </Center>
              )}
            </Stack>
          )}
        </Card.Body>
      </Card.Root>
      <PlayerDrawer userId={selected} onClose={() => setSelected(null)} />
    </Stack>
  );
}

const wideOnly = { hideBelow: 'md' } as const;

function OnlineTable({ players, onSelect }: { players: OnlinePlayer[]; onSelect(player: OnlinePlayer): void }) {
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" interactive aria-label="Players online">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Player</Table.ColumnHeader>
            <Table.ColumnHeader {...wideOnly}>User id</Table.ColumnHeader>
            <Table.ColumnHeader>Server</Table.ColumnHeader>
            <Table.ColumnHeader {...wideOnly}>Joined</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end" {...wideOnly}>
              Account age
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {players.map((player) => (
            <Table.Row key={`${player.serverId}:${player.userId}`} data-testid="player-row">
              <Table.Cell>
                <Button
                  variant="plain"
                  size="sm"
                  px="0"
                  h="auto"
                  textAlign="start"
                  onClick={() => onSelect(player)}
                  aria-label={`Open ${player.name}`}
                >
                  <Stack gap="0" align="flex-start">
                    <Text fontWeight="medium">{player.displayName ?? player.name}</Text>
                    <Text fontSize="xs" color="fg.muted">
                      @{player.name}
                      {player.userId < 0 && (
                        <Badge ms="2" size="xs">
                          Studio
                        </Badge>
                      )}
                    </Text>
                  </Stack>
                </Button>
              </Table.Cell>
              <Table.Cell {...wideOnly}>{player.userId}</Table.Cell>
              <Table.Cell maxW="12rem" truncate title={player.serverId}>
                {player.serverId}
              </Table.Cell>
              <Table.Cell {...wideOnly}>{formatDateTime(player.joinedAt)}</Table.Cell>
              <Table.Cell textAlign="end" {...wideOnly}>
                {player.accountAgeDays === null ? '—' : `${player.accountAgeDays.toLocaleString()} days`}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
