import { Alert, Card, Heading, SimpleGrid, Stack } from '@chakra-ui/react';
import type { Script } from '@moonrelay/contract/scripts';
import { ExecutionOutput } from '../../../components/ExecutionOutput.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { canWith, useTeamPermissions } from '../../../lib/team-access.ts';
import { useGameLink } from '../../../lib/useGameLink.ts';
import { GAME_ACTIONS } from '../game-text.ts';
import { EXECUTOR_TEXT, confirmsConnection } from './executor-outcome.ts';
import { ExecutorGameStatus } from './ExecutorGameStatus.tsx';
import { ExecutorScriptList } from './ExecutorScriptList.tsx';
import { QuickTest } from './QuickTest.tsx';
import { useExecutor } from './useExecutor.ts';

interface Props {
  /**
   * The user's scripts (the scripts feature's list, handed over by the dashboard); undefined while
   * loading, and where the member's role may not read them (the list is then not asked for).
   */
  scripts: readonly Script[] | undefined;
  scriptsFailed: boolean;
}

/**
 * The script executor (spec section 2): run a saved script or Quick Test code in the connected game,
 * see its output, and the game's status beside it. A team member's role may not allow running code in
 * the game (runs.game, beside runs.sandbox which every run asks) or reading the scripts: the run
 * buttons are then disabled, and notes say which permission is missing.
 */
export function ScriptExecutorPanel({ scripts, scriptsFailed }: Props) {
  const permissions = useTeamPermissions();
  const can = {
    scripts: canWith(permissions, 'scripts.read'),
    run: canWith(permissions, 'runs.sandbox', 'runs.game'),
  };
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
                read={can.scripts}
                disabled={executor.running || !can.run.allowed}
                reason={can.run.reason}
                onRun={(script) => executor.runScript(script.id)}
              />
            </Stack>
            <QuickTest
              busy={executor.running}
              run={can.run}
              executing={executor.running && executor.kind === 'code'}
              onExecute={executor.runCode}
            />
            <PermissionNotes notes={[{ action: GAME_ACTIONS.runInGame, can: can.run }]} />
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
