import { Button, Card, List, Stack, Text } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { cancelledOr } from '../../../lib/api-client.ts';
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
    } catch (error) {
      notify({
        type: 'error',
        title: 'Error',
        description: cancelledOr(error, 'Failed to delete account. Please try again.'),
      });
      return;
    }
    notify({ title: 'Account Deleted', description: 'Your account and all of its data have been deleted.' });
  };

  return (
    <Card.Root borderColor="border.error">
      <Card.Header>
        <Card.Title as="h2" color="fg.error">
          Danger Zone
        </Card.Title>
        <Card.Description>Deleting your account is permanent and cannot be undone.</Card.Description>
      </Card.Header>
      <Card.Footer pt="4">
        <ConfirmDialog
          trigger={
            <Button colorPalette="red">
              <Trash2 /> Delete Account
            </Button>
          }
          open={open}
          onOpenChange={setOpen}
          title="Delete Account"
          confirmLabel="Delete Account"
          pendingLabel="Deleting..."
          pending={deleteAccount.isPending}
          onConfirm={() => void confirm()}
        >
          <Stack gap="3">
            <Text>This permanently deletes your account. You will lose:</Text>
            <List.Root ps="5">
              {LOST_WITH_ACCOUNT.map((item) => (
                <List.Item key={item}>{item}</List.Item>
              ))}
            </List.Root>
            <Text fontWeight="medium">This cannot be undone.</Text>
          </Stack>
        </ConfirmDialog>
      </Card.Footer>
    </Card.Root>
  );
}
