import { Alert, Badge, Box, Button, DataList, HStack, Span, Spinner, Stack, Text } from '@chakra-ui/react';
import { CircleStop } from 'lucide-react';
import { useId, useLayoutEffect, useRef } from 'react';
import type { CloudLogLine, CloudRun, CloudRunState } from '@moonrelay/contract/cloud-runs';
import { messageOf } from '../lib/api-client.ts';
import { CLOUD_RUN_TEXT, CLOUD_STATES, isCloudEnded, timeLimitText } from '../lib/cloud-run.ts';
import { formatTime } from '../lib/format.ts';
import { useCancelCloudRun } from '../lib/run-detail.ts';
import { useCan } from '../lib/team-access.ts';
import { notify } from '../lib/toaster.tsx';

/** Where a cloud run is, as a badge: with a spinner until it ends. */
export function CloudStateBadge({ state, size }: { state: CloudRunState; size?: 'sm' | 'md' }) {
  const { label, palette } = CLOUD_STATES[state];
  return (
    <Badge colorPalette={palette} size={size} data-testid="cloud-state" data-state={state} whiteSpace="nowrap">
      {!isCloudEnded(state) && <Spinner size="xs" />}
      {label}
    </Badge>
  );
}

/** A word before the lines that are not plain output, so their kind does not rest on colour alone. */
const LINE_TAGS: Partial<Record<CloudLogLine['type'], string>> = {
  info: 'Info',
  warning: 'Warning',
  error: 'Error',
};

/**
 * The lines Roblox logged, in the order it logged them, each marked with its type (data-type):
 * the list's own style colours warnings and errors, so no line carries a style of its own. It
 * follows new lines while it is scrolled to its end, and stays where the reader scrolled otherwise.
 */
function CloudLog({ logs, ended }: { logs: readonly CloudLogLine[]; ended: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  useLayoutEffect(() => {
    const element = box.current;
    if (element && atEnd.current) element.scrollTop = element.scrollHeight;
  }, [logs.length]);
  return (
    <Stack gap="1">
      <Text fontWeight="medium" fontSize="sm">
        Log
      </Text>
      {logs.length === 0 ? (
        <Text fontSize="sm" color="fg.muted" data-testid="cloud-log-empty">
          {ended ? 'Roblox logged no lines.' : 'No lines yet: they show here as Roblox logs them.'}
        </Text>
      ) : (
        // The log region scrolls; the list inside keeps its list semantics (a role on the list would drop them).
        <Box
          ref={box}
          role="log"
          aria-label="Roblox log"
          data-testid="cloud-log"
          // A tab stop: keyboard users reach the lines to read, scroll and copy them.
          tabIndex={0}
          focusVisibleRing="inside"
          onScroll={(event) => {
            const element = event.currentTarget;
            atEnd.current = element.scrollTop + element.clientHeight >= element.scrollHeight - 8;
          }}
          fontFamily="mono"
          fontSize="sm"
          whiteSpace="pre-wrap"
          wordBreak="break-word"
          maxH="60"
          overflowY="auto"
          p="3"
          borderRadius="md"
          bg="bg.muted"
          css={{
            '& [data-type=info]': { color: 'fg.info' },
            '& [data-type=warning]': { color: 'fg.warning' },
            '& [data-type=error]': { color: 'fg.error' },
            '& [data-part=tag]': { fontWeight: 'semibold' },
          }}
        >
          <Box as="ol" listStyleType="none">
            {logs.map((line, index) => (
              // Lines are only ever added after the others, so their position is their identity.
              <li key={index} data-type={line.type} title={line.time ? formatTime(line.time) : undefined}>
                {LINE_TAGS[line.type] && <span data-part="tag">{LINE_TAGS[line.type]}: </span>}
                {line.message}
              </li>
            ))}
          </Box>
        </Box>
      )}
    </Stack>
  );
}

/** What the script returned, as JSON (an Instance comes back from Roblox as null). */
function ReturnValues({ values }: { values: readonly unknown[] }) {
  const labelId = useId();
  return (
    <Stack gap="1">
      <Text fontWeight="medium" fontSize="sm" id={labelId}>
        Return values
      </Text>
      {values.length === 0 ? (
        <Text fontSize="sm" color="fg.muted" data-testid="cloud-return-values">
          The script returned nothing.
        </Text>
      ) : (
        <Box
          as="pre"
          data-testid="cloud-return-values"
          role="region"
          aria-labelledby={labelId}
          tabIndex={0}
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
        >
          {JSON.stringify(values, null, 2)}
        </Box>
      )}
    </Stack>
  );
}

/**
 * Cancels a cloud run still waiting in Moonrelay's queue. Only then: once Roblox has the task it
 * runs to its end or its time limit, and the server would answer 409. Cancelling asks what running
 * it in Roblox asks (runs.game).
 */
export function CloudCancelButton({ executionId }: { executionId: string }) {
  const can = useCan('runs.game');
  const cancel = useCancelCloudRun();
  const onCancel = () =>
    cancel.mutate(executionId, {
      onSuccess: () => notify({ title: CLOUD_RUN_TEXT.cancelled }),
      onError: (error) =>
        notify({
          type: 'error',
          title: CLOUD_RUN_TEXT.cancelFailed,
          description: messageOf(error, 'Please try again.'),
        }),
    });
  return (
    <Button
      size="xs"
      variant="outline"
      colorPalette="red"
      onClick={onCancel}
      loading={cancel.isPending}
      loadingText="Cancelling..."
      disabled={!can.allowed}
      title={can.reason ?? 'Take it out of the queue before it is sent to Roblox'}
    >
      <CircleStop size={14} /> Cancel run
    </Button>
  );
}

interface Props {
  executionId: string;
  cloud: CloudRun;
  /**
   * The run's detail lists where it ran and why it waits; the editor's output pane, whose header
   * shows the state, says the place in a line.
   */
  compact?: boolean;
  /** The run's status beside it already says where the run is (the Runs page's detail while it is pending). */
  stateShown?: boolean;
}

/**
 * A cloud run as Roblox ran it: where (place, pinned version, time limit), why it still waits in
 * Moonrelay, its log lines as they come, what it returned, and Roblox's error code and message
 * when it failed. A run still waiting can be cancelled.
 */
export function CloudRunView({ executionId, cloud, compact = false, stateShown = false }: Props) {
  const ended = isCloudEnded(cloud.state);
  const version = cloud.placeVersion ? `version ${cloud.placeVersion}` : 'newest version';
  return (
    <Stack gap="3" data-testid="cloud-run">
      {compact ? (
        <Text fontSize="sm" color="fg.muted" data-testid="cloud-place">
          {/* Each part whole on a narrow screen: the line breaks between them. */}
          <Span whiteSpace="nowrap">Place {cloud.placeId}</Span> · <Span whiteSpace="nowrap">{version}</Span> ·{' '}
          <Span whiteSpace="nowrap">time limit {timeLimitText(cloud.timeoutSeconds)}</Span>
        </Text>
      ) : (
        <DataList.Root orientation="horizontal" size="sm">
          {!stateShown && (
            <DataList.Item>
              <DataList.ItemLabel>In Roblox</DataList.ItemLabel>
              <DataList.ItemValue>
                <CloudStateBadge state={cloud.state} />
              </DataList.ItemValue>
            </DataList.Item>
          )}
          <DataList.Item>
            <DataList.ItemLabel>Place</DataList.ItemLabel>
            <DataList.ItemValue data-testid="cloud-place">
              <Text as="span" fontFamily="mono">
                {cloud.placeId}
              </Text>
              &nbsp;· {version}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Time limit</DataList.ItemLabel>
            <DataList.ItemValue>{timeLimitText(cloud.timeoutSeconds)}</DataList.ItemValue>
          </DataList.Item>
          {cloud.taskPath && (
            <DataList.Item>
              <DataList.ItemLabel>Roblox task</DataList.ItemLabel>
              <DataList.ItemValue fontFamily="mono" fontSize="xs" wordBreak="break-all">
                {cloud.taskPath}
              </DataList.ItemValue>
            </DataList.Item>
          )}
        </DataList.Root>
      )}
      {cloud.state === 'waiting' && (
        <HStack justify="space-between" gap="3" wrap="wrap" align="center">
          <Text fontSize="sm" color="fg.muted" data-testid="cloud-waiting-reason">
            {cloud.waitingReason ?? 'Waiting for Roblox: it is sent as soon as Roblox’s limits allow.'}
          </Text>
          <CloudCancelButton executionId={executionId} />
        </HStack>
      )}
      <CloudLog logs={cloud.logs} ended={ended} />
      {/* A failed task keeps no results: "returned nothing" would say more than Roblox did. */}
      {cloud.returnValues && (cloud.state === 'succeeded' || cloud.returnValues.length > 0) && (
        <ReturnValues values={cloud.returnValues} />
      )}
      {cloud.errorCode && (
        <Alert.Root status={cloud.state === 'cancelled' ? 'warning' : 'error'} data-testid="cloud-error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title fontFamily="mono">{cloud.errorCode}</Alert.Title>
            {cloud.errorMessage && (
              <Alert.Description fontFamily="mono" whiteSpace="pre-wrap" wordBreak="break-word">
                {cloud.errorMessage}
              </Alert.Description>
            )}
          </Alert.Content>
        </Alert.Root>
      )}
    </Stack>
  );
}
