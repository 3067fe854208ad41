import { Badge, DataList, Stack, Text } from '@chakra-ui/react';
import type { PlayerData } from '@moonrelay/contract/game';
import { formatTime, shortId } from '../../../lib/format.ts';
import type { GameLinkState } from '../../../lib/useGameLink.ts';
import { formatHealth } from '../panel/player-data.ts';
import { PositionFields } from './PositionFields.tsx';

/** The executor's game status: connected flag, last ping, position and the game's data. */
export function ExecutorGameStatus({ link }: { link: GameLinkState }) {
  const position = link.gameData?.position;
  return (
    <Stack gap="4" role="region" aria-label="Game Status">
      <DataList.Root orientation="horizontal" size="sm" gap="2">
        <DataList.Item>
          <DataList.ItemLabel>Connected</DataList.ItemLabel>
          <DataList.ItemValue>
            {link.state === 'ready' ? (
              <Badge colorPalette={link.connected ? 'green' : 'red'} data-testid="executor-connected">
                {link.connected ? 'Yes' : 'No'}
              </Badge>
            ) : (
              // Not known where the status could not be read, nor where the role may not see it.
              <Text color="fg.muted">{link.state === 'loading' ? 'Checking...' : 'Unknown'}</Text>
            )}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Last ping</DataList.ItemLabel>
          <DataList.ItemValue>{link.lastPing ? formatTime(link.lastPing) : 'Never'}</DataList.ItemValue>
        </DataList.Item>
        {link.serverId && (
          <DataList.Item>
            <DataList.ItemLabel>Server</DataList.ItemLabel>
            <DataList.ItemValue title={link.serverId}>{shortId(link.serverId)}</DataList.ItemValue>
          </DataList.Item>
        )}
      </DataList.Root>
      <Stack gap="1">
        <Text fontSize="sm" fontWeight="medium">
          Position
        </Text>
        <PositionFields position={position} />
      </Stack>
      <Stack gap="1">
        <Text fontSize="sm" fontWeight="medium">
          Game data
        </Text>
        {link.gameData ? (
          <GameDataList data={link.gameData} />
        ) : (
          <Text fontSize="sm" color="fg.muted">
            No game data yet.
          </Text>
        )}
      </Stack>
    </Stack>
  );
}

/** Every field the game reported about its player (position is above). */
function GameDataList({ data }: { data: PlayerData }) {
  const rows: [string, string | number | undefined][] = [
    ['Player', data.playerName],
    ['User ID', data.userId],
    ['Place ID', data.placeId],
    ['Game ID', data.gameId],
    ['Universe ID', data.universeId],
    ['Health', data.health !== undefined || data.maxHealth !== undefined ? formatHealth(data) : undefined],
    ['Walk speed', data.walkSpeed],
    ['Level', data.level],
    ['Inventory', data.inventory?.length ? data.inventory.join(', ') : undefined],
  ];
  const known = rows.filter((row): row is [string, string | number] => row[1] !== undefined);
  if (known.length === 0) {
    return (
      <Text fontSize="sm" color="fg.muted">
        The game has not reported any player data.
      </Text>
    );
  }
  return (
    <DataList.Root orientation="horizontal" size="sm" gap="2" data-testid="game-data">
      {known.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue>{String(value)}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}
