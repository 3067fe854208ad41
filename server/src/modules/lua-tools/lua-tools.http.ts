import type { LuaCheckResponse, LuaDiagnostic } from '@moonrelay/contract/executions';
import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from '../../http/app-error.ts';
import {
  LuaToolsBusyError,
  LuaToolsStoppedError,
  LuaToolsTimeoutError,
  LuauFormatError,
  LuauParserCrashError,
  LuauSyntaxError,
} from './lua-tools.errors.ts';
import type { LuaToolsService } from './lua-tools.service.ts';

/** "Lua syntax error: 3:5: unexpected token ..." (spec section 8), with every diagnostic as an issue. */
export function syntaxError(diagnostics: LuaDiagnostic[]): AppError {
  const first = diagnostics[0];
  const where = first ? `${first.line}:${first.column}: ` : '';
  return new AppError(400, `${ERRORS.luaSyntaxPrefix}${where}${first?.message ?? 'the code does not parse'}`, {
    issues: diagnostics.map((d) => ({ path: `${d.line}:${d.column}`, message: d.message })),
  });
}

/**
 * The checker's failures as answers: a full queue or a stopping server is 503 (try again); code
 * the parser cannot handle (nested too deeply, too slow to check) is 422, about the code, never a 500.
 */
function toAppError(error: unknown): unknown {
  if (error instanceof LuauSyntaxError) return syntaxError(error.diagnostics);
  if (error instanceof LuaToolsBusyError || error instanceof LuaToolsStoppedError) {
    return new AppError(503, 'The syntax checker is busy. Please try again in a moment.', {
      headers: { 'Retry-After': '1' },
    });
  }
  if (error instanceof LuaToolsTimeoutError) return new AppError(422, 'The code took too long to check.');
  if (error instanceof LuauParserCrashError) {
    return new AppError(422, 'The code could not be checked: it is nested too deeply for the Luau parser.');
  }
  if (error instanceof LuauFormatError) return new AppError(422, 'The code could not be formatted safely.');
  return error;
}

/** The checker as the routes and the execution service use it: failures already shaped for HTTP. */
export function luaToolsForHttp(service: LuaToolsService) {
  async function check(code: string): Promise<LuaCheckResponse> {
    try {
      return await service.check(code);
    } catch (error) {
      throw toAppError(error);
    }
  }
  return {
    check,
    /** Code that does not parse is refused before it runs anywhere: 400 "Lua syntax error: ...". */
    async assertValidSyntax(code: string): Promise<void> {
      const { ok, diagnostics } = await check(code);
      if (!ok) throw syntaxError(diagnostics);
    },
    async format(code: string): Promise<{ code: string }> {
      try {
        // Formatting costs several times a check; a large script gets more time.
        return await service.format(code, { deadlineMs: 15_000 });
      } catch (error) {
        throw toAppError(error);
      }
    },
  };
}

export type HttpLuaTools = ReturnType<typeof luaToolsForHttp>;
