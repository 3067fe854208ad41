import { Avatar, Badge, Card, HStack, Stack, Text } from '@chakra-ui/react';
import { BadgeCheck } from 'lucide-react';
import type { PlayerProfile } from '@moonrelay/contract/game';
import { isStudioTestPlayer } from '@moonrelay/contract/studio';
import { isSimulatedPlayer, SIMULATOR_TEXT } from '@moonrelay/contract/simulated';
import { GAME_HEALTH } from '@moonrelay/contract/messages';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format.ts';
import { usePlayerProfile } from '../api/game.ts';
import { GAME_TEXT } from '../game-text.ts';

interface Props {
  connected: boolean;
  /** The Roblox user id the game reported for its player. */
  userId: string | number | undefined;
}

/** Player Profile: the connected player's Roblox profile, fetched only while the game is connected. */
export function PlayerProfileCard({ connected, userId }: Props) {
  // Studio's test players (negative ids) have no Roblox profile to fetch.
  const testPlayer = typeof userId === 'number' && isStudioTestPlayer(userId);
  const profile = usePlayerProfile(userId, connected && !testPlayer);

  let content;
  if (!connected) {
    content = <Placeholder>{GAME_TEXT.profileConnect}</Placeholder>;
  } else if (userId === undefined) {
    content = <Placeholder>The game has not reported a player yet.</Placeholder>;
  } else if (isSimulatedPlayer(userId)) {
    content = <Placeholder>{SIMULATOR_TEXT.noProfile}</Placeholder>;
  } else if (testPlayer) {
    content = <Placeholder>{GAME_HEALTH.studioTestPlayer}</Placeholder>;
  } else if (profile.data) {
    content = <ProfileDetails profile={profile.data} />;
  } else if (profile.isError) {
    // 502: Roblox could not be reached; the server says so in its error text.
    content = <Text color="fg.error">{messageOf(profile.error, 'Player profile unavailable')}</Text>;
  } else {
    content = <Placeholder>{GAME_TEXT.profileLoading}</Placeholder>;
  }

  return (
    <Card.Root role="region" aria-label="Player Profile">
      <Card.Header>
        <Card.Title>Player Profile</Card.Title>
      </Card.Header>
      <Card.Body>{content}</Card.Body>
    </Card.Root>
  );
}

const Placeholder = ({ children }: { children: string }) => <Text color="fg.muted">{children}</Text>;

function ProfileDetails({ profile }: { profile: PlayerProfile }) {
  const shownName = profile.displayName || profile.name;
  return (
    <Stack gap="3">
      <HStack gap="3">
        <Avatar.Root size="lg">
          <Avatar.Fallback name={shownName} />
          {profile.avatarUrl && <Avatar.Image src={profile.avatarUrl} alt={`${shownName}'s avatar`} />}
        </Avatar.Root>
        <Stack gap="0" minW="0">
          <HStack gap="1">
            <Text fontWeight="semibold" truncate>
              {shownName}
            </Text>
            {profile.hasVerifiedBadge && (
              <Badge colorPalette="blue" variant="subtle" gap="1">
                <BadgeCheck size={12} aria-hidden /> Verified
              </Badge>
            )}
          </HStack>
          <Text fontSize="sm" color="fg.muted" truncate>
            @{profile.name}
          </Text>
        </Stack>
      </HStack>
      <Text fontSize="sm">ID: {profile.id}</Text>
      {profile.description && (
        <Text fontSize="sm" color="fg.muted" whiteSpace="pre-wrap" lineClamp={4}>
          {profile.description}
        </Text>
      )}
      {profile.created && (
        <Text fontSize="sm" color="fg.muted">
          Joined {formatDate(profile.created)}
        </Text>
      )}
    </Stack>
  );
}
