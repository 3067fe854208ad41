import { Box, defineStyle, Stack } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import type { AdminConnection, AdminConnectionList } from '@moonrelay/contract/admin';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { useRowsInView } from '../../../../lib/rows-in-view.ts';
import { ADMIN_LIST_HEIGHT_PX, ListArea } from '../lists/ListArea.tsx';
import { Pager } from '../lists/Pager.tsx';
import { CONNECTION_CARDS_CSS, ConnectionCard } from './ConnectionCard.tsx';

interface Props {
  connections: UseQueryResult<AdminConnectionList>;
  page: number;
  onPage(page: number): void;
}

/** Cards side by side: three from Chakra's 2xl breakpoint, two from lg, one below. */
const WIDE = '(min-width: 96rem)';
const MEDIUM = '(min-width: 64rem)';

const subscribe = (onChange: () => void) => {
  const queries = [WIDE, MEDIUM].map((query) => window.matchMedia?.(query));
  for (const query of queries) query?.addEventListener('change', onChange);
  return () => {
    for (const query of queries) query?.removeEventListener('change', onChange);
  };
};
const columnsNow = () => (window.matchMedia?.(WIDE).matches ? 3 : window.matchMedia?.(MEDIUM).matches ? 2 : 1);

/**
 * How many cards a row of the list holds at this window's width, following the window as it
 * changes: the rows drawn in view are rows of cards. Without matchMedia (jsdom), one.
 */
const useCardColumns = () => useSyncExternalStore(subscribe, columnsNow);

const connectionKey = (connection: AdminConnection) => `${connection.userId}/${connection.serverId}`;
/** A row is known by its first card. */
const rowKey = (row: readonly AdminConnection[]) => connectionKey(row[0]!);
/** A row of cards' height before it is measured (the card's header, five values and its buttons). */
const ROW_ESTIMATE = 340;
const rowEstimate = () => ROW_ESTIMATE;
/** Rows of cards drawn past each edge of the area, so Tab has a next card to reach. */
const OVERSCAN = 1;

/** The rows of cards, their columns following the breakpoints `useCardColumns` reads. */
const CARD_ROWS_CSS = defineStyle({
  px: '3',
  pt: '3',
  '& .connection-row': {
    display: 'grid',
    gridTemplateColumns: {
      base: 'minmax(0, 1fr)',
      lg: 'repeat(2, minmax(0, 1fr))',
      '2xl': 'repeat(3, minmax(0, 1fr))',
    },
    gap: '3',
    pb: '3',
  },
  ...CONNECTION_CARDS_CSS,
});

/**
 * The Connections tab: a card per game server, connected ones first; 'No active connections' when
 * none. Only the rows of cards its 600px area shows are drawn, with space for the others.
 */
export function ConnectionsTab({ connections, page, onPage }: Props) {
  const columns = useCardColumns();
  const items = useMemo(() => connections.data?.items ?? [], [connections.data]);
  const rows = useMemo(
    () =>
      Array.from({ length: Math.ceil(items.length / columns) }, (_, row) =>
        items.slice(row * columns, (row + 1) * columns),
      ),
    [items, columns],
  );
  const { scrollerRef, tabIndex, drawn, before, after, measure } = useRowsInView(rows, {
    keyOf: rowKey,
    estimateSize: rowEstimate,
    overscan: OVERSCAN,
    screenful: ADMIN_LIST_HEIGHT_PX,
  });
  return (
    <Stack gap="3">
      <ListArea
        label={ADMIN_TEXT.tabs.connections}
        scrollerRef={scrollerRef}
        tabIndex={tabIndex}
        loading={connections.isPending}
        error={connections.isError && !connections.data ? connections.error : null}
        onRetry={() => void connections.refetch()}
        empty={items.length === 0}
        emptyText={ADMIN_TEXT.noConnections}
      >
        <Box role="list" aria-label={ADMIN_TEXT.tabs.connections} css={CARD_ROWS_CSS}>
          {before > 0 && <div aria-hidden data-spacer style={{ height: before }} />}
          {drawn.map(({ index }) => (
            <div key={rowKey(rows[index]!)} ref={measure} data-index={index} className="connection-row">
              {rows[index]!.map((connection, column) => (
                <div
                  key={connectionKey(connection)}
                  role="listitem"
                  aria-posinset={index * columns + column + 1}
                  aria-setsize={items.length}
                >
                  <ConnectionCard connection={connection} />
                </div>
              ))}
            </div>
          ))}
          {after > 0 && <div aria-hidden data-spacer style={{ height: after }} />}
        </Box>
      </ListArea>
      {connections.data && <Pager page={page} total={connections.data.total} onPage={onPage} />}
    </Stack>
  );
}
