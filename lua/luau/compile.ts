/**
 * Luau source to the Lua 5.4 text the sandbox loads: parse (parser.ts), then lower (lower.ts).
 * Answers the first syntax error as the sandbox words any script error, `script:LINE: message`,
 * with the parser's Luau wording, so the editor's check and a run say the same thing.
 */
import type { SyntaxDiagnostic } from './ast.ts';
import { LowerError, lowerLuau } from './lower.ts';
import { parseLuau } from './parser.ts';

export type CompiledLuau = { ok: true; lua: string } | { ok: false; error: string; diagnostic: SyntaxDiagnostic };

/** The chunk name errors carry (the sandbox loads scripts as "=script"). */
const CHUNK = 'script';

export function compileLuau(source: string): CompiledLuau {
  let parsed;
  try {
    parsed = parseLuau(source);
  } catch (cause) {
    return failure(1, 1, stackMessage(cause));
  }
  const [first] = parsed.diagnostics;
  if (first !== undefined) {
    return { ok: false, error: `${CHUNK}:${first.line}: ${first.message}`, diagnostic: first };
  }
  try {
    return { ok: true, lua: lowerLuau(parsed.chunk) };
  } catch (cause) {
    if (cause instanceof LowerError) return failure(cause.line, cause.column, cause.message);
    return failure(1, 1, stackMessage(cause));
  }
}

/** A tree deep enough to exhaust the JavaScript stack is the script's problem, not the sandbox's. */
function stackMessage(cause: unknown): string {
  if (cause instanceof RangeError) return 'The script is nested too deeply to run';
  throw cause;
}

function failure(line: number, column: number, message: string): CompiledLuau {
  return {
    ok: false,
    error: `${CHUNK}:${line}: ${message}`,
    diagnostic: { line, column, endLine: line, endColumn: column + 1, message },
  };
}
