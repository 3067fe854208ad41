import { Alert, Button, Card, Stack, Text } from '@chakra-ui/react';
import { UserPlus } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { TEAM_ERRORS } from '@moonrelay/contract/teams';
import { PageHeading } from '../../../components/PageHeading.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useAcceptInvitation } from '../api/teams.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { useOpenTeam } from '../use-open-team.ts';

/**
 * An invitation link's page (`/join?token=`). Joining is a button, not done on opening: a link
 * opened by a preview or by mistake must not use the invitation up. Once joined, the dashboard
 * opens the team's Team screen; a link that expired, was used or is not one says so in the
 * server's words.
 */
export function JoinTeamScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const accept = useAcceptInvitation();
  const openTeam = useOpenTeam();

  const join = () =>
    accept.mutate(token, {
      onSuccess: (team) => {
        notify({ title: TEAM_TEXT.joinedTeam(team.name) });
        openTeam(team.id, '/team');
      },
    });

  return (
    <Stack gap="6" maxW="xl">
      <PageHeading>{TEAM_TEXT.joinTitle}</PageHeading>
      <Card.Root>
        <Card.Body>
          <Stack gap="4">
            {token ? (
              <Text>{TEAM_TEXT.joinDescription}</Text>
            ) : (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{TEAM_ERRORS.invitationInvalid}</Alert.Title>
              </Alert.Root>
            )}
            {accept.isError && (
              <Alert.Root status="error" data-testid="join-error">
                <Alert.Indicator />
                <Alert.Title>{messageOf(accept.error, TEAM_TEXT.joinFailed)}</Alert.Title>
              </Alert.Root>
            )}
          </Stack>
        </Card.Body>
        <Card.Footer>
          <Button
            colorPalette="purple"
            onClick={join}
            disabled={!token || accept.isSuccess}
            loading={accept.isPending}
            loadingText={TEAM_TEXT.joining}
          >
            <UserPlus /> {TEAM_TEXT.join}
          </Button>
        </Card.Footer>
      </Card.Root>
    </Stack>
  );
}
