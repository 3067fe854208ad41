import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import { Copy } from 'lucide-react';
import { useId } from 'react';
import { useNavigate } from 'react-router-dom';
import { messageOf } from '../../../lib/api-client.ts';
import { useTeam } from '../../../lib/team.ts';
import { useCan, useCurrentTeam } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useCopySharedScript } from '../api/shares.ts';
import { SHARE_TEXT } from './share-text.ts';

/**
 * A signed-in visitor's way to keep a shared script: a copy in the team the dashboard acts on
 * (the switcher's choice), opened in the editor. Disabled, saying why, where their role there
 * may not add scripts; the words under it name the team the copy goes to.
 */
export function CopyToMyTeam({ token }: { token: string }) {
  const can = useCan('scripts.write');
  const teamId = useTeam((state) => state.teamId);
  const team = useCurrentTeam();
  const copy = useCopySharedScript();
  const navigate = useNavigate();
  const noteId = useId();
  const teamName = teamId === null ? SHARE_TEXT.yourAccount : (team?.name ?? SHARE_TEXT.currentTeam);

  const onCopy = () =>
    copy.mutate(token, {
      onSuccess: (copied) => {
        notify({ title: SHARE_TEXT.copiedToMyTeam, description: SHARE_TEXT.copiedToMyTeamDetail(copied.name) });
        navigate(`/editor?id=${encodeURIComponent(copied.id)}`);
      },
    });

  return (
    <Stack gap="2" align="flex-start">
      <Button
        colorPalette="purple"
        onClick={onCopy}
        loading={copy.isPending}
        loadingText={SHARE_TEXT.copying}
        disabled={!can.allowed}
        title={can.reason}
        aria-describedby={noteId}
      >
        <Copy /> {SHARE_TEXT.copyToMyTeam}
      </Button>
      <Text fontSize="sm" color="fg.muted" id={noteId}>
        {can.allowed ? SHARE_TEXT.copiesInto(teamName) : can.reason}
      </Text>
      {copy.isError && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{messageOf(copy.error, SHARE_TEXT.copyFailed)}</Alert.Title>
        </Alert.Root>
      )}
    </Stack>
  );
}
