import { Button, Flex, Stack, Text } from '@chakra-ui/react';
import { Play, Square } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { isSimulatedServerId, SIMULATED_PLAYER, SIMULATOR_TEXT } from '@moonrelay/contract/simulated';
import type { SimulatorStatus } from '@moonrelay/contract/simulator';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { SimulatedBadge } from '../../../components/SimulatedBadge.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatTime } from '../../../lib/format.ts';
import { useCan } from '../../../lib/team-access.ts';
import type { GameLinkState } from '../../../lib/useGameLink.ts';
import { GAME_ACTIONS } from '../game-text.ts';
import { useSimulator, useStartSimulator, useStopSimulator } from './api.ts';

/** The status is read again this long after the end it gave: its last ping has been sent by then. */
const READ_AFTER_END_MS = 3_000;

const STOPPED: Record<NonNullable<SimulatorStatus['lastStop']>['reason'], string> = {
  'time-up': 'The simulated game server stopped by itself: its time was up.',
  stopped: 'The simulated game server was stopped.',
  shutdown: 'The simulated game server stopped when Moonrelay restarted.',
  refused: 'The simulated game server stopped',
};

/** What the bar says while no simulated server runs. */
function idleText(status: SimulatorStatus | undefined, simulatedLive: boolean): string {
  const stop = status?.lastStop;
  const said = stop ? (stop.reason === 'refused' ? `${STOPPED.refused}: ${stop.error}` : STOPPED[stop.reason]) : null;
  if (simulatedLive) {
    // Its last ping was a moment ago: the Game panel shows it until that ping is 10 s old.
    return `${said ?? STOPPED.stopped} It shows as Disconnected once its last ping is 10 seconds old, as a game server that shuts down does.`;
  }
  return said ? `${said} ${SIMULATOR_TEXT.invite}` : SIMULATOR_TEXT.invite;
}

/**
 * "Simulate a game server" (docs/decisions/045): starts a simulated game server for a few minutes,
 * so a newcomer sees the Game panel, the Console, Players and Runs work before connecting Roblox.
 * Shown while no real game is connected, and while a simulated one runs (with Stop). Starting and
 * stopping it are commands to the team's game (game.control): disabled, saying so, for a role without.
 */
export function SimulatorBar({ link }: { link: GameLinkState }) {
  const control = useCan('game.control');
  const simulator = useSimulator();
  const start = useStartSimulator();
  const stop = useStopSimulator();
  const status = simulator.data;
  const running = status?.running ?? false;
  const simulatedLive = link.liveServers.some((server) => isSimulatedServerId(server.serverId));

  // Read again once it should have stopped by itself...
  const { refetch } = simulator;
  const endsAt = running ? (status?.endsAt ?? null) : null;
  useEffect(() => {
    if (!endsAt) return;
    const timer = setTimeout(() => void refetch(), Math.max(0, Date.parse(endsAt) - Date.now()) + READ_AFTER_END_MS);
    return () => clearTimeout(timer);
  }, [endsAt, refetch]);
  // ...or once its server stopped pinging for another reason (Moonrelay restarted, its key was refused).
  const wasLive = useRef(simulatedLive);
  useEffect(() => {
    if (wasLive.current && !simulatedLive && running) void refetch();
    wasLive.current = simulatedLive;
  }, [simulatedLive, running, refetch]);

  if (link.state !== 'ready' || (link.connected && !running && !simulatedLive)) return null;
  const failure = start.error ?? stop.error;
  return (
    <Stack
      role="region"
      aria-label="Simulated game server"
      gap="2"
      borderWidth="1px"
      borderInlineStartWidth="4px"
      borderInlineStartColor={running ? 'orange.solid' : 'purple.solid'}
      borderRadius="l2"
      bg="bg.panel"
      px="4"
      py="3"
    >
      <Flex justify="space-between" align="center" wrap="wrap" gap="3">
        {running && status ? (
          <Text fontSize="sm" flex="1" minW="16rem" data-testid="simulator-state">
            <SimulatedBadge me="2" />A simulated game server is connected, with its player {SIMULATED_PLAYER.name}. It
            stops by itself at {formatTime(status.endsAt)}.
          </Text>
        ) : (
          <Text fontSize="sm" color="fg.muted" flex="1" minW="16rem" data-testid="simulator-state">
            {idleText(status, simulatedLive)}
          </Text>
        )}
        {running ? (
          <Button
            size="sm"
            variant="outline"
            colorPalette="orange"
            loading={stop.isPending}
            loadingText="Stopping..."
            disabled={!control.allowed}
            title={control.reason}
            onClick={() => stop.mutate()}
          >
            <Square size={14} /> {SIMULATOR_TEXT.stop}
          </Button>
        ) : (
          <Button
            size="sm"
            colorPalette="purple"
            loading={start.isPending}
            loadingText="Starting..."
            disabled={!control.allowed}
            title={control.reason}
            onClick={() => start.mutate()}
          >
            <Play size={14} /> {SIMULATOR_TEXT.start}
          </Button>
        )}
      </Flex>
      <PermissionNotes notes={[{ action: GAME_ACTIONS.simulator, can: control }]} />
      {failure && (
        <Text fontSize="sm" color="fg.error" role="alert">
          {messageOf(failure, 'The simulated game server could not be started or stopped. Try again.')}
        </Text>
      )}
    </Stack>
  );
}
