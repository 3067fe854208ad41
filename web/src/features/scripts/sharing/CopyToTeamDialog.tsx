import {
  Alert,
  Button,
  Center,
  CloseButton,
  Dialog,
  Field,
  NativeSelect,
  Portal,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { Copy } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { Script } from '@moonrelay/contract/scripts';
import { messageOf } from '../../../lib/api-client.ts';
import { useTeam } from '../../../lib/team.ts';
import { useTeams } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useCopyToTeam } from '../api/shares.ts';
import { copyTargets } from './copy-targets.ts';
import { SHARE_TEXT } from './share-text.ts';

/**
 * The editor's Copy to team: the saved script becomes a new script of another of the person's
 * teams, one where they may add scripts. The teams are read when the dialog opens (the switcher
 * has usually read them already); the copy's team is not the one on screen, so a toast says
 * where it went and the editor stays where it is.
 */
export function CopyToTeamDialog({ script }: { script: Script }) {
  const [open, setOpen] = useState(false);
  const copy = useCopyToTeam();

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => {
        if (copy.isPending) return;
        setOpen(event.open);
        if (!event.open) copy.reset();
      }}
      closeOnInteractOutside={!copy.isPending}
      lazyMount
      unmountOnExit
    >
      <Dialog.Trigger asChild>
        <Button variant="ghost">
          <Copy size={16} /> {SHARE_TEXT.copyToTeam}
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{SHARE_TEXT.copyTitle}</Dialog.Title>
            </Dialog.Header>
            <CopyForm script={script} copy={copy} onCopied={() => setOpen(false)} />
            <Dialog.CloseTrigger asChild disabled={copy.isPending}>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function CopyForm({
  script,
  copy,
  onCopied,
}: {
  script: Script;
  copy: ReturnType<typeof useCopyToTeam>;
  onCopied(): void;
}) {
  const teams = useTeams();
  const currentTeamId = useTeam((state) => state.teamId);
  const targets = copyTargets(teams.data ?? [], currentTeamId);
  const [chosen, setChosen] = useState<string | null>(null);
  // The first team until the person picks one (or while the one picked is no longer a target).
  const target = targets.find((team) => team.id === chosen) ?? targets[0];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target) return;
    copy.mutate(
      { scriptId: script.id, teamId: target.id },
      {
        onSuccess: (copied) => {
          notify({ title: SHARE_TEXT.copied, description: SHARE_TEXT.copiedDetail(copied.name, target.name) });
          onCopied();
        },
      },
    );
  };

  let choice;
  if (teams.isPending) {
    choice = (
      <Center py="4">
        <Spinner />
      </Center>
    );
  } else if (teams.isError) {
    choice = (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{messageOf(teams.error, SHARE_TEXT.loadTeamsFailed)}</Alert.Title>
      </Alert.Root>
    );
  } else if (targets.length === 0) {
    choice = <Text color="fg.muted">{SHARE_TEXT.noTargets}</Text>;
  } else {
    choice = (
      <Field.Root>
        <Field.Label>{SHARE_TEXT.team}</Field.Label>
        <NativeSelect.Root disabled={copy.isPending}>
          <NativeSelect.Field value={target?.id} onChange={(event) => setChosen(event.currentTarget.value)}>
            {targets.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Dialog.Body>
        <Stack gap="4">
          <Text color="fg.muted">{SHARE_TEXT.copyIntro(script.name)}</Text>
          {choice}
          {copy.isError && (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{messageOf(copy.error, SHARE_TEXT.copyFailed)}</Alert.Title>
            </Alert.Root>
          )}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Dialog.ActionTrigger asChild>
          <Button variant="outline" disabled={copy.isPending}>
            {SHARE_TEXT.cancel}
          </Button>
        </Dialog.ActionTrigger>
        <Button
          type="submit"
          colorPalette="purple"
          disabled={!target}
          loading={copy.isPending}
          loadingText={SHARE_TEXT.copying}
        >
          <Copy /> {SHARE_TEXT.copy}
        </Button>
      </Dialog.Footer>
    </form>
  );
}
