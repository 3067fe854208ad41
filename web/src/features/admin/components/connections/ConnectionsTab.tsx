import { SimpleGrid, Stack } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { AdminConnectionList } from '@moonrelay/contract/admin';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { ListArea } from '../lists/ListArea.tsx';
import { Pager } from '../lists/Pager.tsx';
import { ConnectionCard } from './ConnectionCard.tsx';

interface Props {
  connections: UseQueryResult<AdminConnectionList>;
  page: number;
  onPage(page: number): void;
}

/** The Connections tab: a card per game server, connected ones first; 'No active connections' when none. */
export function ConnectionsTab({ connections, page, onPage }: Props) {
  const items = connections.data?.items ?? [];
  return (
    <Stack gap="3">
      <ListArea
        label={ADMIN_TEXT.tabs.connections}
        loading={connections.isPending}
        error={connections.isError && !connections.data ? connections.error : null}
        onRetry={() => void connections.refetch()}
        empty={items.length === 0}
        emptyText={ADMIN_TEXT.noConnections}
      >
        <SimpleGrid columns={{ base: 1, lg: 2, '2xl': 3 }} gap="3" p="3">
          {items.map((connection) => (
            <ConnectionCard key={`${connection.userId}/${connection.serverId}`} connection={connection} />
          ))}
        </SimpleGrid>
      </ListArea>
      {connections.data && <Pager page={page} total={connections.data.total} onPage={onPage} />}
    </Stack>
  );
}
