/**
 * The worker_threads entry of the sandbox. Each message is one run, `{ id, code, limits?, environment? }`
 * or, as the worker pool sends jobs, `{ id, job: { code, limits?, environment? } }`; the answer is `{ id, result }` with
 * the same id. Runs are taken one at a time, in the order they arrive. The handler never throws: a
 * malformed message or a failure of the sandbox is answered as an unsuccessful result. The hard
 * deadline is the pool's: it terminates this thread.
 *
 * On start the thread loads the sandbox (the WASM module and a first Lua state), then posts
 * `{ ready: true }`: the worker pool sends runs, and starts their deadline, only after that. It then
 * warms the sandbox up (warmUpSandbox, up to 0.4 s) unless a run arrives first.
 * Load it through sandbox-thread.mjs, which registers tsx so plain node can start it too.
 */
import { parentPort } from 'node:worker_threads';
import type { ThreadReady } from '../pool/worker-pool.ts';
import {
  loadSandbox,
  prepareNextState,
  runLua,
  warmUpSandbox,
  type SandboxEnvironment,
  type SandboxLimits,
  type SandboxResult,
} from './run-lua.ts';

export interface SandboxJob {
  code: string;
  limits?: Partial<SandboxLimits>;
  /** 'plain' (default) or 'dry-run' (an emulated Roblox game server). */
  environment?: SandboxEnvironment;
}

const ENVIRONMENTS: readonly SandboxEnvironment[] = ['plain', 'dry-run'];

export type SandboxRequest = { id: string | number } & (SandboxJob | { job: SandboxJob });

export interface SandboxResponse {
  /** The request's id, or null when the message had none. */
  id: string | number | null;
  result: SandboxResult;
}

const port = parentPort;
if (port === null) {
  throw new Error('sandbox-thread must be started as a worker thread');
}

let waiting = 0;
// Every run waits for the one before it. Loading goes first; a thread whose loading failed is still
// ready (each run then tries again and answers a failure). The warm-up gives way to a waiting run.
let queue: Promise<unknown> = loadSandbox()
  .catch((cause: unknown) => console.error('Sandbox start-up failed', cause))
  .then(() => {
    port.postMessage({ ready: true } satisfies ThreadReady);
    return warmUpSandbox(() => waiting > 0);
  })
  .catch((cause: unknown) => {
    console.error('Sandbox warm-up failed', cause);
  });

port.on('message', (message: unknown) => {
  waiting += 1;
  queue = queue.then(async () => {
    waiting -= 1;
    await answer(message);
  });
});

async function answer(message: unknown): Promise<void> {
  const id = readId(message);
  let result: SandboxResult;
  try {
    const job = readJob(message);
    result = await runLua(job.code, job.limits, { environment: job.environment });
  } catch (cause) {
    result = failure(cause instanceof Error ? cause.message : String(cause));
  }
  const response: SandboxResponse = { id, result };
  port?.postMessage(response);
  // Get the next run's fresh state ready while this thread waits for it.
  if (waiting === 0) prepareNextState();
}

function readId(message: unknown): string | number | null {
  if (typeof message === 'object' && message !== null && 'id' in message) {
    const { id } = message;
    if (typeof id === 'string' || typeof id === 'number') {
      return id;
    }
  }
  return null;
}

function readJob(message: unknown): SandboxJob {
  if (typeof message !== 'object' || message === null) {
    throw new TypeError('A sandbox request must be an object');
  }
  const body: { code?: unknown; limits?: unknown; environment?: unknown } =
    'job' in message && typeof message.job === 'object' && message.job !== null ? message.job : message;
  const { code, limits, environment } = body;
  if (typeof code !== 'string') {
    throw new TypeError('A sandbox request needs code as a string');
  }
  if (limits !== undefined && (typeof limits !== 'object' || limits === null)) {
    throw new TypeError('Sandbox limits must be an object');
  }
  if (environment !== undefined && !ENVIRONMENTS.includes(environment as SandboxEnvironment)) {
    throw new TypeError('A sandbox environment must be "plain" or "dry-run"');
  }
  return {
    code,
    limits: limits as Partial<SandboxLimits> | undefined,
    environment: environment as SandboxEnvironment | undefined,
  };
}

function failure(message: string): SandboxResult {
  return { success: false, output: '', error: message, returns: [], limit: null, durationMs: 0 };
}
