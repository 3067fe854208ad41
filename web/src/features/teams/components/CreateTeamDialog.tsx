import { Alert, Button, CloseButton, Dialog, Field, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { TEAM_ERRORS, TEAM_NAME_MAX_LENGTH } from '@moonrelay/contract/teams';
import { messageOf } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useCreateTeam } from '../api/teams.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { useOpenTeam } from '../use-open-team.ts';

/** The name's own checks, as the server makes them, said before a round trip. */
function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return TEAM_ERRORS.nameRequired;
  if (trimmed.length > TEAM_NAME_MAX_LENGTH) return TEAM_ERRORS.nameTooLong;
  return undefined;
}

/**
 * Creates a team from its name; the person is its owner, and the dashboard then opens the new
 * team's Team screen, where they invite the others. Opened by the team switcher and by the
 * personal team's Team screen.
 */
export function CreateTeamDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const create = useCreateTeam();
  const openTeam = useOpenTeam();
  const problem = tried ? nameProblem(name) : undefined;

  const close = (next: boolean) => {
    if (create.isPending) return;
    onOpenChange(next);
    if (!next) {
      setName('');
      setTried(false);
      create.reset();
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (nameProblem(name)) return;
    create.mutate(name.trim(), {
      onSuccess: (team) => {
        close(false);
        notify({ title: TEAM_TEXT.created, description: team.name });
        openTeam(team.id, '/team');
      },
    });
  };

  return (
    <Dialog.Root open={open} onOpenChange={(event) => close(event.open)} closeOnInteractOutside={!create.isPending}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{TEAM_TEXT.createTitle}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Text color="fg.muted">{TEAM_TEXT.createDescription}</Text>
                  <Field.Root required invalid={Boolean(problem)}>
                    <Field.Label>{TEAM_TEXT.nameLabel}</Field.Label>
                    <Input value={name} onChange={(event) => setName(event.target.value)} placeholder="Studio" />
                    {problem && <Field.ErrorText>{problem}</Field.ErrorText>}
                  </Field.Root>
                  {create.isError && (
                    <Alert.Root status="error">
                      <Alert.Indicator />
                      <Alert.Title>{messageOf(create.error, TEAM_TEXT.createFailed)}</Alert.Title>
                    </Alert.Root>
                  )}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline" disabled={create.isPending}>
                    {TEAM_TEXT.cancel}
                  </Button>
                </Dialog.ActionTrigger>
                <Button type="submit" loading={create.isPending} loadingText={TEAM_TEXT.creating}>
                  {TEAM_TEXT.create}
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild disabled={create.isPending}>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
