import { Box } from '@chakra-ui/react';
import { useMemo } from 'react';
import { GAME_HEALTH } from '@moonrelay/contract/messages';
import type { GameServer } from '@moonrelay/contract/game';
import { isStudioServer } from '@moonrelay/contract/studio';
import { isSimulatedServerId, SIMULATOR_TEXT } from '@moonrelay/contract/simulated';
import { ServerSelect } from '../../../components/ServerSelect.tsx';
import { shortId } from '../../../lib/format.ts';
import { useServerChoice } from '../../../lib/game-link.ts';

/** "a4f0c3c2… · builderman": the start of the server's JobId (whole if short) and its player. */
export function serverLabel(server: GameServer): string {
  const id = shortId(server.serverId);
  const label = server.gameData?.playerName ? `${id} · ${server.gameData.playerName}` : id;
  if (isSimulatedServerId(server.serverId)) return `${label} · ${SIMULATOR_TEXT.badge}`;
  return isStudioServer(server) ? `${label} · ${GAME_HEALTH.studioBadge}` : label;
}

interface Props {
  liveServers: readonly GameServer[];
  /** The server the screens act on now. */
  serverId: string | undefined;
}

/** With several live game servers, chooses the one the controls and the executor act on. */
export function ServerPicker({ liveServers, serverId }: Props) {
  const choose = useServerChoice((state) => state.choose);
  const choices = useMemo(
    () => liveServers.map((server) => ({ serverId: server.serverId, label: serverLabel(server) })),
    [liveServers],
  );
  if (liveServers.length < 2) return null;
  return (
    <Box maxW="xs" width="full">
      <ServerSelect label="Game server" servers={choices} value={serverId ?? ''} onChange={choose} />
    </Box>
  );
}
