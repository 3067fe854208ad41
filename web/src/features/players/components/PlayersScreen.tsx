import { Alert, Card, Center, Flex, Spinner, Stack, Tabs, Text } from '@chakra-ui/react';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { OnlinePlayer } from '@moonrelay/contract/players';
import { PageHeading } from '../../../components/PageHeading.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useCan } from '../../../lib/team-access.ts';
import { useOnlinePlayers, usePlayersLiveEvents, type OnlinePlayersFilter } from '../api/players.ts';
import { BansList } from './BansList.tsx';
import { OnlinePlayersTable } from './OnlinePlayersTable.tsx';
import { PlayerDrawer } from './PlayerDrawer.tsx';
import { PlayerFilters } from './PlayerFilters.tsx';

export const PLAYERS_TEXT = {
  title: 'Players',
  subtitle: 'Who is playing in your games now, across every server, and who is banned. Open a player for their record.',
  tabs: { online: 'Online now', bans: 'Bans' },
  search: 'Search by name, display name or user id',
  server: 'Server id',
  loading: 'Loading players…',
  loadFailed: 'Could not load the players',
  empty: 'Nobody is playing in your games right now.',
  emptyFiltered: 'No player online matches these filters.',
  loadingMore: 'Loading more players…',
  /** The note's name for the screen, where the member's role does not allow it. */
  see: 'See the players and the bans',
  online: (shown: number, total: number, capped = false) =>
    capped
      ? `${total.toLocaleString()}+ players online match, ${shown.toLocaleString()} shown`
      : total === 1
        ? '1 player online'
        : `${total.toLocaleString()} players online${shown < total ? `, ${shown.toLocaleString()} shown` : ''}`,
};

type PlayersTab = 'online' | 'bans';

/**
 * The Players screen: everyone online, live (joins and leaves refetch the list), searchable, by
 * server; and the game's ban list. The open tab is in the address (?tab=bans). Where the member's
 * role may not see the team's players (players.read), neither list is asked for: a note says why.
 */
export function PlayersScreen() {
  usePlayersLiveEvents();
  const read = useCan('players.read');
  const [params, setParams] = useSearchParams();
  const tab: PlayersTab = params.get('tab') === 'bans' ? 'bans' : 'online';
  const [selected, setSelected] = useState<number | null>(null);

  return (
    <Stack gap="6">
      <Stack gap="1">
        <PageHeading>{PLAYERS_TEXT.title}</PageHeading>
        <Text color="fg.muted">{PLAYERS_TEXT.subtitle}</Text>
      </Stack>
      {!read.allowed ? (
        <PermissionNotes notes={[{ action: PLAYERS_TEXT.see, can: read }]} />
      ) : (
        <Tabs.Root
          value={tab}
          onValueChange={(event) => setParams(event.value === 'bans' ? { tab: 'bans' } : {}, { replace: true })}
          lazyMount
          variant="line"
          colorPalette="purple"
        >
          <Tabs.List>
            <Tabs.Trigger value="online">{PLAYERS_TEXT.tabs.online}</Tabs.Trigger>
            <Tabs.Trigger value="bans">{PLAYERS_TEXT.tabs.bans}</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="online">
            <OnlinePlayers onSelect={setSelected} />
          </Tabs.Content>
          <Tabs.Content value="bans">
            <Card.Root size={{ base: 'sm', md: 'md' }}>
              <Card.Body>
                <BansList onSelect={setSelected} />
              </Card.Body>
            </Card.Root>
          </Tabs.Content>
        </Tabs.Root>
      )}
      <PlayerDrawer userId={selected} onClose={() => setSelected(null)} />
    </Stack>
  );
}

/** Everyone online now, searchable by name or id and filterable by server. */
function OnlinePlayers({ onSelect }: { onSelect(userId: number): void }) {
  const [filter, setFilter] = useState<OnlinePlayersFilter>({ q: '', serverId: '' });
  const online = useOnlinePlayers(filter);
  const players = useMemo(() => online.data?.pages.flatMap((page) => page.players) ?? [], [online.data]);
  const total = online.data?.pages[0]?.total ?? 0;
  // A broad search over every server counts its first matches only (1,000+).
  const capped = online.data?.pages[0]?.totalCapped ?? false;
  const filtered = Boolean(filter.q.trim() || filter.serverId.trim());
  const select = useCallback((player: OnlinePlayer) => onSelect(player.userId), [onSelect]);

  return (
    <Card.Root size={{ base: 'sm', md: 'md' }}>
      <Card.Header>
        <Flex gap="3" wrap="wrap" align="center">
          <PlayerFilters searchLabel={PLAYERS_TEXT.search} serverLabel={PLAYERS_TEXT.server} onChange={setFilter} />
          {online.data && (
            <Text fontSize="sm" color="fg.muted" role="status" data-testid="players-online">
              {PLAYERS_TEXT.online(players.length, total, capped)}
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
          <OnlinePlayersTable
            players={players}
            total={total}
            more={online.hasNextPage}
            loadingMore={online.isFetchingNextPage}
            loadingMoreText={PLAYERS_TEXT.loadingMore}
            fetching={online.isFetching}
            // Not instead of a live refresh on its way: asked again once that has come.
            onNeedMore={() => void online.fetchNextPage({ cancelRefetch: false })}
            onSelect={select}
          />
        )}
      </Card.Body>
    </Card.Root>
  );
}
