import { Alert, Button, Center, CloseButton, Dialog, Heading, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import { Link2, Share2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import type { Script } from '@moonrelay/contract/scripts';
import { SHARES_PER_SCRIPT, type CreatedScriptShare, type ScriptShare } from '@moonrelay/contract/shares';
import { ShownOnceField } from '../../../components/ShownOnceField.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useCan } from '../../../lib/team-access.ts';
import { useCreateShare, useShares } from '../api/shares.ts';
import { SHARE_TEXT } from './share-text.ts';
import { sharedScriptLink } from './shared-link.ts';
import { SharesTable } from './SharesTable.tsx';

/**
 * The editor's Share: makes a read-only link to the saved script and lists the script's links,
 * each with Stop sharing. A new link is shown once, with a copy button: the server keeps only its
 * digest. Disabled, saying why, for a member whose role may not change scripts (scripts.write).
 */
export function ShareScriptDialog({ script }: { script: Script }) {
  const can = useCan('scripts.write');
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<CreatedScriptShare | null>(null);
  const create = useCreateShare();

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => {
        if (create.isPending) return;
        setOpen(event.open);
        // The link goes with the dialog: it is shown once.
        if (!event.open) {
          setCreated(null);
          create.reset();
        }
      }}
      closeOnInteractOutside={!created && !create.isPending}
      lazyMount
      unmountOnExit
      size="lg"
    >
      <Dialog.Trigger asChild>
        <Button variant="ghost" disabled={!can.allowed} title={can.reason}>
          <Share2 size={16} /> {SHARE_TEXT.share}
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{SHARE_TEXT.shareTitle}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Text color="fg.muted">
                  {SHARE_TEXT.shareIntro} A script has at most {SHARES_PER_SCRIPT} links.
                </Text>
                <Button
                  alignSelf="flex-start"
                  colorPalette="purple"
                  onClick={() => create.mutate(script.id, { onSuccess: setCreated })}
                  loading={create.isPending}
                  loadingText={SHARE_TEXT.makingLink}
                >
                  <Link2 /> {SHARE_TEXT.makeLink}
                </Button>
                {create.isError && (
                  <Alert.Root status="error">
                    <Alert.Indicator />
                    <Alert.Title>{messageOf(create.error, SHARE_TEXT.makeFailed)}</Alert.Title>
                  </Alert.Root>
                )}
                {created && <NewLink token={created.token} />}
                <ScriptLinks
                  scriptId={script.id}
                  onStopped={(share: ScriptShare) => {
                    if (share.id === created?.id) setCreated(null);
                  }}
                />
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={create.isPending}>
                  {SHARE_TEXT.done}
                </Button>
              </Dialog.ActionTrigger>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild disabled={create.isPending}>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/**
 * The link just made, selected and focused so a keyboard copies it at once; a screen reader reads
 * it with the words saying it is shown once.
 */
function NewLink({ token }: { token: string }) {
  const link = sharedScriptLink(token);
  const input = useRef<HTMLInputElement>(null);
  const helpId = useId();
  useEffect(() => input.current?.focus(), [token]);
  return (
    <Stack gap="2" data-testid="new-share-link">
      <Text id={helpId}>{SHARE_TEXT.linkShownOnce}</Text>
      <ShownOnceField
        inputRef={input}
        value={link}
        label={SHARE_TEXT.linkLabel}
        describedBy={helpId}
        copyLabel={SHARE_TEXT.copyLink}
        copiedTitle={SHARE_TEXT.linkCopied}
      />
    </Stack>
  );
}

/** This script's links, from the team's list. */
function ScriptLinks({ scriptId, onStopped }: { scriptId: string; onStopped(share: ScriptShare): void }) {
  const shares = useShares();
  const stop = useCan('scripts.write');
  let body;
  if (shares.isPending) {
    body = (
      <Center py="4">
        <Spinner />
      </Center>
    );
  } else if (shares.isError) {
    body = (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{messageOf(shares.error, SHARE_TEXT.loadLinksFailed)}</Alert.Title>
      </Alert.Root>
    );
  } else {
    body = (
      <SharesTable
        shares={shares.data.items.filter((share) => share.scriptId === scriptId)}
        showScript={false}
        stop={stop}
        emptyText={SHARE_TEXT.noScriptLinks}
        onStopped={onStopped}
      />
    );
  }
  return (
    <Stack gap="2">
      <Heading as="h3" size="sm">
        {SHARE_TEXT.scriptLinks}
      </Heading>
      {body}
    </Stack>
  );
}
