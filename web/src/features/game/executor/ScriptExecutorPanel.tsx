import { Alert, Card, Heading, SimpleGrid, Stack } from '@chakra-ui/react';
import type { Script } from '@moonrelay/contract/scripts';
import { ExecutionOutput } from '../../../components/ExecutionOutput.tsx';
import { useGameLink } from '../../../lib/useGameLink.ts';
import { EXECUTOR_TEXT, confirmsConnection } from './executor-outcome.ts';
import { ExecutorGameStatus } from './ExecutorGameStatus.tsx';
import { ExecutorScriptList } from './ExecutorScriptList.tsx';
import { QuickTest } from './QuickTest.tsx';
import { useExecutor } from './useExecutor.ts';

interface Props {
  /** The user's scripts (the scripts feature's list, handed over by the dashboard); undefined while loading. */
  scripts: readonly Script[] | undefined;
  scriptsFailed: boolean;
}

/**
 * The script executor (spec section 2): run a saved script or Quick Test code in the connected game,
 * see its output, and the game's status beside it.
 */
export function ScriptExecutorPanel({ scripts, scriptsFailed }: Props) {
  const link = useGameLink();
  const executor = useExecutor(link.serverId);
  const { execution } = executor;
  const connectionConfirmed = execution.status === 'success' && confirmsConnection(execution.output);

  return (
    <Card.Root as="section" aria-label="Script Executor">
      <Card.Header>
        <Card.Title>Script Executor</Card.Title>
        <Card.Description>Run your scripts, or a quick test, in your connected game.</Card.Description>
      </Card.Header>
      <Card.Body>
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
          <Stack gap="5" minW="0">
            <Stack gap="2">
              <Heading size="sm">Your Scripts</Heading>
              <ExecutorScriptList
                scripts={scripts}
                failed={scriptsFailed}
                disabled={executor.running}
                onRun={(script) => executor.runScript(script.id)}
              />
            </Stack>
            <QuickTest
              busy={executor.running}
              executing={executor.running && executor.kind === 'code'}
              onExecute={executor.runCode}
            />
          </Stack>
          <Stack gap="5" minW="0">
            <ExecutionOutput execution={execution} runningText={EXECUTOR_TEXT.running[executor.kind]} />
            {connectionConfirmed && (
              <Alert.Root status="success" data-testid="connection-established">
                <Alert.Indicator />
                <Alert.Title>{EXECUTOR_TEXT.connectionEstablished}</Alert.Title>
              </Alert.Root>
            )}
            <Stack gap="2">
              <Heading size="sm">Game Status</Heading>
              <ExecutorGameStatus link={link} />
            </Stack>
          </Stack>
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}
