import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Flex,
  Input,
  Spinner,
  Stack,
  Table,
  Tabs,
  Text,
} from '@chakra-ui/react';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { OnlinePlayer } from '@moonrelay/contract/players';
import { isSimulatedServerId } from '@moonrelay/contract/simulated';
import { PageHeading } from '../../../components/PageHeading.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useRowWindow } from '../../../lib/row-window.ts';
import { useCan } from '../../../lib/team-access.ts';
import { SimulatedBadge } from '../../../components/SimulatedBadge.tsx';
import { useOnlinePlayers, usePlayersLiveEvents } from '../api/players.ts';
import { BansList } from './BansList.tsx';
import { PlayerDrawer } from './PlayerDrawer.tsx';

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
  online: (shown: number, total: number) =>
    total === 1
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
  const [q, setQ] = useState('');
  const [serverId, setServerId] = useState('');
  // Typing does not refetch on every key while the last answer is still arriving.
  const filter = useDeferredValue(useMemo(() => ({ q, serverId }), [q, serverId]));
  const online = useOnlinePlayers(filter);
  const players = useMemo(() => online.data?.pages.flatMap((page) => page.players) ?? [], [online.data]);
  const total = online.data?.pages[0]?.total ?? 0;
  const filtered = Boolean(q.trim() || serverId.trim());

  return (
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
          <OnlineTable
            players={players}
            total={total}
            more={online.hasNextPage}
            loadingMore={online.isFetchingNextPage}
            fetching={online.isFetching}
            // Not instead of a live refresh on its way: asked again once that has come.
            onNeedMore={() => void online.fetchNextPage({ cancelRefetch: false })}
            onSelect={(player) => onSelect(player.userId)}
          />
        )}
      </Card.Body>
    </Card.Root>
  );
}

const wideOnly = { hideBelow: 'md' } as const;
/** Each row's height in pixels: fixed, so the list knows where any row is without drawing it. */
const ROW_HEIGHT = 56;
/** The next page is asked for this many rows before the end of those loaded. */
const LOAD_AHEAD_ROWS = 20;

/**
 * Everyone online as a table that draws only the rows in view (a few hundred or ten thousand
 * players alike) and fetches the next page as the end comes near. Rows are reachable with Tab, and
 * the up and down arrows move between players, scrolling the list.
 */
function OnlineTable({
  players,
  total,
  more,
  loadingMore,
  fetching,
  onNeedMore,
  onSelect,
}: {
  players: OnlinePlayer[];
  total: number;
  more: boolean;
  loadingMore: boolean;
  fetching: boolean;
  onNeedMore(): void;
  onSelect(player: OnlinePlayer): void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useRowWindow(scroller, players.length, ROW_HEIGHT);
  const nearEnd = rows.end + LOAD_AHEAD_ROWS >= players.length;
  // Asked whenever the list is near its end and nothing is on its way, and looked at again each
  // time a fetch ends. Not on the edge of "near the end" alone: a live refresh that replaces the
  // page request before a render sees it would leave the list stuck at its last page.
  const needMore = useRef(onNeedMore);
  needMore.current = onNeedMore;
  useEffect(() => {
    if (more && nearEnd && !fetching) needMore.current();
  }, [more, nearEnd, fetching, players.length]);

  // Arrow keys: the row above or below is scrolled into view, drawn, then focused.
  const [focusNext, setFocusNext] = useState<number | null>(null);
  useEffect(() => {
    if (focusNext === null) return;
    const button = scroller.current?.querySelector<HTMLButtonElement>(`[data-row-index="${focusNext}"] button`);
    if (button) {
      button.focus();
      setFocusNext(null);
    }
  });
  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    const target = index + step;
    if (step === 0 || target < 0 || target >= players.length) return;
    event.preventDefault();
    rows.reveal(target);
    setFocusNext(target);
  };

  return (
    // No scroll anchoring: the browser moving the view to keep a row in place as the space above
    // changes would scroll again, and again.
    <Box
      ref={scroller}
      maxH="min(70vh, 42rem)"
      overflow="auto"
      style={{ overflowAnchor: 'none' }}
      data-testid="players-scroller"
    >
      <Table.Root size="sm" interactive stickyHeader aria-label="Players online" aria-rowcount={total + 1}>
        <Table.Header>
          <Table.Row aria-rowindex={1}>
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
          {rows.before > 0 && <tr aria-hidden style={{ height: rows.before }} />}
          {players.slice(rows.start, rows.end).map((player, offset) => {
            const index = rows.start + offset;
            return (
              <Table.Row
                key={`${player.serverId}:${player.userId}`}
                data-testid="player-row"
                data-row-index={index}
                aria-rowindex={index + 2}
                style={{ height: ROW_HEIGHT }}
              >
                <Table.Cell>
                  <Button
                    variant="plain"
                    size="sm"
                    px="0"
                    h="auto"
                    textAlign="start"
                    onClick={() => onSelect(player)}
                    onKeyDown={onKeyDown(index)}
                    aria-label={`Open ${player.name}`}
                  >
                    <Stack gap="0" align="flex-start">
                      <Text fontWeight="medium" lineClamp={1}>
                        {player.displayName ?? player.name}
                      </Text>
                      <Text fontSize="xs" color="fg.muted" lineClamp={1}>
                        @{player.name}
                        {isSimulatedServerId(player.serverId) ? (
                          <SimulatedBadge ms="2" size="xs" />
                        ) : (
                          player.userId < 0 && (
                            <Badge ms="2" size="xs">
                              Studio
                            </Badge>
                          )
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
            );
          })}
          {rows.after > 0 && <tr aria-hidden style={{ height: rows.after }} />}
        </Table.Body>
      </Table.Root>
      {loadingMore && (
        <Center py="3" gap="2" color="fg.muted" fontSize="sm">
          <Spinner size="xs" /> {PLAYERS_TEXT.loadingMore}
        </Center>
      )}
    </Box>
  );
}
