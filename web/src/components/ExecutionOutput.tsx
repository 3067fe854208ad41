import { Badge, Box, Button, Card, HStack, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { Gamepad2, History } from 'lucide-react';
import { RUN_HINTS } from '@moonrelay/contract/messages';
import { Link as RouterLink } from 'react-router-dom';
import {
  EXECUTION_TOASTS,
  LIMIT_NOTES,
  type Execution,
  type ExecutionStatus,
  type ExecutionTarget,
} from '../lib/execution-result.ts';
import { DryRunSummaryView } from './DryRunSummaryView.tsx';

export type { Execution, ExecutionStatus };

const BADGES: Record<ExecutionStatus, { label: string; palette: string }> = {
  idle: { label: 'Idle', palette: 'gray' },
  running: { label: 'Running', palette: 'blue' },
  queued: { label: 'Queued', palette: 'purple' },
  success: { label: 'Success', palette: 'green' },
  error: { label: 'Error', palette: 'red' },
};

/** How each execution target is shown wherever runs are listed. */
export const EXECUTION_TARGETS: Record<ExecutionTarget, { label: string; palette: string }> = {
  sandbox: { label: 'Sandbox', palette: 'teal' },
  game: { label: 'Game', palette: 'orange' },
  'dry-run': { label: 'Dry run', palette: 'cyan' },
  cloud: { label: 'Roblox', palette: 'pink' },
};

/** Sandbox output marks warnings and errors of other threads with these prefixes (run-lua.ts). */
function lineColor(line: string): string | undefined {
  if (line.startsWith('warning: ')) return 'fg.warning';
  if (line.startsWith('error: ')) return 'fg.error';
  return undefined;
}

/** The output text, with warning and error lines in their colours (the text itself is unchanged). */
function OutputLines({ text }: { text: string }) {
  const lines = text.split('\n');
  if (!lines.some((line) => lineColor(line))) return <>{text}</>;
  return (
    <>
      {lines.map((line, index) => (
        // Lines never reorder, so their position is their identity.
        <Box as="span" key={index} color={lineColor(line)}>
          {line}
          {index < lines.length - 1 ? '\n' : ''}
        </Box>
      ))}
    </>
  );
}

/** "7 ms", "1.26 s". */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

interface Props {
  execution: Execution;
  /** What the pane says while the run is in flight (spec section 4). */
  runningText?: string;
  /** Runs the code of a run that failed on a Roblox API again, as a dry run (the hint's button). */
  onDryRun?: () => void;
}

/** The Runs page with this run open. */
export const runPath = (executionId: string) => `/runs?id=${encodeURIComponent(executionId)}`;

/**
 * The output pane (spec section 4): the output field, else the error field, else 'No output'. Also
 * where the run happened (Sandbox, Dry run or Game), how long it took, and which sandbox limit ended
 * it; a dry run adds its summary of what the script changed.
 */
export function ExecutionOutput({ execution, runningText = 'Executing script...', onDryRun }: Props) {
  const badge = BADGES[execution.status];
  const target = execution.target ? EXECUTION_TARGETS[execution.target] : undefined;
  const running = execution.status === 'running';
  const text = running ? runningText : execution.output || execution.error || EXECUTION_TOASTS.noOutput;
  const limitNote = !running && execution.limit ? LIMIT_NOTES[execution.limit] : undefined;
  // A run that printed and then failed: the pane shows the output (the spec's rule), and the error under it.
  const errorAfterOutput =
    execution.status === 'error' && execution.output && execution.error ? execution.error : undefined;
  const duration = !running && execution.durationMs !== undefined ? formatDuration(execution.durationMs) : undefined;
  // The recorded run: a "View run" link opens it on the Runs page.
  const runLink = running ? undefined : execution.executionId;
  return (
    <Card.Root size="sm" aria-live="polite">
      <Card.Header>
        <HStack justify="space-between">
          <Heading size="sm">Execution Output</Heading>
          <HStack gap="2">
            {target && (
              <Badge variant="outline" colorPalette={target.palette} data-testid="execution-target">
                {target.label}
              </Badge>
            )}
            <Badge colorPalette={badge.palette} data-testid="execution-status">
              {badge.label}
            </Badge>
          </HStack>
        </HStack>
      </Card.Header>
      <Card.Body>
        {limitNote && (
          <Text fontSize="sm" fontWeight="medium" color="fg.warning" mb="2" data-testid="execution-limit">
            {limitNote}
          </Text>
        )}
        <Box
          as="pre"
          data-testid="execution-output"
          // A tab stop and a named region: keyboard users reach the output to read, scroll and copy it.
          tabIndex={0}
          role="region"
          aria-label="Output"
          focusVisibleRing="inside"
          fontFamily="mono"
          fontSize="sm"
          whiteSpace="pre-wrap"
          wordBreak="break-word"
          maxH="60"
          overflowY="auto"
          p="3"
          borderRadius="md"
          bg="bg.muted"
          color={execution.status === 'error' && !execution.output ? 'fg.error' : execution.output ? 'fg' : 'fg.muted'}
        >
          {running ? text : <OutputLines text={text} />}
        </Box>
        {errorAfterOutput && (
          <Text
            fontFamily="mono"
            fontSize="sm"
            color="fg.error"
            mt="2"
            whiteSpace="pre-wrap"
            data-testid="execution-error"
          >
            {errorAfterOutput}
          </Text>
        )}
        {!running && execution.hint && (
          <Stack
            data-testid="execution-hint"
            mt="2"
            // The button under the words, at the left: away from the corner where the run's toast shows.
            gap="2"
            align="flex-start"
            p="2"
            borderRadius="md"
            borderWidth="1px"
            borderColor="border.info"
            bg="bg.info"
          >
            <Text fontSize="sm" color="fg.info">
              {execution.hint.message}
            </Text>
            {onDryRun && (
              <Button size="xs" variant="outline" colorPalette="cyan" onClick={onDryRun}>
                <Gamepad2 size={14} /> {RUN_HINTS.dryRunButton}
              </Button>
            )}
          </Stack>
        )}
        {!running && execution.dryRun && <DryRunSummaryView summary={execution.dryRun} />}
        {(duration || runLink) && (
          <HStack justify="space-between" mt="2" gap="3">
            {duration ? (
              <Text fontSize="xs" color="fg.muted" data-testid="execution-duration">
                Ran for {duration}
              </Text>
            ) : (
              <span />
            )}
            {runLink && (
              <Link asChild fontSize="xs" colorPalette="purple" variant="underline">
                <RouterLink to={runPath(runLink)}>
                  <History size={12} /> View run
                </RouterLink>
              </Link>
            )}
          </HStack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
