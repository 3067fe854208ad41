import {
  Alert,
  Badge,
  Button,
  Center,
  CloseButton,
  DataList,
  Drawer,
  HStack,
  Link,
  Portal,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { Pencil, RotateCw } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { Run } from '@moonrelay/contract/runs';
import { isSimulatedServerId } from '@moonrelay/contract/simulated';
import { EXECUTION_TARGETS, ExecutionOutput, formatDuration } from '../../../components/ExecutionOutput.tsx';
import { CloudRunView } from '../../../components/CloudRunView.tsx';
import { ApiError, messageOf } from '../../../lib/api-client.ts';
import { editorDraftState } from '../../../lib/editor-draft.ts';
import { executionFailure, type Execution } from '../../../lib/execution-result.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notify } from '../../../lib/toaster.tsx';
import { SimulatedBadge } from '../../../components/SimulatedBadge.tsx';
import { useRun, useRunAgain } from '../api/runs.ts';
import { runName, RUNS_TEXT, startedByText } from '../run-text.ts';
import { RunStatusBadge } from '../../../components/RunStatusBadge.tsx';
import { useSession } from '../../../lib/session.ts';

// Ace comes with a run's details only: the table alone does not download the editor.
const CodeViewer = lazy(() => import('../../../components/CodeViewer.tsx'));

interface Props {
  /** The run shown; null: the drawer is closed. */
  runId: string | null;
  onClose(): void;
  /** A run started by Run again: the page shows it next. */
  onRunStarted(executionId: string): void;
}

/** What the output pane shows of a recorded run. */
function executionOf(run: Run): Execution {
  const status = run.status === 'pending' ? 'queued' : run.status === 'succeeded' ? 'success' : 'error';
  return {
    status,
    target: run.target,
    output: run.status === 'pending' ? 'Waiting for the game’s result...' : run.output,
    error: run.error ?? undefined,
    durationMs: run.status === 'pending' || run.status === 'not_connected' ? undefined : run.durationMs,
    limit: run.limitHit ?? undefined,
  };
}

/** One run in full: what ran, where, who started it, its output; open it in the editor or run it again. */
export function RunDetailDrawer({ runId, onClose, onRunStarted }: Props) {
  return (
    <Drawer.Root
      open={runId !== null}
      onOpenChange={(details) => !details.open && onClose()}
      size={{ base: 'full', md: 'lg' }}
      placement="end"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="run-detail">
            {runId && <RunDetail runId={runId} onRunStarted={onRunStarted} />}
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

function RunDetail({ runId, onRunStarted }: { runId: string; onRunStarted(executionId: string): void }) {
  const query = useRun(runId);
  const run = query.data;
  return (
    <>
      <Drawer.Header>
        <Stack gap="1" minW="0">
          <Drawer.Title truncate>{run ? runName(run) : 'Run'}</Drawer.Title>
          {run && (
            <Text fontSize="sm" color="fg.muted">
              {formatDateTime(run.createdAt)}
            </Text>
          )}
        </Stack>
      </Drawer.Header>
      <Drawer.Body>
        {run ? (
          <RunBody run={run} />
        ) : query.isError ? (
          <Alert.Root status={query.error instanceof ApiError && query.error.status === 404 ? 'warning' : 'error'}>
            <Alert.Indicator />
            <Alert.Title>
              {query.error instanceof ApiError && query.error.status === 404
                ? RUNS_TEXT.runNotFound
                : messageOf(query.error, query.error.message)}
            </Alert.Title>
          </Alert.Root>
        ) : (
          <Center py="16">
            <Spinner aria-label="Loading run" />
          </Center>
        )}
      </Drawer.Body>
      {run && (
        <Drawer.Footer>
          <RunActions run={run} onRunStarted={onRunStarted} />
        </Drawer.Footer>
      )}
      <Drawer.CloseTrigger asChild>
        <CloseButton size="sm" />
      </Drawer.CloseTrigger>
    </>
  );
}

function RunBody({ run }: { run: Run }) {
  const target = EXECUTION_TARGETS[run.target];
  const myId = useSession((state) => state.user?.id);
  return (
    <Stack gap="5">
      <DataList.Root orientation="horizontal" size="sm">
        <DataList.Item>
          <DataList.ItemLabel>Status</DataList.ItemLabel>
          <DataList.ItemValue>
            <RunStatusBadge run={run} />
          </DataList.ItemValue>
        </DataList.Item>
        {run.scriptId && run.scriptVersion !== null && (
          <DataList.Item>
            <DataList.ItemLabel>Script version</DataList.ItemLabel>
            <DataList.ItemValue>
              <Link asChild color="fg.info">
                <RouterLink to={`/editor?id=${encodeURIComponent(run.scriptId)}`}>
                  Version {run.scriptVersion}
                </RouterLink>
              </Link>
            </DataList.ItemValue>
          </DataList.Item>
        )}
        <DataList.Item>
          <DataList.ItemLabel>Target</DataList.ItemLabel>
          <DataList.ItemValue>
            <Badge variant="outline" colorPalette={target.palette}>
              {target.label}
            </Badge>
          </DataList.ItemValue>
        </DataList.Item>
        {run.serverId && (
          <DataList.Item>
            <DataList.ItemLabel>Game server</DataList.ItemLabel>
            <DataList.ItemValue fontFamily="mono" fontSize="xs" wordBreak="break-all">
              {run.serverId}
              {isSimulatedServerId(run.serverId) && <SimulatedBadge ms="2" fontFamily="body" />}
            </DataList.ItemValue>
          </DataList.Item>
        )}
        <DataList.Item>
          <DataList.ItemLabel>Duration</DataList.ItemLabel>
          <DataList.ItemValue>
            {run.status === 'pending' || run.status === 'not_connected' ? '—' : formatDuration(run.durationMs)}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Started by</DataList.ItemLabel>
          <DataList.ItemValue>{startedByText(run, myId)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Run id</DataList.ItemLabel>
          <DataList.ItemValue fontFamily="mono" fontSize="xs" wordBreak="break-all">
            {run.id}
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
      {/* A cloud run shows Roblox's own record: its state live, its typed lines, what it returned. */}
      {run.cloud ? (
        <CloudRunView
          executionId={run.id}
          cloud={run.cloud}
          // The status badge says where a pending run is, and a run that succeeded or failed the same
          // way Roblox did; only a time-out or a cancel says more.
          stateShown={run.status === 'pending' || run.cloud.state === 'succeeded' || run.cloud.state === 'failed'}
        />
      ) : (
        <ExecutionOutput execution={executionOf(run)} />
      )}
      <Stack gap="2">
        <Text fontWeight="medium" fontSize="sm">
          Code
        </Text>
        {!run.codeComplete && (
          <Text fontSize="xs" color="fg.warning">
            {RUNS_TEXT.codeExcerptOnly}
          </Text>
        )}
        <Suspense
          fallback={
            <Center height="280px" color="fg.muted">
              <Spinner size="sm" />
            </Center>
          }
        >
          <CodeViewer code={run.code} label={`Code of ${runName(run)}`} testId="run-code" height="280px" />
        </Suspense>
      </Stack>
    </Stack>
  );
}

function RunActions({ run, onRunStarted }: { run: Run; onRunStarted(executionId: string): void }) {
  const navigate = useNavigate();
  const again = useRunAgain();
  // Custom code kept only in part cannot be run or edited as it was; a saved script always can.
  const hasCode = run.scriptId !== null || run.codeComplete;

  // The new run opens in place of this one and shows how it went; only a call that failed (a
  // syntax error, a busy sandbox, a script deleted since) is told by a toast.
  const runAgain = async () => {
    try {
      const result = await again.mutateAsync(run);
      if (result.executionId) onRunStarted(result.executionId);
    } catch (error) {
      notify(executionFailure(error, run.target).notice);
    }
  };

  return (
    <HStack gap="2" justify="flex-end" wrap="wrap" width="full">
      {run.scriptId ? (
        <Button asChild variant="outline" size="sm">
          <RouterLink to={`/editor?id=${encodeURIComponent(run.scriptId)}`}>
            <Pencil size={14} /> {RUNS_TEXT.openInEditor}
          </RouterLink>
        </Button>
      ) : (
        <Button
          variant="outline"
          size="sm"
          disabled={!hasCode}
          onClick={() => navigate('/editor', { state: editorDraftState(run.code) })}
        >
          <Pencil size={14} /> {RUNS_TEXT.openInEditor}
        </Button>
      )}
      <Button
        colorPalette="purple"
        size="sm"
        disabled={!hasCode}
        loading={again.isPending}
        onClick={() => void runAgain()}
      >
        <RotateCw size={14} /> {RUNS_TEXT.runAgain}
      </Button>
    </HStack>
  );
}
