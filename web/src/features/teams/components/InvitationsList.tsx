import { Badge, Box, Button, defineStyle, Text } from '@chakra-ui/react';
import { ROLE_LABELS, type TeamInvitation } from '@moonrelay/contract/teams';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useRevokeInvitation } from '../api/members.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { useRefocus } from '../use-refocus.ts';

/** Set once on the list, like the members' list: rows are plain elements with class names. */
const INVITATION_LIST_CSS = defineStyle({
  listStyleType: 'none',
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
  '& .invitation-row': {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: '3',
    p: '3',
    borderWidth: '1px',
    borderRadius: 'md',
  },
  '& .invitation-text': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2', minWidth: 0 },
  '& .invitation-detail': { fontSize: 'sm', color: 'fg.muted' },
});

interface Props {
  teamId: string;
  invitations: readonly TeamInvitation[];
  /** The person may manage members: only then does the server list the invitations at all. */
  canManage: boolean;
}

/**
 * The invitation links not used yet, with the role each gives and when it stops working; Revoke
 * stops one at once. (Their links cannot be shown again: the server keeps only a digest.)
 */
export function InvitationsList({ teamId, invitations, canManage }: Props) {
  const revoke = useRevokeInvitation(teamId);
  // The revoked row goes with its button: the focus goes to the list (or the words that it is empty).
  const list = useRefocus<HTMLDivElement>();
  if (!canManage) return <Text color="fg.muted">{TEAM_TEXT.invitationsHidden}</Text>;
  if (invitations.length === 0) {
    return (
      <Text color="fg.muted" ref={list.target} tabIndex={-1}>
        {TEAM_TEXT.invitationsEmpty}
      </Text>
    );
  }

  const onRevoke = (invitation: TeamInvitation) =>
    revoke.mutate(invitation.id, {
      onSuccess: () => {
        list.refocus();
        notify({ title: TEAM_TEXT.revoked });
      },
      onError: (error) =>
        notify({ type: 'error', title: 'Error', description: messageOf(error, TEAM_TEXT.revokeFailed) }),
    });

  return (
    <Box as="ul" ref={list.target} tabIndex={-1} css={INVITATION_LIST_CSS} aria-label={TEAM_TEXT.invitationsLabel}>
      {invitations.map((invitation) => {
        const expires = formatDateTime(invitation.expiresAt);
        return (
          <li key={invitation.id} className="invitation-row">
            <div className="invitation-text">
              <Badge>{ROLE_LABELS[invitation.role]}</Badge>
              <span className="invitation-detail">{TEAM_TEXT.expires(expires)}</span>
            </div>
            <Button
              size="sm"
              variant="outline"
              colorPalette="red"
              aria-label={TEAM_TEXT.revokeLabel(ROLE_LABELS[invitation.role], expires)}
              loading={revoke.isPending && revoke.variables === invitation.id}
              onClick={() => onRevoke(invitation)}
            >
              {TEAM_TEXT.revoke}
            </Button>
          </li>
        );
      })}
    </Box>
  );
}
