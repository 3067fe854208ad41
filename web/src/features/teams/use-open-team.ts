import { useLocation, useNavigate } from 'react-router-dom';
import { teamSearch } from '../../lib/team-switch.ts';

/**
 * Opens a team's pages: the address names it (`?team=`) and the team gate switches to it, the one
 * place that does. `pathname` defaults to the page on show, without its other parameters (an open
 * script or run of one team means nothing in another).
 */
export function useOpenTeam() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (teamId: string, to: string = pathname) => navigate({ pathname: to, search: teamSearch(teamId) });
}
