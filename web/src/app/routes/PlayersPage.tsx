import { PlayersScreen } from '../../features/players/components/PlayersScreen.tsx';

/** Players: who is playing in the user's games now, and each player's record. */
export default function PlayersPage() {
  return <PlayersScreen />;
}
