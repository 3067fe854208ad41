import { Button, CloseButton, Dialog, Portal, Text } from '@chakra-ui/react';
import { SquareTerminal } from 'lucide-react';
import { useState } from 'react';
import type { AdminConnection } from '@moonrelay/contract/admin';
import { ConsoleView } from '../../../../components/console/ConsoleView.tsx';
import { shortId } from '../../../../lib/format.ts';
import { useAdminConsoleSource } from '../../api/user-console.ts';
import { accountLine } from './connection-data.ts';

/** A connection card's Console button: that user's game console in a dialog, opened on this server. */
export function UserConsoleButton({ connection }: { connection: AdminConnection }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => setOpen(details.open)}
      size={{ base: 'full', md: 'xl' }}
      placement="center"
      lazyMount
      unmountOnExit
    >
      <Dialog.Trigger asChild>
        <Button size="xs" variant="outline" aria-label={`Console of ${connection.userName}`}>
          <SquareTerminal /> Console
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1">
              <Dialog.Title>Console of {connection.userName}</Dialog.Title>
              <Text fontSize="sm" color="fg.muted">
                {accountLine(connection)}
              </Text>
            </Dialog.Header>
            <Dialog.Body>
              <UserConsole connection={connection} />
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** Mounted only while the dialog is open: it polls only then. */
function UserConsole({ connection }: { connection: AdminConnection }) {
  const source = useAdminConsoleSource(connection.userId);
  const servers = [{ serverId: connection.serverId, label: shortId(connection.serverId) }];
  return (
    <ConsoleView
      source={source}
      servers={servers}
      initialFilter={{ serverId: connection.serverId }}
      height={{ base: 'calc(100dvh - 17rem)', md: '55vh' }}
    />
  );
}
