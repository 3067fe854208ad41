import { Button } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useGameCommand, type DashboardCommand } from './useGameCommand.ts';

interface Props {
  command: DashboardCommand;
  serverId: string | undefined;
  disabled: boolean;
  children: ReactNode;
  colorPalette?: string;
}

/** One Game Controls button: sends its command and shows it is sending until the server answers. */
export function CommandButton({ command, serverId, disabled, children, colorPalette = 'gray' }: Props) {
  const { sendCommand, isSending } = useGameCommand(serverId);
  return (
    <Button
      variant="outline"
      size="sm"
      colorPalette={colorPalette}
      disabled={disabled}
      loading={isSending}
      onClick={() => void sendCommand(command)}
    >
      {children}
    </Button>
  );
}
