import { Text } from '@chakra-ui/react';
import { useCurrentTeam } from '../../../lib/team-access.ts';

/**
 * The chosen team's name for the phone's top bar, where the sidebar (and its team switcher) hides
 * behind the menu button: a moderator must see which team's players they are about to ban.
 * Nothing on the person's own account.
 */
export function CurrentTeamName() {
  const team = useCurrentTeam();
  if (!team || team.personal) return null;
  return (
    <Text fontSize="sm" fontWeight="medium" color="fg.muted" truncate minW="0" flex="1" textAlign="end" px="2">
      {team.name}
    </Text>
  );
}
