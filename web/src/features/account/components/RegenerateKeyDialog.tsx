import { Text } from '@chakra-ui/react';
import { useState, type ReactElement } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { cancelledOr } from '../../../lib/api-client.ts';
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
      onError: (error) =>
        notify({
          type: 'error',
          title: 'Error',
          description: cancelledOr(error, 'Failed to regenerate API key. Please try again.'),
        }),
    });

  return (
    <ConfirmDialog
      trigger={trigger}
      open={open}
      onOpenChange={setOpen}
      title="Regenerate API Key"
      confirmLabel="Regenerate"
      pendingLabel="Regenerating..."
      pending={regenerate.isPending}
      onConfirm={confirm}
    >
      <Text>
        Your current API key will stop working immediately. Any game integrations that use it must be updated with the
        new key.
      </Text>
    </ConfirmDialog>
  );
}
