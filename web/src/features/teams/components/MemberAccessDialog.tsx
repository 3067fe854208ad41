import { Alert, Button, CloseButton, Dialog, Portal, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import type { TeamMember, TeamPermission } from '@moonrelay/contract/teams';
import { messageOf } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useUpdateMember } from '../api/members.ts';
import { choiceValid, grantOf, type GrantChoice } from '../grant.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { GrantFields } from './GrantFields.tsx';

interface Props {
  teamId: string;
  /** The member whose role is being changed; null: closed. */
  member: TeamMember | null;
  held: ReadonlySet<TeamPermission>;
  onClose(): void;
}

/** Changes a member's role, or their permissions one by one; it counts from their next request. */
export function MemberAccessDialog({ teamId, member, held, onClose }: Props) {
  return (
    <Dialog.Root open={member !== null} onOpenChange={(event) => !event.open && onClose()} lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {/* Keyed: each member's form starts from their own role. */}
            {member && <AccessForm key={member.userId} teamId={teamId} member={member} held={held} onDone={onClose} />}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function AccessForm({
  teamId,
  member,
  held,
  onDone,
}: {
  teamId: string;
  member: TeamMember;
  held: ReadonlySet<TeamPermission>;
  onDone(): void;
}) {
  const [choice, setChoice] = useState<GrantChoice>({ role: member.role, permissions: member.permissions });
  const update = useUpdateMember(teamId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!choiceValid(held, choice)) return;
    update.mutate(
      { userId: member.userId, grant: grantOf(choice) },
      {
        onSuccess: () => {
          notify({ title: TEAM_TEXT.accessSaved(member.name) });
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Dialog.Header>
        <Dialog.Title>{TEAM_TEXT.accessTitle(member.name)}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">
          <GrantFields value={choice} onChange={setChoice} held={held} />
          {update.isError && (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{messageOf(update.error, TEAM_TEXT.accessFailed)}</Alert.Title>
            </Alert.Root>
          )}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Dialog.ActionTrigger asChild>
          <Button variant="outline" disabled={update.isPending}>
            {TEAM_TEXT.cancel}
          </Button>
        </Dialog.ActionTrigger>
        <Button
          type="submit"
          loading={update.isPending}
          loadingText={TEAM_TEXT.saving}
          disabled={!choiceValid(held, choice)}
        >
          {TEAM_TEXT.save}
        </Button>
      </Dialog.Footer>
      <Dialog.CloseTrigger asChild disabled={update.isPending}>
        <CloseButton size="sm" />
      </Dialog.CloseTrigger>
    </form>
  );
}
