import { Alert, Button, Card, Center, DataList, Spinner, Stack, Text } from '@chakra-ui/react';
import { UserPlus } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { ROLE_LABELS, TEAM_ERRORS, type InvitationPreview } from '@moonrelay/contract/teams';
import { PageHeading } from '../../../components/PageHeading.tsx';
import { ApiError, messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useAcceptInvitation, useInvitationPreview } from '../api/teams.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { useOpenTeam } from '../use-open-team.ts';

/** A refusal that says the link itself is no good (not found, used, expired): asking again will not help. */
const linkRefused = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 410);

/**
 * An invitation link's page (`/join?token=`). It first shows what the link offers (the team, the
 * role, who invited, until when), read without using the link up; joining is a button, not done
 * on opening: a link opened by a preview or by mistake must not use the invitation up. Once
 * joined, the dashboard opens the team's Team screen. A link that expired, was used or is not one
 * says so in the server's words, with nothing to join.
 */
export function JoinTeamScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const openTeam = useOpenTeam();

  const join = () =>
    accept.mutate(token, {
      onSuccess: (team) => {
        notify({ title: TEAM_TEXT.joinedTeam(team.name) });
        openTeam(team.id, '/team');
      },
    });

  let body;
  if (!token) {
    body = <LinkProblem message={TEAM_ERRORS.invitationInvalid} />;
  } else if (preview.isPending) {
    body = (
      <Center py="6">
        <Spinner aria-label={TEAM_TEXT.previewLoading} />
      </Center>
    );
  } else if (preview.isError) {
    body = linkRefused(preview.error) ? (
      <LinkProblem message={messageOf(preview.error, TEAM_ERRORS.invitationInvalid)} />
    ) : (
      <LinkProblem message={messageOf(preview.error, TEAM_TEXT.previewFailed)} onRetry={() => void preview.refetch()} />
    );
  } else {
    body = <Offer preview={preview.data} />;
  }

  return (
    <Stack gap="6" maxW="xl">
      <PageHeading>{TEAM_TEXT.joinTitle}</PageHeading>
      <Card.Root>
        <Card.Body>
          <Stack gap="4">
            {body}
            {accept.isError && (
              <Alert.Root status="error" data-testid="join-error">
                <Alert.Indicator />
                <Alert.Title>{messageOf(accept.error, TEAM_TEXT.joinFailed)}</Alert.Title>
              </Alert.Root>
            )}
          </Stack>
        </Card.Body>
        {preview.isSuccess && (
          <Card.Footer>
            <Button
              colorPalette="purple"
              onClick={join}
              disabled={accept.isSuccess}
              loading={accept.isPending}
              loadingText={TEAM_TEXT.joining}
            >
              <UserPlus /> {TEAM_TEXT.join}
            </Button>
          </Card.Footer>
        )}
      </Card.Root>
    </Stack>
  );
}

/** What the link offers, as the server read it. */
function Offer({ preview }: { preview: InvitationPreview }) {
  return (
    <>
      <Text>{TEAM_TEXT.joinDescription}</Text>
      <DataList.Root orientation="horizontal" data-testid="invitation-preview">
        <DataList.Item>
          <DataList.ItemLabel>{TEAM_TEXT.previewTeam}</DataList.ItemLabel>
          <DataList.ItemValue fontWeight="semibold">{preview.teamName}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{TEAM_TEXT.roleLabel}</DataList.ItemLabel>
          <DataList.ItemValue>
            {preview.role === 'custom'
              ? `${ROLE_LABELS.custom}: ${preview.permissions.join(', ')}`
              : ROLE_LABELS[preview.role]}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{TEAM_TEXT.previewInvitedBy}</DataList.ItemLabel>
          <DataList.ItemValue>{preview.invitedBy ?? TEAM_TEXT.previewInviterGone}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{TEAM_TEXT.previewUntil}</DataList.ItemLabel>
          <DataList.ItemValue>
            <time dateTime={preview.expiresAt}>{formatDateTime(preview.expiresAt)}</time>
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
    </>
  );
}

/** Why the link cannot be used, in the server's words; a retry only when the server could not answer. */
function LinkProblem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Alert.Root status="error" data-testid="link-problem">
      <Alert.Indicator />
      <Alert.Title>{message}</Alert.Title>
      {onRetry && (
        <Button size="sm" variant="outline" onClick={onRetry}>
          {TEAM_TEXT.retry}
        </Button>
      )}
    </Alert.Root>
  );
}
