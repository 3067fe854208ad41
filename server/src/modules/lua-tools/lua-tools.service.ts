import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logger.ts';
import { LuaToolsBusyError, LuaToolsStoppedError, LuaToolsTimeoutError } from './lua-tools.errors.ts';
import {
  deserializeError,
  type LuaToolsOperation,
  type LuaToolsReply,
  type LuaToolsRequest,
} from './lua-tools.protocol.ts';
import type { CheckResult } from './luau-syntax.ts';

/**
 * Luau check and format, run off the main event loop in a small pool of worker threads: Moonrelay's
 * Luau parser checks a 1 MB script in about a tenth of a second, and StyLua's formatting WASM is
 * synchronous and slower still.
 *
 * Rules, with their numbers:
 * - Threads: availableParallelism - 1, at least 1 and at most 2 (1 on the 2-core server). None
 *   start before the first call.
 * - Deadline: 5 s per call by default, counted from when the call is accepted, so it covers both
 *   waiting and running. A waiting call is dropped; a running one has its thread terminated and
 *   replaced. Either way the call rejects with LuaToolsTimeoutError.
 * - Queue: at most 64 calls wait for a thread; the next one rejects with LuaToolsBusyError (503).
 * - A thread whose WASM trapped (LuauParserCrashError) is replaced: the trap breaks its StyLua.
 * - A thread that dies on its own is started again only when a call needs it, so a thread that
 *   cannot start fails calls one by one instead of restarting in a loop.
 * - Idle threads do not keep the process alive; `close()` terminates them.
 */

const DEFAULT_DEADLINE_MS = 5_000;
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

type Thread = { worker: Worker; call: Call | null; failure?: Error };

export function defaultThreadCount(): number {
  return Math.min(MAX_THREADS, Math.max(1, os.availableParallelism() - 1));
}

export function createLuaToolsService(options: LuaToolsOptions = {}): LuaToolsService {
  const size = Math.max(1, Math.floor(options.threads ?? defaultThreadCount()));
  const defaultDeadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
  const log = options.logger?.child({ module: 'lua-tools' });

  // A slot is null until a call needs its thread, and again after its thread died on its own.
  const slots: (Thread | null)[] = Array.from({ length: size }, () => null);
  const waiting: Call[] = [];
  let nextId = 1;
  let replaced = 0;
  let closed = false;

  function startThread(): Thread {
    const worker = new Worker(THREAD_ENTRY, { name: 'lua-tools', resourceLimits: THREAD_RESOURCE_LIMITS });
    worker.unref();
    const thread: Thread = { worker, call: null };
    worker.on('message', (reply: LuaToolsReply) => onReply(thread, reply));
    worker.on('error', (error) => {
      thread.failure = error;
    });
    worker.on('exit', (exitCode) => onExit(thread, exitCode));
    return thread;
  }

  function freeSlot(): number {
    return slots.findIndex((thread) => thread === null || thread.call === null);
  }

  function dispatch(): void {
    for (let index = freeSlot(); index !== -1 && waiting.length > 0; index = freeSlot()) {
      const call = waiting.shift()!;
      const thread = slots[index] ?? startThread();
      slots[index] = thread;
      thread.call = call;
      thread.worker.postMessage(call.request);
    }
  }

  /** Terminates a thread we gave up on and starts its successor at once (it was healthy until now). */
  function replace(thread: Thread, reason: string): void {
    const index = slots.indexOf(thread);
    if (index === -1) return;
    thread.call = null;
    slots[index] = closed ? null : startThread();
    replaced++;
    log?.warn({ reason }, 'lua-tools thread replaced');
    void thread.worker.terminate();
  }

  function onReply(thread: Thread, reply: LuaToolsReply): void {
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
    const detail = thread.failure ? `: ${thread.failure.message}` : '';
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
    if (freeSlot() === -1 && waiting.length >= maxQueue) return Promise.reject(new LuaToolsBusyError(maxQueue));
    return new Promise<unknown>((resolve, reject) => {
      const call: Call = {
        request: { id: nextId++, operation, code },
        deadlineMs: callOptions.deadlineMs ?? defaultDeadlineMs,
        resolve,
        reject,
      };
      call.timer = setTimeout(() => onDeadline(call), call.deadlineMs);
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
        if (!thread.call) continue;
        clearTimeout(thread.call.timer);
        thread.call.reject(stopped());
        thread.call = null;
      }
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };
}
