import {
  Alert,
  Box,
  Button,
  Center,
  CloseButton,
  Dialog,
  HStack,
  Portal,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { CatalogueScript } from '@moonrelay/contract/catalogue';
import { Play, Zap } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import type { Can } from '../../../lib/team-access.ts';
import { useCatalogueSource } from '../api/catalogue.ts';
import { CATALOGUE_TEXT } from '../catalogue-text.ts';
import { needsLoader } from '../import-script.ts';
import { gameLabel } from './ScriptCard.tsx';
import { ScriptBadges } from './ScriptBadges.tsx';

// Ace comes with the preview only: browsing the catalogue does not download the editor.
const CodeViewer = lazy(() => import('../../../components/CodeViewer.tsx'));

interface Props {
  script: CatalogueScript | null;
  onClose(): void;
  onExecute(script: CatalogueScript): void;
  onSaveToAutoExecute(script: CatalogueScript): void;
  executing: boolean;
  saving: boolean;
  /** What the member's role allows: a refused action is disabled, and a note says why. */
  can: { run: Can; save: Can };
}

const loadingCode = (
  <Center height="360px" gap="2" color="fg.muted">
    <Spinner size="sm" /> {CATALOGUE_TEXT.loadingSource}
  </Center>
);

/** The Preview dialog (spec section 2): the code read-only, Execute and 'Save to Auto-Execute'. */
export function ScriptPreviewDialog({ script, onClose, ...actions }: Props) {
  return (
    <Dialog.Root
      open={script !== null}
      onOpenChange={(details) => !details.open && onClose()}
      size="xl"
      placement="center"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>{script && <PreviewBody script={script} {...actions} />}</Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function PreviewBody({
  script,
  onExecute,
  onSaveToAutoExecute,
  executing,
  saving,
  can,
}: Omit<Props, 'script' | 'onClose'> & { script: CatalogueScript }) {
  const source = useCatalogueSource(script._id);
  const code = source.data?.code;
  // The listing's own finding until the full source is in.
  const executorFunctions = source.data?.executorFunctions ?? script.executorFunctions;
  return (
    <>
      <Dialog.Header>
        <Stack gap="1">
          <Dialog.Title>{script.title}</Dialog.Title>
          <Text fontSize="sm" color="fg.muted">
            {gameLabel(script)}
          </Text>
        </Stack>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="3">
          <ScriptBadges script={script} executorFunctions={executorFunctions} />
          {executorFunctions.length > 0 && (
            <Alert.Root status="warning" size="sm" data-testid="executor-note">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{CATALOGUE_TEXT.executorNoteTitle}</Alert.Title>
                <Alert.Description>{CATALOGUE_TEXT.executorNote(executorFunctions.join(', '))}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          {code !== undefined && needsLoader(code) && (
            <Text fontSize="sm" color="fg.muted" data-testid="loader-note">
              {CATALOGUE_TEXT.longNote}
            </Text>
          )}
          {source.isError ? (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{messageOf(source.error, CATALOGUE_TEXT.unavailableTitle)}</Alert.Title>
            </Alert.Root>
          ) : code === undefined ? (
            loadingCode
          ) : (
            <Box>
              <Suspense fallback={loadingCode}>
                <CodeViewer code={code} label={`Source of ${script.title}`} testId="catalogue-code" />
              </Suspense>
            </Box>
          )}
          <PermissionNotes
            notes={[
              { action: CATALOGUE_TEXT.saveAction, can: can.save },
              { action: CATALOGUE_TEXT.executeAction, can: can.run },
            ]}
          />
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <HStack gap="2">
          <Button
            variant="outline"
            onClick={() => onSaveToAutoExecute(script)}
            loading={saving}
            disabled={source.isError || !can.save.allowed}
            title={can.save.reason}
          >
            <Zap size={16} /> {CATALOGUE_TEXT.saveToAutoExecute}
          </Button>
          <Button
            colorPalette="purple"
            onClick={() => onExecute(script)}
            loading={executing}
            disabled={source.isError || !can.run.allowed}
            title={can.run.reason}
          >
            <Play size={16} /> {CATALOGUE_TEXT.execute}
          </Button>
        </HStack>
      </Dialog.Footer>
      <Dialog.CloseTrigger asChild>
        <CloseButton size="sm" aria-label="Close" />
      </Dialog.CloseTrigger>
    </>
  );
}
