import { Button, Text } from '@chakra-ui/react';
import { ShieldMinus, ShieldPlus } from 'lucide-react';
import { useState } from 'react';
import type { AdminUser } from '@moonrelay/contract/admin';
import { messageOf } from '../../../../lib/api-client.ts';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.tsx';
import { notify } from '../../../../lib/toaster.tsx';
import { useSetUserRole } from '../../api/set-role.ts';
import { ADMIN_TOASTS } from '../../admin-text.ts';

/**
 * Make Admin / Remove Admin, after a confirmation. A refusal is shown with the server's reason: the
 * last admin cannot be demoted (409).
 */
export function RoleButton({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const [open, setOpen] = useState(false);
  const setRole = useSetUserRole();
  const promote = !user.isAdmin;

  const confirm = async () => {
    try {
      await setRole.mutateAsync({ userId: user.id, isAdmin: promote });
      notify(ADMIN_TOASTS.roleChanged(user.name, promote));
    } catch (error) {
      notify({
        type: 'error',
        title: ADMIN_TOASTS.roleFailed.title,
        description: messageOf(error, ADMIN_TOASTS.roleFailed.description),
      });
    }
    // Either way there is nothing more to decide here: a refusal does not change on a second try.
    setOpen(false);
  };

  const label = promote ? 'Make Admin' : 'Remove Admin';
  return (
    <ConfirmDialog
      trigger={
        <Button size="xs" variant="outline" aria-label={`${label}: ${user.name}`}>
          {promote ? <ShieldPlus /> : <ShieldMinus />} {label}
        </Button>
      }
      open={open}
      onOpenChange={setOpen}
      title={promote ? 'Grant Admin Access' : 'Remove Admin Access'}
      confirmLabel={label}
      pendingLabel="Saving..."
      pending={setRole.isPending}
      onConfirm={() => void confirm()}
    >
      <Text>
        {promote
          ? `${user.name} (@${user.username}) will see every user and their API keys, and can send commands and scripts to anyone's game.`
          : isSelf
            ? 'You will lose access to the Admin Panel.'
            : `${user.name} (@${user.username}) will lose access to the Admin Panel.`}
      </Text>
    </ConfirmDialog>
  );
}
