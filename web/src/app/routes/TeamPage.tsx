import { TeamScreen } from '../../features/teams/components/TeamScreen.tsx';

/** Team: the members of the team the dashboard acts on, and inviting more. */
export default function TeamPage() {
  return <TeamScreen />;
}
