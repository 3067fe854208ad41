import { Config, formatCode, IndentType, LuaVersion, OutputVerification, Range } from '@johnnymorganz/stylua';
import { EDITOR_TAB_SIZE } from '@moonrelay/contract/constants';
import { LuauFormatError, LuauParserCrashError, LuauSyntaxError, type Diagnostic } from './lua-tools.errors.ts';

/**
 * Luau syntax checking and formatting with StyLua's WASM build (the full-moon parser, Luau syntax).
 *
 * Rules, with their numbers:
 * - `formatCode` takes ownership of its Config and Range: a reused one throws "null pointer passed
 *   to rust", so every call builds new ones.
 * - StyLua has no parse-only entry point, and formatting costs 3 (empty range) to 20 (whole
 *   script) times the parse. So a check first parses the code followed by a line holding only
 *   `)`. That `)` can only be reported as "unexpected token `)` (N+1:1 to N+1:2), unexpected token,
 *   this needs to be a statement" after a script of N lines that parsed completely, and StyLua
 *   stops at parse errors, so nothing is formatted. If the error text is exactly that one error,
 *   the code is valid. Anything else (the `)` closed an open bracket, other errors) falls back to
 *   checking the code alone, with a formatting range past its end (u32 max) so that nothing is
 *   formatted either. 100 KB checks in ~11 ms instead of ~45 ms (empty range) or ~250 ms (full
 *   format), and the parser alone survives deeper nesting than the formatter (see below).
 * - StyLua counts columns in Unicode code points; diagnostics count UTF-16 code units (JavaScript
 *   string indices), 1-based, as the editor does. Only `\n` starts a line.
 * - At most 100 diagnostics per script (error recovery on garbage can report thousands).
 * - StyLua's WASM stack is 1 MB: about 50 nested blocks, 35 nested functions, 100 nested tables or
 *   brackets overflow the parser (formatting overflows sooner: 27 nested blocks, 300 chained binary
 *   operators) and the WASM traps. A trap (or a StyLua panic: `local x = y :: any $` is one) leaves
 *   StyLua unusable for the rest of the thread's life, so call these functions from the lua-tools
 *   thread (the service replaces a thread that traps), not from the server's main thread.
 */

const MAX_DIAGNOSTICS = 100;
const PAST_ANY_OFFSET = 0xffff_ffff;
const PARSE_ERROR_PREFIX = 'error parsing: ';
const ITEM_SEPARATOR = '\n - ';
const TOKEN_DISPLAY_LENGTH = 40;

export type { Diagnostic };
export type CheckResult = { ok: boolean; diagnostics: Diagnostic[] };

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

export function checkLuau(code: string): CheckResult {
  const source = withoutBom(code);
  if (parsesBeforeSentinel(source)) return { ok: true, diagnostics: [] };
  try {
    formatCode(source.text, luauConfig(), Range.from_values(PAST_ANY_OFFSET, PAST_ANY_OFFSET), OutputVerification.None);
    return { ok: true, diagnostics: [] };
  } catch (thrown) {
    const error = toLuauError(thrown, source);
    if (error instanceof LuauSyntaxError) return { ok: false, diagnostics: error.diagnostics };
    throw error;
  }
}

/** True when the code followed by a `)` line fails with exactly the `)`'s own error (see the top). */
function parsesBeforeSentinel(source: Source): boolean {
  let lines = 1;
  for (let i = source.text.indexOf('\n'); i !== -1; i = source.text.indexOf('\n', i + 1)) lines++;
  const sentinelLine = lines + 1;
  const sentinelOnly = `${PARSE_ERROR_PREFIX}unexpected token \`)\` (${sentinelLine}:1 to ${sentinelLine}:2), unexpected token, this needs to be a statement`;
  try {
    formatCode(
      `${source.text}\n)`,
      luauConfig(),
      Range.from_values(PAST_ANY_OFFSET, PAST_ANY_OFFSET),
      OutputVerification.None,
    );
    return false;
  } catch (thrown) {
    if (typeof thrown === 'string') return thrown === sentinelOnly;
    throw toLuauError(thrown, source);
  }
}

/**
 * Formats the whole script. StyLua re-parses its output and compares it with the input
 * (OutputVerification.Full), so formatting never changes what the code does; if that check fails
 * the call throws LuauFormatError rather than return suspicious code.
 */
export function formatLuau(code: string): { code: string } {
  const source = withoutBom(code);
  try {
    return { code: formatCode(source.text, luauConfig(), undefined, OutputVerification.Full) };
  } catch (thrown) {
    throw toLuauError(thrown, source);
  }
}

type Source = { text: string; bomLength: number };

// full-moon reads a byte-order mark as an unexpected character; Luau skips it, and so do we.
function withoutBom(code: string): Source {
  return code.startsWith('\uFEFF') ? { text: code.slice(1), bomLength: 1 } : { text: code, bomLength: 0 };
}

/** StyLua throws strings (parse and verification errors) or, when its WASM traps, a JS error. */
function toLuauError(thrown: unknown, source: Source): Error {
  if (typeof thrown === 'string') {
    if (thrown.startsWith(PARSE_ERROR_PREFIX))
      return new LuauSyntaxError(parseStyluaErrors(thrown, source.text, source.bomLength));
    return new LuauFormatError(thrown);
  }
  if (thrown instanceof WebAssembly.RuntimeError || thrown instanceof RangeError) {
    return new LuauParserCrashError(thrown.message);
  }
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

/**
 * StyLua's parse error text, for one error or several:
 *
 *   error parsing: unexpected token `=` (1:9 to 1:10), expected an expression
 *   error parsing: \n - unclosed string (1:11 to 2:1)\n - unexpected token `` (2:9 to 2:9), ...
 *
 * An item is an AST error ("unexpected token `TOKEN` (L:C to L:C), MESSAGE"; TOKEN is the token's
 * source text, empty at end of file, and may itself hold backticks or newlines) or a tokenizer error
 * ("unclosed string|unclosed comment|invalid number|unexpected character X (L:C to L:C)"). Hints
 * about stylua.toml may follow on lines starting "hint: "; they mean nothing to our users.
 */
const ITEM =
  /unexpected token `([\s\S]*?)` \((\d+):(\d+) to (\d+):(\d+)\), ([^\n]*?)(?=\n - |$)|([^\n]*?) \((\d+):(\d+) to (\d+):(\d+)\)(?=\n - |$)|([^\n]*?)(?=\n - |$)/y;
const HINT = /\nhint: [^\n]*$/;

export function parseStyluaErrors(errorText: string, code: string, bomLength = 0): Diagnostic[] {
  let body = errorText.startsWith(PARSE_ERROR_PREFIX) ? errorText.slice(PARSE_ERROR_PREFIX.length) : errorText;
  while (HINT.test(body)) body = body.replace(HINT, '');
  if (body.startsWith(ITEM_SEPARATOR)) body = body.slice(ITEM_SEPARATOR.length);

  const index = new LineIndex(code, bomLength);
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  let position = 0;
  while (diagnostics.length < MAX_DIAGNOSTICS) {
    ITEM.lastIndex = position;
    const match = ITEM.exec(body);
    // Text that fits no shape (a newline inside a message): keep the rest as one message.
    const diagnostic = match ? toDiagnostic(match, index) : positionless(body.slice(position), index);
    const key = `${diagnostic.line}:${diagnostic.column}:${diagnostic.endLine}:${diagnostic.endColumn}:${diagnostic.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      diagnostics.push(diagnostic);
    }
    if (!match || ITEM.lastIndex >= body.length) break;
    position = ITEM.lastIndex + ITEM_SEPARATOR.length;
  }
  return diagnostics;
}

function toDiagnostic(match: RegExpExecArray, index: LineIndex): Diagnostic {
  const [, token, line, column, endLine, endColumn, detail, tokenizerMessage, tLine, tColumn, tEndLine, tEndColumn] =
    match;
  if (token !== undefined) {
    const message =
      token === '' ? `unexpected end of script, ${detail}` : `unexpected token \`${displayToken(token)}\`, ${detail}`;
    const range = index.range(Number(line), Number(column), Number(endLine), Number(endColumn));
    return index.diagnostic(relocateToToken(range, token, index.text), message);
  }
  if (tokenizerMessage !== undefined && tLine !== undefined) {
    const range = index.range(Number(tLine), Number(tColumn), Number(tEndLine), Number(tEndColumn));
    return index.diagnostic(range, displayControlCharacters(tokenizerMessage));
  }
  return positionless(match[12] ?? '', index);
}

function positionless(message: string, index: LineIndex): Diagnostic {
  return index.diagnostic(
    { start: 0, end: 0 },
    `${message.trim() || 'syntax error'} (no position given by the parser)`,
  );
}

function displayToken(token: string): string {
  const flat = displayControlCharacters(token.replace(/\s+/g, ' '));
  return flat.length > TOKEN_DISPLAY_LENGTH ? `${flat.slice(0, TOKEN_DISPLAY_LENGTH)}…` : flat;
}

// "unexpected character \0" or a byte-order mark mid-file would otherwise be invisible.
function displayControlCharacters(text: string): string {
  return text.replace(
    /[\p{Cc}\p{Cf}]/gu,
    (character) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

type OffsetRange = { start: number; end: number };

/**
 * Some errors ("expected `end` to close function body block") carry the range of the statement
 * before the offending token, not the token's; such a range ends at the start of that statement's
 * last token. When the source at the reported start is not the token but the token comes right
 * after the range (past the rest of that last token, blanks and comments), point at the token:
 * that is where the reference Luau parser reports the error too. Otherwise keep StyLua's range.
 */
function relocateToToken(range: OffsetRange, token: string, text: string): OffsetRange {
  const isTokenAt = (offset: number) => (token === '' ? offset === text.length : text.startsWith(token, offset));
  if (isTokenAt(range.start)) return { start: range.start, end: Math.max(range.end, range.start + token.length) };
  let afterRange = range.end;
  if (afterRange < text.length && !/\s/.test(text[afterRange]!)) afterRange++;
  while (afterRange < text.length && !/\s/.test(text[afterRange]!) && !isTokenAt(afterRange)) afterRange++;
  const next = skipBlanksAndComments(text, afterRange);
  return isTokenAt(next) ? { start: next, end: next + token.length } : range;
}

function skipBlanksAndComments(text: string, from: number): number {
  let i = from;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (!text.startsWith('--', i)) return i;
    const longOpen = /^\[(=*)\[/.exec(text.slice(i + 2, i + 2 + 64));
    if (longOpen) {
      const close = text.indexOf(`]${longOpen[1]}]`, i + 2 + longOpen[0].length);
      if (close === -1) return text.length;
      i = close + longOpen[0].length;
    } else {
      const newline = text.indexOf('\n', i);
      i = newline === -1 ? text.length : newline;
    }
  }
}

/** Converts StyLua's (line, code point column) positions into offsets and back into UTF-16 columns. */
class LineIndex {
  private readonly lineStarts = [0];

  constructor(
    readonly text: string,
    private readonly bomLength: number,
  ) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  range(line: number, column: number, endLine: number, endColumn: number): OffsetRange {
    const start = this.offset(line, column);
    // Error recovery sometimes reports an end before the start ("58:2 to 1:4").
    return { start, end: Math.max(start, this.offset(endLine, endColumn)) };
  }

  diagnostic(range: OffsetRange, message: string): Diagnostic {
    const start = this.position(range.start);
    const end = this.position(range.end);
    return { line: start.line, column: start.column, endLine: end.line, endColumn: end.column, message };
  }

  private offset(line: number, codePointColumn: number): number {
    if (line < 1) return 0;
    const lineStart = this.lineStarts[line - 1];
    if (lineStart === undefined) return this.text.length;
    const lineEnd = this.lineStarts[line] !== undefined ? this.lineStarts[line]! - 1 : this.text.length;
    let offset = lineStart;
    for (let k = 1; k < codePointColumn && offset < lineEnd; k++) {
      offset += this.text.codePointAt(offset)! > 0xffff ? 2 : 1;
    }
    return offset;
  }

  private position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    const column = offset - this.lineStarts[low]! + 1 + (low === 0 ? this.bomLength : 0);
    return { line: low + 1, column };
  }
}
