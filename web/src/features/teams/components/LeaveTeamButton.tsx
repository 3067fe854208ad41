import { Button } from '@chakra-ui/react';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { refreshTeams } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useRemoveMember } from '../api/members.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { useOpenTeam } from '../use-open-team.ts';

interface Props {
  teamId: string;
  teamName: string;
  userId: string;
  /** Set when the person is the team's only owner (the server would refuse): the id of the text saying so. */
  disabledReasonId?: string;
}

/**
 * Any member can leave (removing themself needs no permission); the last owner cannot, and the
 * button, disabled, is described by the reason. Afterwards the dashboard is back on the person's
 * own account.
 */
export function LeaveTeamButton({ teamId, teamName, userId, disabledReasonId }: Props) {
  const [open, setOpen] = useState(false);
  const leave = useRemoveMember(teamId);
  const openTeam = useOpenTeam();

  const confirm = () =>
    leave.mutate(userId, {
      onSuccess: async () => {
        setOpen(false);
        // The address first: the team gate follows it to the person's own account.
        openTeam(userId, '/dashboard');
        await refreshTeams();
        notify({ title: TEAM_TEXT.left(teamName) });
      },
      onError: (error) =>
        notify({ type: 'error', title: 'Error', description: messageOf(error, TEAM_TEXT.leaveFailed) }),
    });

  if (disabledReasonId) {
    return (
      <Button variant="outline" colorPalette="red" disabled aria-describedby={disabledReasonId}>
        <LogOut /> {TEAM_TEXT.leave}
      </Button>
    );
  }

  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" colorPalette="red">
          <LogOut /> {TEAM_TEXT.leave}
        </Button>
      }
      open={open}
      onOpenChange={(next) => !leave.isPending && setOpen(next)}
      title={TEAM_TEXT.leaveTitle(teamName)}
      confirmLabel={TEAM_TEXT.leave}
      pendingLabel={TEAM_TEXT.leaving}
      pending={leave.isPending}
      onConfirm={confirm}
    >
      {TEAM_TEXT.leaveBody}
    </ConfirmDialog>
  );
}
