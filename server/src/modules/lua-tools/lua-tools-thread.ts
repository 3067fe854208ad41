import { setTimeout as delay } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import {
  serializeError,
  type LuaToolsReady,
  type LuaToolsReply,
  type LuaToolsRequest,
  type LuaToolsThreadData,
} from './lua-tools.protocol.ts';
import { formatLuau } from './luau-format.ts';
import { checkLuau } from './luau-syntax.ts';

/**
 * A lua-tools worker thread: answers check and format requests one at a time, so neither a big
 * script's syntax check nor StyLua's synchronous WASM blocks the server's event loop. Started by
 * `lua-tools-thread.mjs`. The checker and StyLua are both loaded before the thread says it is
 * ready: loading takes seconds on a busy machine, and no call's deadline may pay for it.
 */

if (!parentPort) throw new Error('lua-tools-thread.ts must run as a worker thread (see lua-tools.service.ts)');
const port = parentPort;

async function answer(request: LuaToolsRequest): Promise<unknown> {
  return request.operation === 'check' ? checkLuau(request.code) : formatLuau(request.code);
}

port.on('message', (request: LuaToolsRequest) => {
  answer(request).then(
    (result) => port.postMessage({ id: request.id, ok: true, result } satisfies LuaToolsReply),
    (error: unknown) =>
      port.postMessage({ id: request.id, ok: false, error: serializeError(error) } satisfies LuaToolsReply),
  );
});

const { readyDelayMs } = (workerData ?? {}) as LuaToolsThreadData;
if (readyDelayMs) await delay(readyDelayMs);
port.postMessage({ ready: true } satisfies LuaToolsReady);
