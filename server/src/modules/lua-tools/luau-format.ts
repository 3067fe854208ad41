import { Config, formatCode, IndentType, LuaVersion, OutputVerification } from '@johnnymorganz/stylua';
import { EDITOR_TAB_SIZE } from '@moonrelay/contract/constants';
import { LuauFormatError, LuauParserCrashError, LuauSyntaxError } from './lua-tools.errors.ts';
import { checkLuau } from './luau-syntax.ts';

/**
 * Luau formatting with StyLua's WASM build (the full-moon parser, Luau syntax).
 *
 * Rules, with their numbers:
 * - The code is checked with Moonrelay's Luau parser first (luau-syntax.ts): code that does not
 *   parse is refused with the same diagnostics, in Luau's words, as `/api/lua/check` gives. Code
 *   we accept but StyLua cannot parse (newer syntax than it knows) is a LuauFormatError, not a
 *   syntax error: the code is fine, only formatting is unavailable.
 * - `formatCode` takes ownership of its Config: a reused one throws "null pointer passed to rust",
 *   so every call builds a new one.
 * - StyLua's WASM stack is 1 MB: about 27 nested blocks or 300 chained binary operators overflow
 *   the formatter and the WASM traps. A trap (or a StyLua panic) leaves StyLua unusable for the
 *   rest of the thread's life, so call this from a lua-tools thread (the service replaces a thread
 *   that traps), never from the server's main thread.
 */

const PARSE_ERROR_PREFIX = 'error parsing: ';

function luauConfig(): Config {
  const config = Config.new();
  config.syntax = LuaVersion.Luau;
  // StyLua's defaults (double quotes preferred, call parentheses always, ...) except the indent:
  // spaces, as wide as the editor's tab (2), so formatted code looks the same in the editor.
  // Column width stays at StyLua's (and the repository's prettier) 120.
  config.indent_type = IndentType.Spaces;
  config.indent_width = EDITOR_TAB_SIZE;
  config.column_width = 120;
  return config;
}

/**
 * Formats the whole script. StyLua re-parses its output and compares it with the input
 * (OutputVerification.Full), so formatting never changes what the code does; if that check fails
 * the call throws LuauFormatError rather than return suspicious code.
 */
export function formatLuau(code: string): { code: string } {
  const check = checkLuau(code);
  if (!check.ok) throw new LuauSyntaxError(check.diagnostics);
  // full-moon reads a byte-order mark as an unexpected character; Luau skips it, and so do we.
  const text = code.startsWith('\uFEFF') ? code.slice(1) : code;
  try {
    return { code: formatCode(text, luauConfig(), undefined, OutputVerification.Full) };
  } catch (thrown) {
    throw toFormatError(thrown);
  }
}

/** StyLua throws strings (parse and verification errors) or, when its WASM traps, a JS error. */
function toFormatError(thrown: unknown): Error {
  if (typeof thrown === 'string') {
    const reason = thrown.startsWith(PARSE_ERROR_PREFIX) ? `StyLua cannot parse it: ${thrown}` : thrown;
    return new LuauFormatError(reason);
  }
  if (thrown instanceof WebAssembly.RuntimeError || thrown instanceof RangeError) {
    return new LuauParserCrashError(thrown.message);
  }
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
