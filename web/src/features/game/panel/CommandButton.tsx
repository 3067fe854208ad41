import { Button } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useGameCommand, type DashboardCommand } from './useGameCommand.ts';

interface Props {
  command: DashboardCommand;
  serverId: string | undefined;
  disabled: boolean;
  /** Why the member's role does not allow it, shown as the disabled button's title. */
  reason?: string;
  children: ReactNode;
  colorPalette?: string;
}

/** One Game Controls button: sends its command and shows it is sending until the server answers. */
export function CommandButton({ command, serverId, disabled, reason, children, colorPalette = 'gray' }: Props) {
  const { sendCommand, isSending } = useGameCommand(serverId);
  return (
    <Button
      variant="outline"
      size="sm"
      colorPalette={colorPalette}
      disabled={disabled}
      title={reason}
      loading={isSending}
      onClick={() => void sendCommand(command)}
    >
      {children}
    </Button>
  );
}
