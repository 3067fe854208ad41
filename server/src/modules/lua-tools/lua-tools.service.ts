import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logger.ts';
import { LuaToolsBusyError, LuaToolsStoppedError, LuaToolsTimeoutError } from './lua-tools.errors.ts';
import {
  deserializeError,
  type LuaToolsOperation,
  type LuaToolsRequest,
  type LuaToolsThreadData,
  type LuaToolsThreadMessage,
} from './lua-tools.protocol.ts';
import type { CheckResult } from './luau-syntax.ts';

/**
 * Luau check and format, run off the main event loop in a small pool of worker threads: Moonrelay's
 * Luau parser checks a 1 MB script in about a tenth of a second, and StyLua's formatting WASM is
 * synchronous and slower still.
 *
 * Rules, with their numbers:
 * - Threads: availableParallelism - 1, at least 1 and at most 2 (1 on the 2-core server). None
 *   start before the first call. A thread takes calls once it says it is ready (its checker and
 *   StyLua's WASM loaded); one that is not ready within 60 s is terminated, and when no other
 *   thread is ready or starting, the calls waiting fail with LuaToolsStoppedError.
 * - Deadline: 5 s per call by default, counted from when the call is accepted, so it covers both
 *   waiting and running; but never a thread's start-up: a call accepted while no thread is ready
 *   (the first call, or the one after a replacement) is counted from when one is. Loading takes
 *   seconds on a busy machine, and a deadline that counted it would kill the thread it waits for.
 *   A waiting call is dropped; a running one has its thread terminated and replaced. Either way
 *   the call rejects with LuaToolsTimeoutError.
 * - Queue: at most 64 calls wait for a thread; the next one rejects with LuaToolsBusyError (503).
 * - A thread whose WASM trapped (LuauParserCrashError) is replaced: the trap breaks its StyLua.
 * - A thread that dies on its own is started again only when a call needs it, so a thread that
 *   cannot start fails calls one by one instead of restarting in a loop.
 * - Idle threads do not keep the process alive; `close()` terminates them.
 */

const DEFAULT_DEADLINE_MS = 5_000;
const DEFAULT_START_LIMIT_MS = 60_000;
const DEFAULT_MAX_QUEUE = 64;
const MAX_THREADS = 2;
const THREAD_ENTRY = new URL('./lua-tools-thread.mjs', import.meta.url);
// The parser's tree for a big script is many small objects: a young generation of 32 MB (V8's
// default is about 16) keeps most of them from being copied into the old one; a 1 MB check takes
// about a quarter less time (measured 300 against 400 ms on the 2-core server).
const THREAD_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 32 };

export type LuaToolsOptions = {
  threads?: number;
  deadlineMs?: number;
  maxQueue?: number;
  /** How long a thread may take to be ready (60 s). */
  startLimitMs?: number;
  /** Tests only: what each thread is started with (a slow start-up, say). */
  threadData?: LuaToolsThreadData;
  logger?: Logger;
};

/** A call may shorten or lengthen its own deadline (a format may deserve more time than a check). */
export type LuaToolsCallOptions = { deadlineMs?: number };

export type LuaToolsStats = { threads: number; running: number; waiting: number; replaced: number };

export type LuaToolsService = {
  check(code: string, options?: LuaToolsCallOptions): Promise<CheckResult>;
  format(code: string, options?: LuaToolsCallOptions): Promise<{ code: string }>;
  stats(): LuaToolsStats;
  close(): Promise<void>;
};

type Call = {
  request: LuaToolsRequest;
  deadlineMs: number;
  timer?: NodeJS.Timeout;
  resolve(result: unknown): void;
  reject(error: Error): void;
};

type Thread = {
  worker: Worker;
  call: Call | null;
  ready: boolean;
  /** Ends a start-up that takes longer than the limit; cleared when the thread is ready. */
  startTimer?: NodeJS.Timeout;
  failure?: Error;
};

export function defaultThreadCount(): number {
  return Math.min(MAX_THREADS, Math.max(1, os.availableParallelism() - 1));
}

export function createLuaToolsService(options: LuaToolsOptions = {}): LuaToolsService {
  const size = Math.max(1, Math.floor(options.threads ?? defaultThreadCount()));
  const defaultDeadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
  const startLimitMs = options.startLimitMs ?? DEFAULT_START_LIMIT_MS;
  const log = options.logger?.child({ module: 'lua-tools' });

  // A slot is null until a call needs its thread, and again after its thread died on its own.
  const slots: (Thread | null)[] = Array.from({ length: size }, () => null);
  const waiting: Call[] = [];
  let nextId = 1;
  let replaced = 0;
  let closed = false;

  function startThread(): Thread {
    const worker = new Worker(THREAD_ENTRY, {
      name: 'lua-tools',
      resourceLimits: THREAD_RESOURCE_LIMITS,
      workerData: options.threadData ?? {},
    });
    worker.unref();
    const thread: Thread = { worker, call: null, ready: false };
    // Not unref'd, unlike the thread: while calls wait for it to start, their deadlines are not
    // armed yet, and this timer is what keeps the process alive for them.
    thread.startTimer = setTimeout(() => onStartTimeout(thread), startLimitMs);
    worker.on('message', (message: LuaToolsThreadMessage) =>
      'ready' in message ? onReady(thread) : onReply(thread, message),
    );
    worker.on('error', (error) => {
      thread.failure = error;
    });
    worker.on('exit', (exitCode) => onExit(thread, exitCode));
    return thread;
  }

  const anyReady = () => slots.some((thread) => thread?.ready);
  const starting = () => slots.filter((thread) => thread !== null && !thread.ready).length;

  function armDeadline(call: Call): void {
    call.timer = setTimeout(() => onDeadline(call), call.deadlineMs);
  }

  /** Gives waiting calls to idle ready threads, then starts threads for the calls still waiting. */
  function dispatch(): void {
    for (const thread of slots) {
      if (waiting.length === 0) return;
      if (!thread?.ready || thread.call) continue;
      const call = waiting.shift()!;
      thread.call = call;
      thread.worker.postMessage(call.request);
    }
    for (let index = 0; index < slots.length && waiting.length > starting(); index++) {
      if (slots[index] === null) slots[index] = startThread();
    }
  }

  function onReady(thread: Thread): void {
    if (!slots.includes(thread)) return;
    clearTimeout(thread.startTimer);
    thread.ready = true;
    // The calls that waited for a thread to start: their deadlines count from now.
    for (const call of waiting) if (!call.timer) armDeadline(call);
    dispatch();
  }

  /**
   * A thread that could not start (it died loading, or passed the start-up limit). With no other
   * thread ready or starting, the waiting calls fail now; the next call starts a thread again, so a
   * thread that cannot start never restarts in a loop.
   */
  function lostStartingThread(reason: string): void {
    log?.error({ reason }, 'lua-tools thread did not start');
    if (anyReady() || starting() > 0) return;
    for (const call of waiting.splice(0)) {
      clearTimeout(call.timer);
      call.reject(new LuaToolsStoppedError(`The Luau tools thread did not start: ${reason}`));
    }
  }

  function onStartTimeout(thread: Thread): void {
    const index = slots.indexOf(thread);
    if (index === -1) return;
    slots[index] = null;
    void thread.worker.terminate();
    lostStartingThread(`not ready within ${startLimitMs} ms`);
  }

  /** Terminates a thread we gave up on and starts its successor at once (it was healthy until now). */
  function replace(thread: Thread, reason: string): void {
    const index = slots.indexOf(thread);
    if (index === -1) return;
    thread.call = null;
    clearTimeout(thread.startTimer);
    slots[index] = closed ? null : startThread();
    replaced++;
    log?.warn({ reason }, 'lua-tools thread replaced');
    void thread.worker.terminate();
  }

  function onReply(thread: Thread, reply: Exclude<LuaToolsThreadMessage, { ready: true }>): void {
    const call = thread.call;
    // A reply for a call that already timed out comes from a thread being terminated: drop it.
    if (!call || call.request.id !== reply.id) return;
    thread.call = null;
    clearTimeout(call.timer);
    if (reply.ok) {
      call.resolve(reply.result);
    } else {
      call.reject(deserializeError(reply.error));
      if (reply.error.kind === 'crash') replace(thread, 'StyLua WASM trapped');
    }
    dispatch();
  }

  function onExit(thread: Thread, exitCode: number): void {
    const index = slots.indexOf(thread);
    if (index === -1) return; // replaced or closed by us
    slots[index] = null;
    clearTimeout(thread.startTimer);
    const detail = thread.failure ? `: ${thread.failure.message}` : '';
    if (!thread.ready) {
      // No dispatch(): it could start another thread at once, and one that cannot start would loop.
      lostStartingThread(`exit code ${exitCode}${detail}`);
      return;
    }
    log?.error({ exitCode, err: thread.failure }, 'lua-tools thread stopped unexpectedly');
    const call = thread.call;
    if (call) {
      thread.call = null;
      clearTimeout(call.timer);
      call.reject(new LuaToolsStoppedError(`The Luau tools thread stopped (exit code ${exitCode})${detail}`));
    }
    dispatch();
  }

  function onDeadline(call: Call): void {
    const position = waiting.indexOf(call);
    if (position !== -1) {
      waiting.splice(position, 1);
      call.reject(new LuaToolsTimeoutError(call.deadlineMs, false));
      return;
    }
    const thread = slots.find((candidate) => candidate?.call === call);
    if (!thread) return;
    replace(thread, `call passed its ${call.deadlineMs} ms deadline`);
    call.reject(new LuaToolsTimeoutError(call.deadlineMs, true));
    dispatch();
  }

  function submit(operation: LuaToolsOperation, code: string, callOptions: LuaToolsCallOptions = {}) {
    if (closed) return Promise.reject(new LuaToolsStoppedError('The Luau tools service is closed'));
    // Each thread not running a call (idle, starting, or not started yet) takes one call of the
    // queue; at most maxQueue more wait behind them.
    const takers = slots.filter((thread) => thread?.call == null).length;
    if (waiting.length >= maxQueue + takers) return Promise.reject(new LuaToolsBusyError(maxQueue));
    return new Promise<unknown>((resolve, reject) => {
      const call: Call = {
        request: { id: nextId++, operation, code },
        deadlineMs: callOptions.deadlineMs ?? defaultDeadlineMs,
        resolve,
        reject,
      };
      // Counted from now only if a thread is ready; otherwise from when one is (onReady).
      if (anyReady()) armDeadline(call);
      waiting.push(call);
      dispatch();
    });
  }

  return {
    check: (code, callOptions) => submit('check', code, callOptions) as Promise<CheckResult>,
    format: (code, callOptions) => submit('format', code, callOptions) as Promise<{ code: string }>,

    stats() {
      const started = slots.filter((thread) => thread !== null);
      return {
        threads: started.length,
        running: started.filter((thread) => thread.call !== null).length,
        waiting: waiting.length,
        replaced,
      };
    },

    async close() {
      if (closed) return;
      closed = true;
      const stopped = () => new LuaToolsStoppedError('The Luau tools service was closed before the call finished');
      for (const call of waiting.splice(0)) {
        clearTimeout(call.timer);
        call.reject(stopped());
      }
      const threads = slots.filter((thread) => thread !== null);
      slots.fill(null);
      for (const thread of threads) {
        clearTimeout(thread.startTimer);
        if (!thread.call) continue;
        clearTimeout(thread.call.timer);
        thread.call.reject(stopped());
        thread.call = null;
      }
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };
}
