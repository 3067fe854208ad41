import { Alert, Box, Button, Card, Center, defineStyle, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { ROLE_LABELS, type TeamDetails } from '@moonrelay/contract/teams';
import { PageHeading } from '../../../components/PageHeading.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';
import { canWith } from '../../../lib/team-access.ts';
import { useTeam } from '../../../lib/team.ts';
import { useTeamDetails } from '../../../lib/team-details.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { CreateTeamDialog } from './CreateTeamDialog.tsx';
import { DeleteTeamButton } from './DeleteTeamButton.tsx';
import { InvitationsList } from './InvitationsList.tsx';
import { InviteDialog } from './InviteDialog.tsx';
import { LeaveTeamButton } from './LeaveTeamButton.tsx';
import { MembersList } from './MembersList.tsx';
import { TeamActivity } from './TeamActivity.tsx';

/** The id of the text saying why the member controls are disabled. */
const MANAGE_REASON_ID = 'team-manage-reason';
/** The id of the text saying why the only owner cannot leave. */
const LEAVE_REASON_ID = 'team-leave-reason';

/** Leaving and deleting: rows of what each does and its button, set once on their container. */
const EXITS_CSS = defineStyle({
  display: 'flex',
  flexDirection: 'column',
  '& .exit-row': {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    columnGap: '4',
    rowGap: '2',
    py: '3',
  },
  '& .exit-row:first-of-type': { pt: '0' },
  '& .exit-row:last-of-type': { pb: '0' },
  '& .exit-row + .exit-row': { borderTopWidth: '1px' },
  '& .exit-text': { display: 'flex', flexDirection: 'column', gap: '0.5', flex: '1 1 16rem', minWidth: 0 },
  '& .exit-title': { fontWeight: 'semibold' },
  '& .exit-detail': { fontSize: 'sm', color: 'fg.muted' },
});

/**
 * Team: the chosen team's members and open invitations; with members.manage, inviting, changing
 * roles and removing; with audit.read, the team's activity log; for every member, leaving. On the person's own account, what a team is for
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
      <TeamActivity team={team} />
      {userId && <TeamExits team={team} userId={userId} canDelete={held.has('team.delete')} />}
    </>
  );
}

/**
 * Leaving the team, and (for a member holding team.delete) deleting it. The server keeps one owner
 * at least: the only owner cannot leave, which the row says, and deleting is their way out.
 */
function TeamExits({ team, userId, canDelete }: { team: TeamDetails; userId: string; canDelete: boolean }) {
  const owners = team.memberList.filter((member) => member.role === 'owner').length;
  const lastOwner = team.role === 'owner' && owners <= 1;
  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">{canDelete ? TEAM_TEXT.exitsLeaveOrDelete : TEAM_TEXT.exitsLeave}</Card.Title>
      </Card.Header>
      <Card.Body>
        <Box css={EXITS_CSS}>
          <div className="exit-row">
            <div className="exit-text">
              <span className="exit-title">{TEAM_TEXT.leave}</span>
              <span className="exit-detail" id={lastOwner ? LEAVE_REASON_ID : undefined}>
                {lastOwner ? TEAM_TEXT.lastOwner : TEAM_TEXT.leaveDetail}
              </span>
            </div>
            <LeaveTeamButton
              teamId={team.id}
              teamName={team.name}
              userId={userId}
              disabledReasonId={lastOwner ? LEAVE_REASON_ID : undefined}
            />
          </div>
          {canDelete && (
            <div className="exit-row">
              <div className="exit-text">
                <span className="exit-title">{TEAM_TEXT.deleteTeam}</span>
                <span className="exit-detail">{TEAM_TEXT.deleteDetail}</span>
              </div>
              <DeleteTeamButton teamId={team.id} teamName={team.name} userId={userId} />
            </div>
          )}
        </Box>
      </Card.Body>
    </Card.Root>
  );
}
