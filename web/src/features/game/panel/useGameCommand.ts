import { create } from 'zustand';
import type { GameCommandRequest, GameCommandType } from '@moonrelay/contract/game';
import { ApiError } from '../../../lib/api-client.ts';
import { failureDescription } from '../../../lib/execution-result.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useSendCommand } from '../api/game.ts';
import { GAME_TOASTS } from '../game-text.ts';

/** The command most recently sent from the dashboard, whose progress Game Controls shows. */
export const useLastCommand = create<{ sent: { id: string; type: GameCommandType } | null }>(() => ({ sent: null }));

/** A command of the Game panel: the type and its data; the server it goes to is added on sending. */
export type DashboardCommand = Extract<GameCommandRequest, { type: 'teleport' | 'heal' | 'speed' | 'reset' }>;

/**
 * Sends a command to the game and toasts 'Command Sent' or 'Failed' (spec section 8). `serverId`
 * names the chosen game server when several are live; without it the server queues the command
 * for every live game server of the user.
 */
export function useGameCommand(serverId: string | undefined) {
  const send = useSendCommand();

  // mutateAsync rather than mutate callbacks: the toast must show even if the button unmounted meanwhile.
  const sendCommand = async (command: DashboardCommand) => {
    try {
      const answer = await send.mutateAsync(serverId ? { ...command, serverId } : command);
      useLastCommand.setState({ sent: { id: answer.id, type: command.type } });
      notify(GAME_TOASTS.commandSent);
    } catch (error) {
      const reason = error instanceof ApiError ? error.serverMessage : undefined;
      notify({
        type: 'error',
        title: GAME_TOASTS.commandFailed.title,
        description: failureDescription(reason, GAME_TOASTS.commandFailed.description),
      });
    }
  };

  return { sendCommand, isSending: send.isPending };
}
