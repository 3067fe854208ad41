import type { LuaDiagnostic } from '@moonrelay/contract/executions';

/**
 * Errors of the lua-tools module. They live apart from `luau-format.ts` so that the main thread can
 * use them without loading StyLua's WASM (which only the lua-tools threads load).
 */

/** 1-based line and column (UTF-16 code units, as JavaScript strings and the editor count them). */
export type Diagnostic = LuaDiagnostic;

/** The code does not parse as Luau; `diagnostics` says where. */
export class LuauSyntaxError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    const first = diagnostics[0];
    super(first ? `Luau syntax error at ${first.line}:${first.column}: ${first.message}` : 'Luau syntax error');
    this.name = 'LuauSyntaxError';
  }
}

/**
 * The code parses, but StyLua could not format it: it cannot parse that syntax, or it refused its
 * own output (its check of the formatted code failed).
 */
export class LuauFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LuauFormatError';
  }
}

/**
 * StyLua's WASM trapped (its stack is 1 MB: very deep nesting overflows it) or panicked. After this
 * the WASM instance of that thread is unusable, so the service replaces the thread.
 */
export class LuauParserCrashError extends Error {
  constructor(readonly trap: string) {
    super(`The Luau parser could not process this script (it may be nested too deeply): ${trap}`);
    this.name = 'LuauParserCrashError';
  }
}

/** Every thread is busy and the waiting queue is full: the caller should answer 503 and retry later. */
export class LuaToolsBusyError extends Error {
  constructor(maxQueue: number) {
    super(`The Luau checker is busy (${maxQueue} calls already waiting); try again shortly`);
    this.name = 'LuaToolsBusyError';
  }
}

/** The call passed its deadline; if it was running, its thread was terminated and replaced. */
export class LuaToolsTimeoutError extends Error {
  constructor(
    deadlineMs: number,
    readonly threadReplaced: boolean,
  ) {
    super(
      threadReplaced
        ? `Luau check/format took longer than ${deadlineMs} ms; its thread was terminated and replaced`
        : `Luau check/format waited longer than ${deadlineMs} ms for a free thread`,
    );
    this.name = 'LuaToolsTimeoutError';
  }
}

/** The service was closed, or its thread stopped unexpectedly, before the call finished. */
export class LuaToolsStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LuaToolsStoppedError';
  }
}
