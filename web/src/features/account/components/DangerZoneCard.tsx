import { Button, Card, CloseButton, Dialog, List, Portal, Stack, Text } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { notify } from '../../../lib/toaster.tsx';
import { useDeleteAccount } from '../api/delete-account.ts';

/** What goes with the account (spec section 2), listed in the confirmation. */
const LOST_WITH_ACCOUNT = [
  'Scripts and versions',
  'Execution history and logs',
  'API keys and tokens',
  'Scheduled scripts and shares',
];

export function DangerZoneCard() {
  const [open, setOpen] = useState(false);
  const deleteAccount = useDeleteAccount();

  const confirm = async () => {
    // mutateAsync rather than mutate's callbacks: success signs out, which unmounts this screen
    // before per-call callbacks would run.
    try {
      await deleteAccount.mutateAsync();
    } catch {
      notify({ type: 'error', title: 'Error', description: 'Failed to delete account. Please try again.' });
      return;
    }
    notify({ title: 'Account Deleted', description: 'Your account and all of its data have been deleted.' });
  };

  return (
    <Card.Root borderColor="border.error">
      <Card.Header>
        <Card.Title color="fg.error">Danger Zone</Card.Title>
        <Card.Description>Deleting your account is permanent and cannot be undone.</Card.Description>
      </Card.Header>
      <Card.Footer pt="4">
        <Dialog.Root
          role="alertdialog"
          open={open}
          onOpenChange={(event) => setOpen(event.open)}
          closeOnInteractOutside={!deleteAccount.isPending}
        >
          <Dialog.Trigger asChild>
            <Button colorPalette="red">
              <Trash2 /> Delete Account
            </Button>
          </Dialog.Trigger>
          <Portal>
            <Dialog.Backdrop />
            <Dialog.Positioner>
              <Dialog.Content>
                <Dialog.Header>
                  <Dialog.Title>Delete Account</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Stack gap="3">
                    <Text>This permanently deletes your account. You will lose:</Text>
                    <List.Root ps="5">
                      {LOST_WITH_ACCOUNT.map((item) => (
                        <List.Item key={item}>{item}</List.Item>
                      ))}
                    </List.Root>
                    <Text fontWeight="medium">This cannot be undone.</Text>
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline" disabled={deleteAccount.isPending}>
                      Cancel
                    </Button>
                  </Dialog.ActionTrigger>
                  <Button
                    colorPalette="red"
                    onClick={() => void confirm()}
                    loading={deleteAccount.isPending}
                    loadingText="Deleting..."
                  >
                    Delete Account
                  </Button>
                </Dialog.Footer>
                <Dialog.CloseTrigger asChild disabled={deleteAccount.isPending}>
                  <CloseButton size="sm" />
                </Dialog.CloseTrigger>
              </Dialog.Content>
            </Dialog.Positioner>
          </Portal>
        </Dialog.Root>
      </Card.Footer>
    </Card.Root>
  );
}
