import { Card, DataList, defineStyle, Status } from '@chakra-ui/react';
import { memo } from 'react';
import { Heart, MapPin, RotateCcw, Zap } from 'lucide-react';
import type { AdminConnection } from '@moonrelay/contract/admin';
import { ADMIN_QUICK_SPEED, QUICK_TELEPORTS } from '@moonrelay/contract/constants';
import type { GameCommandType } from '@moonrelay/contract/game';
import { isSimulatedServerId } from '@moonrelay/contract/simulated';
import { CommandStatusBadge } from '../../../../components/CommandStatusBadge.tsx';
import { formatTime, shortId } from '../../../../lib/format.ts';
import { SimulatedBadge } from '../../../../components/SimulatedBadge.tsx';
import { connectionKey, useAdminLiveStore } from '../../live/admin-live-store.ts';
import { accountLine, gameIdText, healthText, positionText } from './connection-data.ts';
import { QuickCommandButton } from './QuickCommandButton.tsx';
import { UserConsoleButton } from './UserConsoleButton.tsx';

/**
 * How a card looks, declared once for the list of cards (decision 051): each part is named by
 * class, and whether the server is connected is said in `data-connected`, so the cards drawn while
 * the list scrolls give Chakra the same styles every time instead of style props of their own.
 */
export const CONNECTION_CARDS_CSS = defineStyle({
  '& .connection-head': { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2' },
  '& .connection-who': { display: 'flex', alignItems: 'center', gap: '2', minW: '0' },
  '& .connection-status': { colorPalette: 'gray' },
  '& .connection-card[data-connected] .connection-status': { colorPalette: 'green' },
  '& .connection-name, & .connection-account': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& .connection-name': { fontWeight: 'semibold' },
  '& .connection-fixed': { flexShrink: 0 },
  '& .connection-state': { fontSize: 'xs', color: 'fg.muted', flexShrink: 0 },
  '& .connection-card[data-connected] .connection-state': { color: 'fg.success' },
  '& .connection-account': { fontSize: 'sm', color: 'fg.muted' },
  '& .connection-body': { display: 'flex', flexDirection: 'column', gap: '3' },
  '& .connection-data': { gap: '1.5' },
  '& .connection-buttons': { display: 'flex', flexWrap: 'wrap', gap: '2' },
  '& .connection-last': { display: 'flex', flexDirection: 'column', gap: '1' },
  '& .connection-last-line': { display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' },
  '& .connection-last-label': { color: 'fg.muted' },
  '& .connection-last-type': { fontWeight: 'medium' },
  '& .connection-last-error': { fontSize: 'sm', color: 'fg.error' },
});

/**
 * One game server of one user (spec section 2, Connections): a connected/disconnected dot, the
 * user's name and email, the player's position (rounded), health over max health, game id and
 * last ping, and the quick buttons Spawn (0, 50, 0), Heal, Speed (50) and Reset. The buttons act
 * on this game server, so they are disabled while it is disconnected. Its Console opens the user's
 * game console (its lines are kept after the server stops, so it is offered either way). Styled by
 * `CONNECTION_CARDS_CSS` on the list holding it; memoised, as scrolling draws new cards at the edges.
 */
export const ConnectionCard = memo(function ConnectionCard({ connection }: { connection: AdminConnection }) {
  const { userId, serverId, isConnected, gameData } = connection;
  const simulated = isSimulatedServerId(serverId);
  const rows: [label: string, value: string, full?: string][] = [
    ['Position', positionText(gameData?.position)],
    ['Health', healthText(gameData)],
    ['Game ID', gameIdText(gameData)],
    ['Last Ping', formatTime(connection.lastPing)],
    // A simulated server's id is short: whole, it says what it is.
    ['Server', simulated ? serverId : shortId(serverId), serverId],
  ];
  const disabled = !isConnected;
  return (
    <Card.Root
      size="sm"
      role="article"
      aria-label={`Connection of ${connection.userName}`}
      className="connection-card"
      data-connected={isConnected || undefined}
      data-testid="connection"
    >
      <Card.Header>
        <div className="connection-head">
          <div className="connection-who">
            <Status.Root size="md" className="connection-status">
              <Status.Indicator data-testid="connection-dot" data-connected={isConnected} />
            </Status.Root>
            <span className="connection-name">{connection.userName}</span>
            {simulated && <SimulatedBadge size="sm" className="connection-fixed" />}
          </div>
          <span className="connection-state">{isConnected ? 'Connected' : 'Disconnected'}</span>
        </div>
        <p className="connection-account">{accountLine(connection)}</p>
      </Card.Header>
      <Card.Body>
        <div className="connection-body">
          <DataList.Root orientation="horizontal" size="sm" className="connection-data">
            {rows.map(([label, value, full]) => (
              <DataList.Item key={label}>
                <DataList.ItemLabel>{label}</DataList.ItemLabel>
                <DataList.ItemValue title={full}>{value}</DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList.Root>
          <div className="connection-buttons">
            <QuickCommandButton
              userId={userId}
              serverId={serverId}
              command={{ type: 'teleport', data: { ...QUICK_TELEPORTS.spawn } }}
              disabled={disabled}
            >
              <MapPin /> Spawn
            </QuickCommandButton>
            <QuickCommandButton
              userId={userId}
              serverId={serverId}
              command={{ type: 'heal', data: {} }}
              disabled={disabled}
              colorPalette="green"
            >
              <Heart /> Heal
            </QuickCommandButton>
            <QuickCommandButton
              userId={userId}
              serverId={serverId}
              command={{ type: 'speed', data: { speed: ADMIN_QUICK_SPEED } }}
              disabled={disabled}
              colorPalette="blue"
            >
              <Zap /> Speed
            </QuickCommandButton>
            <QuickCommandButton
              userId={userId}
              serverId={serverId}
              command={{ type: 'reset', data: {} }}
              disabled={disabled}
              colorPalette="red"
            >
              <RotateCcw /> Reset
            </QuickCommandButton>
            <UserConsoleButton connection={connection} />
          </div>
          <LastCommand userId={userId} serverId={serverId} />
        </div>
      </Card.Body>
    </Card.Root>
  );
});

const COMMAND_NAMES: Record<GameCommandType, string> = {
  teleport: 'Spawn',
  heal: 'Heal',
  speed: 'Speed',
  reset: 'Reset',
  execute: 'Script',
  script: 'Script',
  ban: 'Ban',
  unban: 'Unban',
  kick: 'Kick',
  warn: 'Warning',
};

/** How the last command sent from this card is doing, as `command:update` events tell. */
function LastCommand({ userId, serverId }: { userId: string; serverId: string }) {
  const sent = useAdminLiveStore((state) => state.sentFromCard[connectionKey(userId, serverId)]);
  const command = useAdminLiveStore((state) => (sent ? state.commands[sent.commandId] : undefined));
  if (!sent) return null;
  return (
    <div className="connection-last">
      <div className="connection-last-line" data-testid="connection-last-command">
        <span className="connection-last-label">Last command:</span>
        <span className="connection-last-type">{COMMAND_NAMES[sent.type]}</span>
        <CommandStatusBadge status={command?.status ?? 'queued'} />
      </div>
      {command?.status === 'failed' && command.error && <p className="connection-last-error">{command.error}</p>}
    </div>
  );
}
