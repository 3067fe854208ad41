import { Alert, Badge, Card, HStack, Heading, Link, Spinner, Text } from '@chakra-ui/react';
import { History } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import { messageOf } from '../lib/api-client.ts';
import { isCloudEnded } from '../lib/cloud-run.ts';
import { useRun } from '../lib/run-detail.ts';
import { CloudRunView, CloudStateBadge } from './CloudRunView.tsx';
import { EXECUTION_TARGETS, formatDuration, runPath } from './ExecutionOutput.tsx';

/**
 * The output pane of a cloud run the editor started: the run as recorded (GET /api/executions/{id}),
 * its lines added live as `execution:logs` tells them, then what it returned or how it failed.
 * Roblox may keep a run queued for a while, so the pane follows it rather than waiting for its end.
 */
export function CloudRunOutput({ executionId }: { executionId: string }) {
  const query = useRun(executionId);
  const run = query.data;
  const cloud = run?.cloud;
  // The execute call answered it waiting; the run says where it is once fetched.
  const state = cloud?.state ?? 'waiting';
  const ended = isCloudEnded(state);
  const target = EXECUTION_TARGETS.cloud;
  return (
    <Card.Root size="sm" data-testid="cloud-run-output">
      <Card.Header>
        <HStack justify="space-between" gap="2" wrap="wrap">
          <Heading size="sm">Execution Output</Heading>
          {/* The state is announced as it changes; the lines are a log of their own. */}
          <HStack gap="2" role="status">
            <Badge variant="outline" colorPalette={target.palette} data-testid="execution-target">
              {target.label}
            </Badge>
            <CloudStateBadge state={state} />
          </HStack>
        </HStack>
      </Card.Header>
      <Card.Body>
        {cloud ? (
          <CloudRunView executionId={executionId} cloud={cloud} compact />
        ) : query.isError ? (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>{messageOf(query.error, 'This run could not be loaded; the Runs page has it.')}</Alert.Title>
          </Alert.Root>
        ) : (
          <HStack gap="2" color="fg.muted" fontSize="sm">
            <Spinner size="xs" /> Waiting for Roblox...
          </HStack>
        )}
        <HStack justify="space-between" mt="2" gap="3">
          {run && ended && run.status !== 'pending' ? (
            <Text fontSize="xs" color="fg.muted" data-testid="execution-duration">
              Ran for {formatDuration(run.durationMs)}
            </Text>
          ) : (
            <span />
          )}
          <Link asChild fontSize="xs" colorPalette="purple" variant="underline">
            <RouterLink to={runPath(executionId)}>
              <History size={12} /> View run
            </RouterLink>
          </Link>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
