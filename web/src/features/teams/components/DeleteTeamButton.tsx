import { Button } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { refreshTeams } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useDeleteTeam } from '../api/teams.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { useOpenTeam } from '../use-open-team.ts';

/**
 * Deletes the team and everything it owns, for a member holding team.delete (the owners): the way
 * out of a team one made by mistake, or that one is the only owner of. Afterwards the dashboard is
 * back on the person's own account.
 */
export function DeleteTeamButton({ teamId, teamName, userId }: { teamId: string; teamName: string; userId: string }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteTeam(teamId);
  const openTeam = useOpenTeam();

  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: async () => {
        setOpen(false);
        // The address first: the team gate follows it to the person's own account.
        openTeam(userId, '/dashboard');
        await refreshTeams();
        notify({ title: TEAM_TEXT.deleted(teamName) });
      },
      onError: (error) =>
        notify({ type: 'error', title: 'Error', description: messageOf(error, TEAM_TEXT.deleteFailed) }),
    });

  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" colorPalette="red">
          <Trash2 /> {TEAM_TEXT.deleteTeam}
        </Button>
      }
      open={open}
      onOpenChange={(next) => !remove.isPending && setOpen(next)}
      title={TEAM_TEXT.deleteTitle(teamName)}
      confirmLabel={TEAM_TEXT.deleteTeam}
      pendingLabel={TEAM_TEXT.deleting}
      pending={remove.isPending}
      onConfirm={confirm}
    >
      {TEAM_TEXT.deleteBody}
    </ConfirmDialog>
  );
}
