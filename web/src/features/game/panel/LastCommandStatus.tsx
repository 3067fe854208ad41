import { HStack, Stack, Text } from '@chakra-ui/react';
import type { GameCommandType } from '@moonrelay/contract/game';
import { CommandStatusBadge } from '../../../components/CommandStatusBadge.tsx';
import { EXPIRED_ERROR, useLiveStore } from '../live/live-store.ts';
import { useLastCommand } from './useGameCommand.ts';

const COMMAND_NAMES: Record<GameCommandType, string> = {
  teleport: 'Teleport',
  heal: 'Heal',
  speed: 'Speed Boost',
  reset: 'Reset',
  execute: 'Script',
  script: 'Script',
  ban: 'Ban',
  unban: 'Unban',
  kick: 'Kick',
  warn: 'Warning',
};

/**
 * How the last command sent from the dashboard is doing: queued until the game's next ping takes it,
 * then delivered, then done or failed (with the game's error), as `command:update` events tell.
 */
export function LastCommandStatus() {
  const sent = useLastCommand((state) => state.sent);
  const command = useLiveStore((state) => (sent ? state.commands[sent.id] : undefined));
  if (!sent) return null;

  // Until an update arrives, the command is what the server said it is: queued.
  const error = command?.status === 'expired' ? EXPIRED_ERROR : command?.status === 'failed' ? command.error : null;
  return (
    <Stack gap="1">
      <HStack gap="2" fontSize="sm" data-testid="last-command">
        <Text color="fg.muted">Last command:</Text>
        <Text fontWeight="medium">{COMMAND_NAMES[sent.type]}</Text>
        <CommandStatusBadge status={command?.status ?? 'queued'} />
      </HStack>
      {error && (
        <Text fontSize="sm" color="fg.error">
          {error}
        </Text>
      )}
    </Stack>
  );
}
