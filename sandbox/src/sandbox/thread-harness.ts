/**
 * One sandbox thread per run, with a hard deadline, for the tests and the sandbox report. The real
 * pool (sandbox/src/pool) keeps warm threads and queues runs; this does the one thing of it that
 * matters for hostile code: when the deadline passes, the thread is terminated. The clock starts
 * when the run is sent to a thread that has announced it is ready, as it does in the pool.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { SandboxLimits, SandboxResult } from './run-lua.ts';
import type { SandboxResponse } from './sandbox-thread.ts';

export interface ThreadRun {
  /** The thread's answer, or null when it was terminated first. */
  result: SandboxResult | null;
  terminated: boolean;
  /** From sending the run to its answer or to the thread's termination. */
  elapsedMs: number;
}

export async function runInThread(
  code: string,
  options: { limits?: Partial<SandboxLimits>; hardDeadlineMs: number },
): Promise<ThreadRun> {
  const worker = new Worker(new URL('./sandbox-thread.mjs', import.meta.url));
  try {
    await once(worker, 'message'); // its { ready: true }
    const startedAt = performance.now();
    const response = await ask(worker, { id: 'run', code, limits: options.limits }, options.hardDeadlineMs);
    if (response === null) {
      await worker.terminate();
      return { result: null, terminated: true, elapsedMs: performance.now() - startedAt };
    }
    return { result: response.result, terminated: false, elapsedMs: performance.now() - startedAt };
  } finally {
    await worker.terminate();
  }
}

/** Posts one request; answers null when the deadline passes first. */
function ask(worker: Worker, request: object, deadlineMs: number): Promise<SandboxResponse | null> {
  return new Promise((resolve, reject) => {
    const timer = Number.isFinite(deadlineMs) ? setTimeout(() => settle(null), deadlineMs) : undefined;
    const onMessage = (response: SandboxResponse): void => settle(response);
    const onError = (error: Error): void => {
      cleanUp();
      reject(error);
    };
    const onExit = (code: number): void => onError(new Error(`The sandbox thread exited with code ${code}`));
    function cleanUp(): void {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    }
    function settle(response: SandboxResponse | null): void {
      cleanUp();
      resolve(response);
    }
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(request);
  });
}
