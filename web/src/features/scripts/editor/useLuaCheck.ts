import { useCallback, useEffect, useRef, useState } from 'react';
import type { LuaDiagnostic } from '@moonrelay/contract/executions';
import { ApiError } from '../../../lib/api-client.ts';
import { useCheckLua } from '../api/scripts.ts';

/** How long typing must pause before the code is checked. */
export const CHECK_DEBOUNCE_MS = 300;
/** A busy checker (503, Retry-After: 1) is asked again this often, this many times, while the code stays. */
const BUSY_RETRY_MS = 1000;
const BUSY_RETRIES = 2;

export const CHECK_UNAVAILABLE = 'Syntax check unavailable';

/** The answer for one version of the code. */
export type LuaCheck =
  | { status: 'checked'; code: string; diagnostics: LuaDiagnostic[] }
  /** 422 (the parser cannot handle the code), 503 (busy) or any other failure: a note, never a toast. */
  | { status: 'unavailable'; code: string; message: string };

const NO_DIAGNOSTICS: LuaDiagnostic[] = [];

function unavailableMessage(error: unknown): string {
  const reason = error instanceof ApiError ? error.serverMessage : undefined;
  return reason ? `${CHECK_UNAVAILABLE}: ${reason}` : `${CHECK_UNAVAILABLE}.`;
}

/**
 * Checks the code with POST /api/lua/check once typing pauses for CHECK_DEBOUNCE_MS. Blank code is
 * not checked. Only the latest code's answer is taken: a change cancels the pending check and
 * every answer to an earlier version is dropped, whatever order the answers arrive in. Until the
 * new answer comes, the previous one stays on screen (no flicker while typing).
 */
export function useLuaCheck(code: string) {
  const { mutateAsync: check } = useCheckLua();
  const [latest, setLatest] = useState<LuaCheck | null>(null);
  const latestRef = useRef(latest);
  latestRef.current = latest;

  useEffect(() => {
    if (!code.trim()) return;
    let current = true;
    let retries = 0;
    const run = () => {
      check(code).then(
        (result) => {
          if (current) setLatest({ status: 'checked', code, diagnostics: result.diagnostics });
        },
        (error: unknown) => {
          if (!current) return;
          setLatest({ status: 'unavailable', code, message: unavailableMessage(error) });
          if (error instanceof ApiError && error.status === 503 && retries < BUSY_RETRIES) {
            retries += 1;
            timer = setTimeout(run, BUSY_RETRY_MS);
          }
        },
      );
    };
    let timer = setTimeout(run, CHECK_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [code, check]);

  /**
   * How many syntax errors `code` has: the latest answer when it is about exactly this code,
   * otherwise a check of its own. null when that cannot be known (blank code is never checked).
   */
  const countErrors = useCallback(
    async (of: string): Promise<number | null> => {
      if (!of.trim()) return null;
      const known = latestRef.current;
      if (known?.code === of) return known.status === 'checked' ? known.diagnostics.length : null;
      try {
        return (await check(of)).diagnostics.length;
      } catch {
        // The checker is busy or cannot read the code: the caller just does not warn.
        return null;
      }
    },
    [check],
  );

  const blank = !code.trim();
  const result = blank ? null : latest;
  return {
    /** The latest answer (possibly for an earlier version of the code, until the new one comes). */
    result,
    /** The diagnostics on screen. */
    diagnostics: result?.status === 'checked' ? result.diagnostics : NO_DIAGNOSTICS,
    /** The code on screen has not been checked yet. */
    pending: !blank && result?.code !== code,
    countErrors,
  };
}
