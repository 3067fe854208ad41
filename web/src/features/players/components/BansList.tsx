import { Alert, Badge, Box, Button, Center, defineStyle, Heading, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { memo, useCallback, useMemo, type ComponentType } from 'react';
import type { BanList } from '@moonrelay/contract/moderation';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { usePagedRows } from '../../../lib/paged-rows.ts';
import { useBanPages } from '../api/moderation.ts';
import { BAN_STATE_PALETTES, BAN_PATH_LABELS, formatBanLength } from './ban-labels.ts';

export const BANS_TEXT = {
  loading: 'Loading bans…',
  loadFailed: 'Could not load the bans',
  ours: 'Bans from Moonrelay',
  oursEmpty: 'No ban from Moonrelay is in force.',
  elsewhere: 'Bans made elsewhere',
  elsewhereHint:
    'Bans in force in Roblox that Moonrelay did not make (Creator Hub, other tools), as of the last Open Cloud import. Open a player to lift one.',
  elsewhereEmpty: 'None found at the last Open Cloud import.',
  loadMore: 'Load more bans',
};

type OurBan = BanList['bans'][number];
type ElsewhereBan = BanList['elsewhere'][number];

/** A row's height as first guessed: a row is measured once drawn (a reason takes one line or two). */
const ROW_ESTIMATE = 64;
const rowEstimate = () => ROW_ESTIMATE;
const ourBanKey = (ban: OurBan) => ban.id;
const elsewhereBanKey = (ban: ElsewhereBan) => ban.userId;
/**
 * Rows drawn past each edge of the view: Tab always has a next player to reach, and the sticky
 * header's height, which the row positions leave out, is covered.
 */
const OVERSCAN = 6;

/** How a table pages: Moonrelay's bans come a page at a time, those made elsewhere all at once. */
interface Paging {
  more: boolean;
  loadAhead: boolean;
  onNeedMore(): void;
}
const ALL_LOADED: Paging = { more: false, loadAhead: false, onNeedMore: () => {} };

/**
 * How a row looks, declared once for each table: the cells' layout by class rather than style
 * props on every cell of every row (decision 051).
 */
const BAN_ROWS_CSS = defineStyle({
  '& td.ban-reason': { maxW: '16rem' },
  '& .ban-clamp': { lineClamp: 2 },
  '& .ban-state': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '1' },
  '& .ban-small': { display: 'block', fontSize: 'xs' },
  '& .ban-state .ban-small': { display: 'inline' },
  '& .ban-by': { display: 'block', fontSize: 'sm' },
  '& .ban-muted': { color: 'fg.muted' },
  '& .ban-error': { color: 'fg.error' },
  // The space standing in for rows not drawn is no row to point at: the interactive table's hover
  // colour stays off it.
  '& tbody tr[data-spacer]:hover': { bg: 'transparent' },
});

/** When a timed ban ends (from when it took effect), or "never". */
function banEnds(ban: { durationSeconds: number | null }, since: string | null): string {
  if (ban.durationSeconds === null) return 'never';
  if (!since) return '—';
  return formatDateTime(new Date(Date.parse(since) + ban.durationSeconds * 1000).toISOString());
}

/**
 * The game's ban list: Moonrelay's bans in force (with how each reaches Roblox and where it
 * stands), a page at a time as the list is scrolled, and, with an Open Cloud key, the bans made
 * elsewhere. A row opens the player.
 */
export function BansList({ onSelect }: { onSelect(userId: number): void }) {
  const list = useBanPages();
  const bans = useMemo(() => list.data?.pages.flatMap((page) => page.bans) ?? [], [list.data]);
  const { fetchNextPage } = list;
  const loadNext = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);
  const paging: Paging = {
    more: list.hasNextPage,
    // Not while the loaded pages are being fetched again (asked again once they have come), nor
    // again by itself after a page failed to come: the button asks again.
    loadAhead: !list.isFetching && !list.isFetchNextPageError,
    onNeedMore: loadNext,
  };
  if (list.isPending)
    return (
      <Center py="10" gap="2" color="fg.muted">
        <Spinner size="sm" /> {BANS_TEXT.loading}
      </Center>
    );
  // A failed next page keeps the pages loaded; Load more asks again.
  if (list.isError && !list.data)
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{BANS_TEXT.loadFailed}</Alert.Title>
          <Alert.Description>{messageOf(list.error, list.error.message)}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  const { total, elsewhere } = list.data.pages[0]!;
  return (
    <Stack gap="8">
      <Stack gap="3" as="section" aria-labelledby="bans-ours">
        <Heading as="h2" size="md" id="bans-ours">
          {BANS_TEXT.ours} ({total.toLocaleString()})
        </Heading>
        {bans.length === 0 ? (
          <Text color="fg.muted">{BANS_TEXT.oursEmpty}</Text>
        ) : (
          <BanTable
            label={BANS_TEXT.ours}
            columns={['Player', 'Reason', 'Length', 'Ends', 'State', 'By']}
            items={bans}
            keyOf={ourBanKey}
            row={OurBanRow}
            onSelect={onSelect}
            paging={paging}
          />
        )}
        {/* Scrolling loads the next page by itself; the button is the keyboard's way, and a retry. */}
        {list.hasNextPage && (
          <Center>
            <Button
              variant="outline"
              size="sm"
              loading={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
            >
              {BANS_TEXT.loadMore}
            </Button>
          </Center>
        )}
      </Stack>
      <Stack gap="3" as="section" aria-labelledby="bans-elsewhere">
        <Heading as="h2" size="md" id="bans-elsewhere">
          {BANS_TEXT.elsewhere} ({elsewhere.length.toLocaleString()})
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {BANS_TEXT.elsewhereHint}
        </Text>
        {elsewhere.length === 0 ? (
          <Text color="fg.muted">{BANS_TEXT.elsewhereEmpty}</Text>
        ) : (
          <BanTable
            label={BANS_TEXT.elsewhere}
            columns={['Player', 'Reason', 'Length', 'Since', 'Ends']}
            items={elsewhere}
            keyOf={elsewhereBanKey}
            row={ElsewhereBanRow}
            onSelect={onSelect}
            paging={ALL_LOADED}
          />
        )}
      </Stack>
    </Stack>
  );
}

/** What a row of either table is given. */
interface RowProps<T> {
  ban: T;
  /** The row's place in its table (0 for the first ban), for screen readers counting rows. */
  index: number;
  measure(row: Element | null): void;
  onSelect(userId: number): void;
}

/**
 * A table of bans in a scroll box of its own that draws only the rows in view: Moonrelay keeps
 * every ban in force, so a game's list has no end the screen could draw at once; with `paging`, the
 * next page is asked for as the end of the loaded rows comes near. It scrolls sideways too on a
 * narrow screen, and is a tab stop while it scrolls. Spacer rows (hidden from screen readers) stand
 * in for the rows not drawn; each row says its place in the whole table.
 */
function BanTable<T>({
  label,
  columns,
  items,
  keyOf,
  row: Row,
  onSelect,
  paging,
}: {
  label: string;
  columns: string[];
  items: readonly T[];
  keyOf(ban: T): string | number;
  row: ComponentType<RowProps<T>>;
  onSelect(userId: number): void;
  paging: Paging;
}) {
  const { scrollerRef, tabIndex, measure, drawn, before, after } = usePagedRows(
    items,
    { keyOf, estimateSize: rowEstimate, overscan: OVERSCAN, screenful: ROW_ESTIMATE * 10 },
    paging,
  );
  return (
    // No scroll anchoring: the browser keeping a row in place as the space above changes would scroll again.
    <Box
      ref={scrollerRef}
      tabIndex={tabIndex}
      role="region"
      aria-label={label}
      maxH="min(60vh, 36rem)"
      overflow="auto"
      overflowAnchor="none"
      focusVisibleRing="inside"
      borderRadius="md"
    >
      <Table.Root
        size="sm"
        interactive
        stickyHeader
        aria-label={label}
        // Unknown (-1) while more pages remain; the header row is the first.
        aria-rowcount={paging.more ? -1 : items.length + 1}
        minW="40rem"
        css={BAN_ROWS_CSS}
      >
        <Table.Header>
          <Table.Row aria-rowindex={1}>
            {columns.map((column) => (
              <Table.ColumnHeader key={column}>{column}</Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {before > 0 && <tr aria-hidden data-spacer style={{ height: before }} />}
          {drawn.map(({ index }) => {
            const ban = items[index]!;
            return <Row key={keyOf(ban)} ban={ban} index={index} measure={measure} onSelect={onSelect} />;
          })}
          {after > 0 && <tr aria-hidden data-spacer style={{ height: after }} />}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}

function PlayerCell({ userId, name, onSelect }: { userId: number; name: string | null; onSelect(id: number): void }) {
  return (
    <Table.Cell>
      <Button
        variant="plain"
        size="sm"
        px="0"
        h="auto"
        onClick={() => onSelect(userId)}
        aria-label={`Open ${name ?? userId}`}
      >
        <Stack gap="0" align="flex-start">
          <Text fontWeight="medium">{name ?? 'Unknown player'}</Text>
          <Text fontSize="xs" color="fg.muted">
            {userId}
          </Text>
        </Stack>
      </Button>
    </Table.Cell>
  );
}

const OurBanRow = memo(function OurBanRow({ ban, index, measure, onSelect }: RowProps<OurBan>) {
  return (
    <Table.Row ref={measure} data-index={index} data-testid="ban-row" aria-rowindex={index + 2}>
      <PlayerCell userId={ban.userId} name={ban.name} onSelect={onSelect} />
      <Table.Cell className="ban-reason">
        <span className="ban-clamp">{ban.message}</span>
      </Table.Cell>
      <Table.Cell>{formatBanLength(ban.durationSeconds)}</Table.Cell>
      <Table.Cell>{banEnds(ban, ban.completedAt ?? ban.createdAt)}</Table.Cell>
      <Table.Cell>
        <span className="ban-state">
          <Badge colorPalette={BAN_STATE_PALETTES[ban.state]}>{ban.state}</Badge>
          {ban.path && <span className="ban-small">{BAN_PATH_LABELS[ban.path]}</span>}
        </span>
        {ban.error && <span className="ban-small ban-error">Roblox: {ban.error}</span>}
      </Table.Cell>
      <Table.Cell>
        <span className="ban-by">{ban.actorName ?? 'Someone'}</span>
        <span className="ban-small ban-muted">{formatDateTime(ban.createdAt)}</span>
      </Table.Cell>
    </Table.Row>
  );
});

const ElsewhereBanRow = memo(function ElsewhereBanRow({ ban, index, measure, onSelect }: RowProps<ElsewhereBan>) {
  return (
    <Table.Row ref={measure} data-index={index} data-testid="ban-elsewhere-row" aria-rowindex={index + 2}>
      <PlayerCell userId={ban.userId} name={ban.name} onSelect={onSelect} />
      <Table.Cell className="ban-reason">
        <span className="ban-clamp">{ban.displayReason || '—'}</span>
      </Table.Cell>
      <Table.Cell>{formatBanLength(ban.durationSeconds)}</Table.Cell>
      <Table.Cell>{formatDateTime(ban.startTime)}</Table.Cell>
      <Table.Cell>{banEnds(ban, ban.startTime)}</Table.Cell>
    </Table.Row>
  );
});
