import { parentPort } from 'node:worker_threads';
import { checkLuau, formatLuau } from './luau-syntax.ts';
import { serializeError, type LuaToolsReply, type LuaToolsRequest } from './lua-tools.protocol.ts';

/**
 * A lua-tools worker thread: answers check and format requests one at a time, so StyLua's
 * synchronous WASM never blocks the server's event loop. Started by `lua-tools-thread.mjs`.
 */

if (!parentPort) throw new Error('lua-tools-thread.ts must run as a worker thread (see lua-tools.service.ts)');
const port = parentPort;

port.on('message', (request: LuaToolsRequest) => {
  let reply: LuaToolsReply;
  try {
    const result = request.operation === 'check' ? checkLuau(request.code) : formatLuau(request.code);
    reply = { id: request.id, ok: true, result };
  } catch (error) {
    reply = { id: request.id, ok: false, error: serializeError(error) };
  }
  port.postMessage(reply);
});
