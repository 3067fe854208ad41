import { Box, Button, Center, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { Script } from '@moonrelay/contract/scripts';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { draftCodeOf } from '../../../lib/editor-draft.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useCan } from '../../../lib/team-access.ts';
import { scriptsQuery, useScripts } from '../api/scripts.ts';
import { SCRIPT_LIST_ACTIONS } from '../components/script-list-text.ts';
import { EDITOR_TEXT } from './editor-form.ts';
import { recentGames } from './save-config.ts';
import { ScriptEditor } from './ScriptEditor.tsx';
import { PageHeading } from '../../../components/PageHeading.tsx';

/**
 * /editor, /editor?id={id} and /editor?id={id}&line={n} (the code opens at that line). There is no single-script endpoint: the script comes from the
 * user's script list. Opening another script (or a new one) gives a fresh editor; the script this
 * editor just created keeps it, so the cursor, the output and a pending Save & Execute survive.
 */
export function ScriptEditorScreen() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const line = Number(searchParams.get('line'));
  const initialLine = Number.isInteger(line) && line > 0 ? line : undefined;
  const navigate = useNavigate();
  // A new script may start from code handed over by another screen (a run of custom code).
  const draftCode = draftCodeOf(useLocation().state);
  const scripts = useScripts();
  // Where the member's role may not read scripts the list is not asked for: a saved one cannot open.
  const read = useCan('scripts.read');
  const games = useMemo(() => recentGames(scripts.data ?? []), [scripts.data]);

  const [createdId, setCreatedId] = useState<string | null>(null);
  const [editor, setEditor] = useState({ id, key: 0 });
  if (editor.id !== id) {
    setEditor({ id, key: id !== null && id === createdId ? editor.key : editor.key + 1 });
  }

  const onCreated = (script: Script) => {
    // The list refetches in the background; the new script must be in it before its address opens.
    queryClient.setQueryData(scriptsQuery().queryKey, (list) =>
      list?.some((known) => known.id === script.id) ? list : [script, ...(list ?? [])],
    );
    setCreatedId(script.id);
    navigate(`/editor?id=${encodeURIComponent(script.id)}`, { replace: true });
  };

  if (id === null) {
    return (
      <ScriptEditor key={editor.key} script={null} draftCode={draftCode} recentGames={games} onCreated={onCreated} />
    );
  }

  const script = scripts.data?.find((candidate) => candidate.id === id);
  if (script) {
    return (
      <ScriptEditor
        key={editor.key}
        script={script}
        recentGames={games}
        onCreated={onCreated}
        initialLine={initialLine}
      />
    );
  }

  return (
    <Stack gap="6">
      <Box>
        <PageHeading>{EDITOR_TEXT.title}</PageHeading>
        <Text color="fg.muted">{EDITOR_TEXT.subtitleEdit}</Text>
      </Box>
      {!read.allowed ? (
        <PermissionNotes notes={[{ action: SCRIPT_LIST_ACTIONS.see, can: read }]} />
      ) : scripts.isPending ? (
        <Center py="16">
          <Spinner aria-label="Loading script" />
        </Center>
      ) : scripts.isError ? (
        <Stack align="flex-start" gap="3">
          <Text>Your scripts could not be loaded.</Text>
          <Button variant="outline" onClick={() => void scripts.refetch()} loading={scripts.isFetching}>
            Try again
          </Button>
        </Stack>
      ) : (
        <Stack align="flex-start" gap="3">
          <Heading size="lg">Script not found</Heading>
          <Text color="fg.muted">There is no script of yours with this id. It may have been deleted.</Text>
          <Button asChild variant="outline">
            <Link to="/scripts">Back to My Scripts</Link>
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
