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
