import { JoinTeamScreen } from '../../features/teams/components/JoinTeamScreen.tsx';

/** An invitation link's page: join the team it invites into. */
export default function JoinTeamPage() {
  return <JoinTeamScreen />;
}
