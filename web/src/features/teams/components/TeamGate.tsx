import { Center, Spinner } from '@chakra-ui/react';
import { useEffect, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSession } from '../../../lib/session.ts';
import { useTeam } from '../../../lib/team.ts';
import { useTeams } from '../../../lib/team-access.ts';
import { switchTeam, TEAM_PARAM } from '../../../lib/team-switch.ts';
import { notify } from '../../../lib/toaster.tsx';
import { teamLinkStep } from '../team-link.ts';

/**
 * Between the address and the signed-in screens: follows a link's `?team=` to that team (when
 * the person belongs to it), takes the person back to their own account when they are no longer
 * in the chosen team, and keeps the address naming the chosen team. The screens show only once
 * the team they act on is settled, so none of them asks for another team's data first.
 */
export function TeamGate({ children }: { children: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const teamId = useTeam((state) => state.teamId);
  const userId = useSession((state) => state.user?.id);
  const teams = useTeams();
  const step = teamLinkStep({
    linked: params.get(TEAM_PARAM),
    teamId,
    userId,
    teams: teams.data,
    listFailed: teams.isError,
  });

  // The step's parts, so the effect runs again only when what it does changes.
  const target = step.kind === 'switch' || step.kind === 'tidy' ? step.teamId : null;
  const notice = step.kind === 'switch' || step.kind === 'refuse' ? step.notice : undefined;
  useEffect(() => {
    const nameInAddress = (id: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id) next.set(TEAM_PARAM, id);
          else next.delete(TEAM_PARAM);
          return next;
        },
        { replace: true },
      );
    if (step.kind === 'switch') {
      switchTeam(target);
      if (notice) notify({ type: 'warning', title: 'Team', description: notice });
    } else if (step.kind === 'refuse') {
      if (notice) notify({ type: 'error', title: 'Team', description: notice });
      nameInAddress(teamId);
    } else if (step.kind === 'tidy') {
      nameInAddress(target);
    }
  }, [step.kind, target, notice, teamId, setParams]);

  if (step.kind === 'wait' || step.kind === 'switch') {
    return (
      <Center minH="100vh">
        <Spinner size="lg" aria-label="Opening the team" />
      </Center>
    );
  }
  return children;
}
