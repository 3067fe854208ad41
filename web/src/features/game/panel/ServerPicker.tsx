import { Field, NativeSelect } from '@chakra-ui/react';
import { GAME_HEALTH } from '@moonrelay/contract/messages';
import type { GameServer } from '@moonrelay/contract/game';
import { isStudioServer } from '@moonrelay/contract/studio';
import { isSimulatedServerId, SIMULATOR_TEXT } from '@moonrelay/contract/simulated';
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
  if (liveServers.length < 2) return null;
  return (
    <Field.Root maxW="xs">
      <Field.Label>Game server</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={serverId} onChange={(event) => choose(event.target.value)}>
          {liveServers.map((server) => (
            <option key={server.serverId} value={server.serverId}>
              {serverLabel(server)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
