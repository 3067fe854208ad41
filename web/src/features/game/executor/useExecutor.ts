import { useEffect, useState } from 'react';
import {
  withRunLink,
  type Execution,
  type ExecutionOutcome,
  type ExecutionResult,
} from '../../../lib/execution-result.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useRunCode, useRunSavedScript } from '../api/game.ts';
import { lateResultOf, useLiveStore, type LiveResults } from '../live/live-store.ts';
import { executorFailure, executorOutcome, type RunKind } from './executor-outcome.ts';

interface Shown {
  execution: Execution;
  kind: RunKind;
  /** A game run whose result is still to come (it arrives as a live event). */
  pendingExecutionId: string | null;
}

/**
 * The script executor's runs: a saved script or Quick Test code, in the game (on the chosen server
 * when several are live). The output pane shows the latest run; a pending one fills in when its
 * result arrives over the live socket.
 */
export function useExecutor(serverId: string | undefined) {
  const runSaved = useRunSavedScript();
  const runCode = useRunCode();
  const [shown, setShown] = useState<Shown>({
    execution: { status: 'idle' },
    kind: 'script',
    pendingExecutionId: null,
  });

  const report = (kind: RunKind, { notice, execution }: ExecutionOutcome, pendingExecutionId: string | null = null) => {
    setShown({ execution, kind, pendingExecutionId });
    notify(notice);
  };

  const answered = (kind: RunKind) => ({
    onSuccess: (result: ExecutionResult) => {
      const outcome = withRunLink(executorOutcome(result, kind), result);
      const pending = outcome.execution.status === 'queued' ? (result.executionId ?? null) : null;
      report(kind, outcome, pending);
    },
    onError: (error: unknown) => report(kind, executorFailure(error, kind)),
  });

  const { kind, pendingExecutionId } = shown;
  useEffect(() => {
    if (!pendingExecutionId) return;
    let reported = false;
    const settle = (state: LiveResults) => {
      const result = lateResultOf(state, pendingExecutionId);
      if (!result || reported) return;
      reported = true;
      const { notice, execution } = withRunLink(executorOutcome(result, kind), { executionId: pendingExecutionId });
      setShown({ execution, kind, pendingExecutionId: null });
      notify(notice);
    };
    // The result may have come before the call answered; otherwise wait for it.
    settle(useLiveStore.getState());
    return useLiveStore.subscribe(settle);
  }, [pendingExecutionId, kind]);

  const running = shown.execution.status === 'running';

  return {
    execution: shown.execution,
    kind: shown.kind,
    running,
    runScript(id: string) {
      if (running) return;
      setShown({ execution: { status: 'running', target: 'game' }, kind: 'script', pendingExecutionId: null });
      runSaved.mutate({ id, serverId }, answered('script'));
    },
    runCode(code: string) {
      if (running || !code.trim()) return;
      setShown({ execution: { status: 'running', target: 'game' }, kind: 'code', pendingExecutionId: null });
      runCode.mutate({ code, serverId }, answered('code'));
    },
  };
}
