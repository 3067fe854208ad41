import { Button } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { GameCommandRequest } from '@moonrelay/contract/game';
import { ApiError } from '../../../../lib/api-client.ts';
import { failureDescription } from '../../../../lib/execution-result.ts';
import { notify } from '../../../../lib/toaster.tsx';
import { useSendUserCommand } from '../../api/user-command.ts';
import { connectionKey, useAdminLiveStore } from '../../live/admin-live-store.ts';
import { ADMIN_TOASTS } from '../../admin-text.ts';

export type QuickCommand = Extract<GameCommandRequest, { type: 'teleport' | 'heal' | 'speed' | 'reset' }>;

interface Props {
  userId: string;
  serverId: string;
  command: QuickCommand;
  disabled: boolean;
  colorPalette?: string;
  children: ReactNode;
}

/** One quick button of a connection card: sends its command to that game server. */
export function QuickCommandButton({ userId, serverId, command, disabled, colorPalette = 'gray', children }: Props) {
  const send = useSendUserCommand();
  // mutateAsync rather than mutate callbacks: the toast must show even if the card re-rendered away meanwhile.
  const onClick = async () => {
    try {
      const answer = await send.mutateAsync({ userId, command: { ...command, serverId } });
      useAdminLiveStore.getState().commandSentFromCard(connectionKey(userId, serverId), answer.id, command.type);
      notify(ADMIN_TOASTS.commandSent);
    } catch (error) {
      const reason = error instanceof ApiError ? error.serverMessage : undefined;
      notify({
        type: 'error',
        title: ADMIN_TOASTS.commandFailed.title,
        description: failureDescription(reason, ADMIN_TOASTS.commandFailed.description),
      });
    }
  };
  return (
    <Button
      size="xs"
      variant="outline"
      colorPalette={colorPalette}
      disabled={disabled}
      loading={send.isPending}
      onClick={() => void onClick()}
    >
      {children}
    </Button>
  );
}
