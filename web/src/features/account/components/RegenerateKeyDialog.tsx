import { Button, CloseButton, Dialog, Portal, Text } from '@chakra-ui/react';
import { useState, type ReactElement } from 'react';
import { notify } from '../../../lib/toaster.tsx';
import { useRegenerateKey } from '../api/regenerate-key.ts';

/**
 * Confirmation before replacing the API key, opened by `trigger`. Shared by Settings and the
 * dashboard so both ask the same question and answer with the same toasts.
 */
export function RegenerateKeyDialog({ trigger }: { trigger: ReactElement }) {
  const [open, setOpen] = useState(false);
  const regenerate = useRegenerateKey();

  const confirm = () =>
    regenerate.mutate(undefined, {
      onSuccess: () => {
        setOpen(false);
        notify({
          title: 'API Key Regenerated',
          description: 'Your new API key is active. Update your game integrations to use it.',
        });
      },
      // The dialog stays open so the user can try again or cancel.
      onError: () =>
        notify({ type: 'error', title: 'Error', description: 'Failed to regenerate API key. Please try again.' }),
    });

  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      onOpenChange={(event) => setOpen(event.open)}
      closeOnInteractOutside={!regenerate.isPending}
    >
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Regenerate API Key</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>
                Your current API key will stop working immediately. Any game integrations that use it must be updated
                with the new key.
              </Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={regenerate.isPending}>
                  Cancel
                </Button>
              </Dialog.ActionTrigger>
              <Button colorPalette="red" onClick={confirm} loading={regenerate.isPending} loadingText="Regenerating...">
                Regenerate
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild disabled={regenerate.isPending}>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
