import { Alert, Button, CloseButton, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { UserPlus } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ROLE_LABELS, type CreatedInvitation, type TeamPermission } from '@moonrelay/contract/teams';
import { ShownOnceField } from '../../../components/ShownOnceField.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useCreateInvitation } from '../api/members.ts';
import { choiceValid, firstChoice, grantOf, type GrantChoice } from '../grant.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { GrantFields } from './GrantFields.tsx';

/** The page an invitation link opens: the join page of this dashboard, with the link's secret. */
export const invitationLink = (token: string) => `${location.origin}/join?token=${encodeURIComponent(token)}`;

interface Props {
  teamId: string;
  /** What the inviter holds: the most an invitation can give. */
  held: ReadonlySet<TeamPermission>;
  /** Set when the inviter may not invite: the button is disabled and described by it. */
  disabledReasonId?: string;
}

/**
 * Makes an invitation link with a role, or permissions one by one. The link is then shown once,
 * with the role it gives, when it stops working and a copy button: it carries the invitation's
 * only secret, and the server cannot show it again. The focus moves to the link (selected), so a
 * keyboard copies it at once and a screen reader reads it with what to do.
 */
export function InviteDialog({ teamId, held, disabledReasonId }: Props) {
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState<GrantChoice>(() => firstChoice(held));
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const link = created ? invitationLink(created.token) : null;
  const invite = useCreateInvitation(teamId);
  const linkInput = useRef<HTMLInputElement>(null);
  const linkHelpId = useId();

  // The form (and the button that sent it) is gone: the focus would fall to the page behind.
  useEffect(() => {
    if (!created) return;
    linkInput.current?.focus();
  }, [created]);

  const reset = () => {
    setChoice(firstChoice(held));
    setCreated(null);
    invite.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!choiceValid(held, choice)) return;
    invite.mutate(grantOf(choice), { onSuccess: setCreated });
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => {
        if (invite.isPending) return;
        setOpen(event.open);
        if (!event.open) reset();
      }}
      closeOnInteractOutside={!link && !invite.isPending}
    >
      <Dialog.Trigger asChild>
        <Button colorPalette="purple" disabled={Boolean(disabledReasonId)} aria-describedby={disabledReasonId}>
          <UserPlus /> {TEAM_TEXT.invite}
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{link ? TEAM_TEXT.linkTitle : TEAM_TEXT.inviteTitle}</Dialog.Title>
            </Dialog.Header>
            {created && link ? (
              <>
                <Dialog.Body>
                  <Stack gap="3" id={linkHelpId}>
                    <Text>{TEAM_TEXT.linkShownOnce}</Text>
                    <Text color="fg.muted">
                      {TEAM_TEXT.linkGives(ROLE_LABELS[created.role], formatDateTime(created.expiresAt))}
                    </Text>
                  </Stack>
                  <Stack mt="3">
                    <ShownOnceField
                      inputRef={linkInput}
                      value={link}
                      label={TEAM_TEXT.linkLabel}
                      describedBy={linkHelpId}
                      copyLabel={TEAM_TEXT.copyLink}
                      copiedTitle={TEAM_TEXT.linkCopied}
                    />
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Dialog.ActionTrigger asChild>
                    <Button>{TEAM_TEXT.done}</Button>
                  </Dialog.ActionTrigger>
                </Dialog.Footer>
              </>
            ) : (
              <form onSubmit={submit} noValidate>
                <Dialog.Body>
                  <Stack gap="4">
                    <Text color="fg.muted">{TEAM_TEXT.inviteDescription}</Text>
                    <GrantFields value={choice} onChange={setChoice} held={held} />
                    {invite.isError && (
                      <Alert.Root status="error">
                        <Alert.Indicator />
                        <Alert.Title>{messageOf(invite.error, TEAM_TEXT.inviteFailed)}</Alert.Title>
                      </Alert.Root>
                    )}
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline" disabled={invite.isPending}>
                      {TEAM_TEXT.cancel}
                    </Button>
                  </Dialog.ActionTrigger>
                  <Button
                    type="submit"
                    loading={invite.isPending}
                    loadingText={TEAM_TEXT.makingLink}
                    disabled={!choiceValid(held, choice)}
                  >
                    {TEAM_TEXT.makeLink}
                  </Button>
                </Dialog.Footer>
              </form>
            )}
            <Dialog.CloseTrigger asChild disabled={invite.isPending}>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
