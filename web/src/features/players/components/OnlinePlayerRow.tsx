import { Badge, Button, Table } from '@chakra-ui/react';
import { memo, type KeyboardEvent } from 'react';
import type { OnlinePlayer } from '@moonrelay/contract/players';
import { isSimulatedServerId } from '@moonrelay/contract/simulated';
import { SimulatedBadge } from '../../../components/SimulatedBadge.tsx';
import { formatDateTime } from '../../../lib/format.ts';

export interface OnlinePlayerRowProps {
  player: OnlinePlayer;
  index: number;
  onOpen(player: OnlinePlayer): void;
  onKeyDown(index: number, event: KeyboardEvent<HTMLButtonElement>): void;
}

/**
 * One player online. Styled by the table (ONLINE_TABLE_CSS) through data attributes; memoised, so a
 * row whose player is unchanged is not drawn again when the list around it changes.
 */
export const OnlinePlayerRow = memo(function OnlinePlayerRow({
  player,
  index,
  onOpen,
  onKeyDown,
}: OnlinePlayerRowProps) {
  return (
    <Table.Row data-testid="player-row" data-row-index={index} aria-rowindex={index + 2}>
      <Table.Cell>
        <Button
          variant="plain"
          size="sm"
          data-part="open"
          onClick={() => onOpen(player)}
          onKeyDown={(event) => onKeyDown(index, event)}
          aria-label={`Open ${player.name}`}
        >
          <span data-part="display">{player.displayName ?? player.name}</span>
          <span data-part="handle">
            @{player.name}
            {isSimulatedServerId(player.serverId) ? (
              <SimulatedBadge size="xs" />
            ) : (
              player.userId < 0 && <Badge size="xs">Studio</Badge>
            )}
          </span>
        </Button>
      </Table.Cell>
      <Table.Cell data-wide>{player.userId}</Table.Cell>
      <Table.Cell data-part="server" title={player.serverId}>
        {player.serverId}
      </Table.Cell>
      <Table.Cell data-wide>{formatDateTime(player.joinedAt)}</Table.Cell>
      <Table.Cell data-wide data-part="age">
        {player.accountAgeDays === null ? '—' : `${player.accountAgeDays.toLocaleString()} days`}
      </Table.Cell>
    </Table.Row>
  );
});
