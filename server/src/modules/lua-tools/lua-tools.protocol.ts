import { LuauFormatError, LuauParserCrashError, LuauSyntaxError, type Diagnostic } from './lua-tools.errors.ts';

/** Messages between the service (main thread) and a lua-tools thread. */

export type LuaToolsOperation = 'check' | 'format';

export type LuaToolsRequest = { id: number; operation: LuaToolsOperation; code: string };

/** Errors cross the thread boundary as plain data and are rebuilt as the same classes. */
export type SerializedError =
  | { kind: 'syntax'; diagnostics: Diagnostic[] }
  | { kind: 'format'; message: string }
  | { kind: 'crash'; trap: string }
  | { kind: 'internal'; message: string };

export type LuaToolsReply =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedError };

/** The thread's first message: its checker and formatter are loaded, it takes calls from now on. */
export type LuaToolsReady = { ready: true };

export type LuaToolsThreadMessage = LuaToolsReply | LuaToolsReady;

/** What a thread is started with. */
export type LuaToolsThreadData = {
  /** Tests only: the thread waits this long before saying it is ready, as a slow start-up would. */
  readyDelayMs?: number;
};

export function serializeError(error: unknown): SerializedError {
  if (error instanceof LuauSyntaxError) return { kind: 'syntax', diagnostics: error.diagnostics };
  if (error instanceof LuauFormatError) return { kind: 'format', message: error.message };
  if (error instanceof LuauParserCrashError) return { kind: 'crash', trap: error.trap };
  return { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
}

export function deserializeError(error: SerializedError): Error {
  switch (error.kind) {
    case 'syntax':
      return new LuauSyntaxError(error.diagnostics);
    case 'format':
      return new LuauFormatError(error.message);
    case 'crash':
      return new LuauParserCrashError(error.trap);
    case 'internal':
      return new Error(`Luau tools thread failed: ${error.message}`);
  }
}
