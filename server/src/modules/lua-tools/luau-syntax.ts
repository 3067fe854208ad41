import { parseLuau } from '@moonrelay/lua/luau/parser.ts';
import { LuauParserCrashError, type Diagnostic } from './lua-tools.errors.ts';

/**
 * The Luau syntax check behind `/api/lua/check`, the editor's live diagnostics and the execute
 * call: Moonrelay's own Luau parser (lua/luau/parser.ts, see docs/decisions/017-luau-front-end.md),
 * so the messages are the ones Roblox Studio shows (`Expected 'end' (to close 'function' at line
 * 3), got <eof>`), positions are 1-based lines and UTF-16 columns as the editor counts them, and
 * at most 100 diagnostics come back. Formatting stays with StyLua (luau-format.ts).
 *
 * It runs in the lua-tools threads like formatting: a 1 MB script takes long enough to stall the
 * server's event loop (see bench/luau-parse.ts for the numbers).
 */

export type { Diagnostic };
export type CheckResult = { ok: boolean; diagnostics: Diagnostic[] };

export function checkLuau(code: string): CheckResult {
  let diagnostics: Diagnostic[];
  try {
    diagnostics = parseLuau(code).diagnostics;
  } catch (error) {
    // The parser stops nesting at 1000 levels, far below the JavaScript stack; should that ever
    // not hold, the script is refused as too deep, not answered with a server error.
    if (error instanceof RangeError) throw new LuauParserCrashError(error.message);
    throw error;
  }
  return { ok: diagnostics.length === 0, diagnostics };
}
