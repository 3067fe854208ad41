import { Alert, Button, Card, Center, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { ROLE_LABELS, type TeamDetails } from '@moonrelay/contract/teams';
import { PageHeading } from '../../../components/PageHeading.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';
import { canWith } from '../../../lib/team-access.ts';
import { useTeam } from '../../../lib/team.ts';
import { useTeamDetails } from '../api/members.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { CreateTeamDialog } from './CreateTeamDialog.tsx';
import { InvitationsList } from './InvitationsList.tsx';
import { InviteDialog } from './InviteDialog.tsx';
import { LeaveTeamButton } from './LeaveTeamButton.tsx';
import { MembersList } from './MembersList.tsx';

/** The id of the text saying why the member controls are disabled. */
const MANAGE_REASON_ID = 'team-manage-reason';

/**
 * Team: the chosen team's members and open invitations; with members.manage, inviting, changing
 * roles and removing; for every member, leaving. On the person's own account, what a team is for
 * and a way to create one.
 */
export function TeamScreen() {
  const teamId = useTeam((state) => state.teamId);
  return (
    <Stack gap="6" maxW="4xl">
      {teamId === null ? <PersonalTeam /> : <TeamMembers teamId={teamId} />}
    </Stack>
  );
}

function PersonalTeam() {
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeading>{TEAM_TEXT.title}</PageHeading>
      <Card.Root>
        <Card.Header>
          <Card.Title as="h2">{TEAM_TEXT.personalTitle}</Card.Title>
        </Card.Header>
        <Card.Body>
          <Text color="fg.muted">{TEAM_TEXT.personalExplanation}</Text>
        </Card.Body>
        <Card.Footer>
          <Button colorPalette="purple" onClick={() => setCreating(true)}>
            <Plus /> {TEAM_TEXT.createTeam}
          </Button>
        </Card.Footer>
      </Card.Root>
      <CreateTeamDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}

function TeamMembers({ teamId }: { teamId: string }) {
  const details = useTeamDetails(teamId);
  if (details.isPending) {
    return (
      <>
        <PageHeading>{TEAM_TEXT.title}</PageHeading>
        <Center py="10">
          <Spinner />
        </Center>
      </>
    );
  }
  if (details.isError) {
    return (
      <>
        <PageHeading>{TEAM_TEXT.title}</PageHeading>
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{TEAM_TEXT.loadFailed}</Alert.Title>
            <Alert.Description>{messageOf(details.error, 'Please try again.')}</Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => void details.refetch()}>
            Retry
          </Button>
        </Alert.Root>
      </>
    );
  }
  return <TeamDetailsView team={details.data} />;
}

function TeamDetailsView({ team }: { team: TeamDetails }) {
  const userId = useSession((state) => state.user?.id);
  // What the person holds, as the server read it with the members: the most they can give.
  const held = new Set(team.permissions);
  const manage = canWith(held, 'members.manage');
  const reasonId = manage.allowed ? undefined : MANAGE_REASON_ID;

  return (
    <>
      <Stack gap="1">
        <PageHeading title={`${TEAM_TEXT.title}: ${team.name}`}>{team.name}</PageHeading>
        <Text color="fg.muted">
          {TEAM_TEXT.title} · your role: {ROLE_LABELS[team.role]}
        </Text>
      </Stack>
      <Card.Root>
        <Card.Header>
          <Flex justify="space-between" align="start" gap="3" wrap="wrap">
            <Stack gap="1">
              <Card.Title as="h2">
                {TEAM_TEXT.members} ({team.memberList.length.toLocaleString()})
              </Card.Title>
              {!manage.allowed && (
                <Text fontSize="sm" color="fg.muted" id={MANAGE_REASON_ID}>
                  {manage.reason}: inviting, changing roles and removing members is not open to your role.
                </Text>
              )}
            </Stack>
            <InviteDialog teamId={team.id} held={held} disabledReasonId={reasonId} />
          </Flex>
        </Card.Header>
        <Card.Body>
          <MembersList
            teamId={team.id}
            members={team.memberList}
            userId={userId}
            held={held}
            disabledReasonId={reasonId}
          />
        </Card.Body>
      </Card.Root>
      <Card.Root>
        <Card.Header>
          <Card.Title as="h2">{TEAM_TEXT.invitations}</Card.Title>
        </Card.Header>
        <Card.Body>
          <InvitationsList teamId={team.id} invitations={team.invitations} canManage={manage.allowed} />
        </Card.Body>
      </Card.Root>
      {userId && (
        <Flex justify="flex-end">
          <LeaveTeamButton teamId={team.id} teamName={team.name} userId={userId} />
        </Flex>
      )}
    </>
  );
}
