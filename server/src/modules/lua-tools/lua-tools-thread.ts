import { parentPort } from 'node:worker_threads';
import { serializeError, type LuaToolsReply, type LuaToolsRequest } from './lua-tools.protocol.ts';
import { checkLuau } from './luau-syntax.ts';

/**
 * A lua-tools worker thread: answers check and format requests one at a time, so neither a big
 * script's syntax check nor StyLua's synchronous WASM blocks the server's event loop. Started by
 * `lua-tools-thread.mjs`. StyLua is loaded on the first format only: checks do not need it.
 */

if (!parentPort) throw new Error('lua-tools-thread.ts must run as a worker thread (see lua-tools.service.ts)');
const port = parentPort;

let formatter: Promise<typeof import('./luau-format.ts')> | null = null;

async function answer(request: LuaToolsRequest): Promise<unknown> {
  if (request.operation === 'check') return checkLuau(request.code);
  formatter ??= import('./luau-format.ts');
  return (await formatter).formatLuau(request.code);
}

port.on('message', (request: LuaToolsRequest) => {
  answer(request).then(
    (result) => port.postMessage({ id: request.id, ok: true, result } satisfies LuaToolsReply),
    (error: unknown) =>
      port.postMessage({ id: request.id, ok: false, error: serializeError(error) } satisfies LuaToolsReply),
  );
});
