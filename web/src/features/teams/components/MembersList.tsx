import { Badge, Box, Button, defineStyle } from '@chakra-ui/react';
import { useState } from 'react';
import { ROLE_LABELS, type TeamMember, type TeamPermission } from '@moonrelay/contract/teams';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useRemoveMember } from '../api/members.ts';
import { holdsAll } from '../grant.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { useRefocus } from '../use-refocus.ts';
import { MemberAccessDialog } from './MemberAccessDialog.tsx';

/**
 * The list's look, set once on its container (as Settings' sessions list does): rows are plain
 * elements with class names; the person's own row is told by `data-you`.
 */
const MEMBER_LIST_CSS = defineStyle({
  listStyleType: 'none',
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
  '& .member-row': {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    columnGap: '4',
    rowGap: '2',
    p: '3',
    borderWidth: '1px',
    borderRadius: 'md',
  },
  '& .member-row[data-you]': { borderColor: 'border.emphasized', bg: 'bg.subtle' },
  '& .member-text': { display: 'flex', flexDirection: 'column', gap: '0.5', minWidth: 0, flex: '1 1 14rem' },
  '& .member-title': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' },
  '& .member-name': { fontWeight: 'semibold', overflowWrap: 'anywhere' },
  '& .member-detail': { fontSize: 'sm', color: 'fg.muted', overflowWrap: 'anywhere' },
  '& .member-actions': { display: 'flex', gap: '2', flexWrap: 'wrap' },
});

/** Why the person cannot change this member, beyond lacking members.manage (the server's own rule). */
const OUTRANKED = 'They hold permissions you do not hold';

interface Props {
  teamId: string;
  members: readonly TeamMember[];
  /** The person's user id: their row has no actions (they leave with Leave team). */
  userId: string | undefined;
  held: ReadonlySet<TeamPermission>;
  /** Set when the person may not manage members: the id of the text saying why. */
  disabledReasonId?: string;
}

/**
 * The team's members: name, username, role and when they joined; with members.manage, each other
 * member's role can be changed and they can be removed. Without it the buttons stay, disabled and
 * described by the reason.
 */
export function MembersList({ teamId, members, userId, held, disabledReasonId }: Props) {
  const [editing, setEditing] = useState<TeamMember | null>(null);
  // Kept after the confirmation closes, so its text stays while it fades out.
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const [confirming, setConfirming] = useState(false);
  const remove = useRemoveMember(teamId);
  const list = useRefocus<HTMLDivElement>();

  const confirmRemove = () => {
    if (!removing) return;
    const { name } = removing;
    remove.mutate(removing.userId, {
      onSuccess: () => {
        setConfirming(false);
        list.refocus();
        notify({ title: TEAM_TEXT.removed(name) });
      },
      onError: (error) =>
        notify({ type: 'error', title: 'Error', description: messageOf(error, TEAM_TEXT.removeFailed) }),
    });
  };

  return (
    <>
      <Box as="ul" ref={list.target} tabIndex={-1} css={MEMBER_LIST_CSS} aria-label={TEAM_TEXT.membersLabel}>
        {members.map((member) => {
          const you = member.userId === userId;
          const outranked = !holdsAll(held, member.permissions);
          const detailsId = `member-${member.userId}-details`;
          return (
            <li key={member.userId} className="member-row" data-you={you || undefined} aria-label={member.name}>
              <div className="member-text" id={detailsId}>
                <div className="member-title">
                  <span className="member-name">{member.name}</span>
                  {you && <Badge colorPalette="green">{TEAM_TEXT.you}</Badge>}
                  <Badge>{ROLE_LABELS[member.role]}</Badge>
                </div>
                <span className="member-detail">
                  @{member.username} · {TEAM_TEXT.joined(formatDate(member.joinedAt))}
                </span>
                {!you && !disabledReasonId && outranked && <span className="member-detail">{OUTRANKED}</span>}
              </div>
              {!you && (
                <div className="member-actions">
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={Boolean(disabledReasonId) || outranked}
                    aria-label={TEAM_TEXT.changeAccessLabel(member.name)}
                    aria-describedby={disabledReasonId ?? detailsId}
                    onClick={() => setEditing(member)}
                  >
                    {TEAM_TEXT.changeAccess}
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    colorPalette="red"
                    disabled={Boolean(disabledReasonId) || outranked}
                    aria-label={TEAM_TEXT.removeLabel(member.name)}
                    aria-describedby={disabledReasonId ?? detailsId}
                    onClick={() => {
                      setRemoving(member);
                      setConfirming(true);
                    }}
                  >
                    {TEAM_TEXT.remove}
                  </Button>
                </div>
              )}
            </li>
          );
        })}
      </Box>
      <MemberAccessDialog teamId={teamId} member={editing} held={held} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !remove.isPending && setConfirming(open)}
        title={removing ? TEAM_TEXT.removeTitle(removing.name) : ''}
        confirmLabel={TEAM_TEXT.remove}
        pendingLabel={TEAM_TEXT.removing}
        pending={remove.isPending}
        onConfirm={confirmRemove}
      >
        {TEAM_TEXT.removeBody}
      </ConfirmDialog>
    </>
  );
}
