import { Box, Center, Spinner, Table } from '@chakra-ui/react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { OnlinePlayer } from '@moonrelay/contract/players';
import { ONLINE_TABLE_CSS } from './online-table-css.ts';
import { OnlinePlayerRow } from './OnlinePlayerRow.tsx';
import { usePlayerRows } from './use-player-rows.ts';

/** The next page is asked for this many rows before the end of those loaded. */
const LOAD_AHEAD_ROWS = 20;

export interface OnlinePlayersTableProps {
  players: OnlinePlayer[];
  total: number;
  more: boolean;
  loadingMore: boolean;
  loadingMoreText: string;
  fetching: boolean;
  onNeedMore(): void;
  onSelect(player: OnlinePlayer): void;
}

/**
 * Everyone online as a table that draws only the rows in view (a few hundred or a hundred thousand
 * players alike) and fetches the next page as the end comes near. Rows are reachable with Tab, and
 * the up and down arrows move between players, scrolling the list (and so fetching more at its end).
 */
export function OnlinePlayersTable({
  players,
  total,
  more,
  loadingMore,
  loadingMoreText,
  fetching,
  onNeedMore,
  onSelect,
}: OnlinePlayersTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLTableSectionElement>(null);
  const [headerHeight, setHeaderHeight] = useState(0);
  useLayoutEffect(() => setHeaderHeight(header.current?.offsetHeight ?? 0), []);
  const rows = usePlayerRows(scroller, players, headerHeight);
  const items = rows.getVirtualItems();
  const lastDrawn = items.at(-1)?.index ?? -1;
  const before = items[0] ? items[0].start - headerHeight : 0;
  const after = items.length > 0 ? rows.getTotalSize() - (items.at(-1)!.end - headerHeight) : 0;

  const nearEnd = lastDrawn + LOAD_AHEAD_ROWS >= players.length;
  // Asked whenever the list is near its end and nothing is on its way, and looked at again each
  // time a fetch ends. Not on the edge of "near the end" alone: a live refresh that replaces the
  // page request before a render sees it would leave the list stuck at its last page.
  const needMore = useRef(onNeedMore);
  needMore.current = onNeedMore;
  useEffect(() => {
    if (more && nearEnd && !fetching) needMore.current();
  }, [more, nearEnd, fetching, players.length]);

  // Stable across renders, so a row whose player is unchanged is not drawn again.
  const select = useRef(onSelect);
  select.current = onSelect;
  const open = useCallback((player: OnlinePlayer) => select.current(player), []);

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
  const count = useRef(players.length);
  count.current = players.length;
  const reveal = useRef(rows.scrollToIndex);
  reveal.current = rows.scrollToIndex;
  const onKeyDown = useCallback((index: number, event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    const target = index + step;
    if (step === 0 || target < 0 || target >= count.current) return;
    event.preventDefault();
    reveal.current(target, { align: 'auto' });
    setFocusNext(target);
  }, []);

  return (
    // No browser scroll anchoring: the list keeps its reader's place itself (usePlayerRows), and
    // the browser moving the view as the spacer above changes would scroll again, and again.
    <Box
      ref={scroller}
      maxH="min(70vh, 42rem)"
      overflow="auto"
      style={{ overflowAnchor: 'none' }}
      data-testid="players-scroller"
    >
      <Table.Root
        size="sm"
        interactive
        stickyHeader
        aria-label="Players online"
        aria-rowcount={total + 1}
        css={ONLINE_TABLE_CSS}
      >
        <Table.Header ref={header}>
          <Table.Row aria-rowindex={1}>
            <Table.ColumnHeader>Player</Table.ColumnHeader>
            <Table.ColumnHeader data-wide>User id</Table.ColumnHeader>
            <Table.ColumnHeader>Server</Table.ColumnHeader>
            <Table.ColumnHeader data-wide>Joined</Table.ColumnHeader>
            <Table.ColumnHeader data-wide data-part="age">
              Account age
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {before > 0 && <tr aria-hidden style={{ height: before }} />}
          {items.map((item) => (
            <OnlinePlayerRow
              key={item.key}
              player={players[item.index]!}
              index={item.index}
              onOpen={open}
              onKeyDown={onKeyDown}
            />
          ))}
          {after > 0 && <tr aria-hidden style={{ height: after }} />}
        </Table.Body>
      </Table.Root>
      {loadingMore && (
        <Center py="3" gap="2" color="fg.muted" fontSize="sm">
          <Spinner size="xs" /> {loadingMoreText}
        </Center>
      )}
    </Box>
  );
}
