import type { ConsoleLine } from '@moonrelay/contract/console';

/**
 * Where in a Moonrelay-run script an error happened. The integration script loads the code it runs
 * under a chunk name: a saved script auto-executed on join runs as "=<its name>" (or its id when
 * nameless), code sent from the dashboard as "=Moonrelay". Roblox then names that chunk in the
 * error and its stack trace, in either of its formats:
 *   "Speed Boost:12: attempt to index nil with 'Humanoid'"      (the message)
 *   "Speed Boost:12 function boost" / "Speed Boost, line 12"     (traceback lines)
 *   "Script 'Speed Boost', Line 12"                              (the older stack format)
 */
export interface ScriptPlace {
  /** The chunk name as the stack gives it. */
  chunk: string;
  line: number;
}

/** The chunk name of code sent from the dashboard: its run (executionId) says which code it was. */
export const DASHBOARD_CHUNK = 'Moonrelay';

const PATTERNS = [/^Script '(.+?)', Line (\d+)/, /^(.+?), line (\d+)/, /^(.+?):(\d+)(?::|\s|$)/];

function placeIn(text: string): ScriptPlace | null {
  for (const pattern of PATTERNS) {
    const match = pattern.exec(text.trim());
    if (match) return { chunk: match[1]!, line: Number(match[2]) };
  }
  return null;
}

/** Every place the error names, the innermost first: its message, then its stack from the top. */
export function scriptPlaces(line: Pick<ConsoleLine, 'text' | 'stack'>): ScriptPlace[] {
  const candidates = [line.text, ...(line.stack ?? '').split('\n')];
  return candidates.map(placeIn).filter((place): place is ScriptPlace => place !== null && place.line > 0);
}

export interface ScriptRef {
  id: string;
  name: string;
}

/** The chunk name the integration script gives a saved script: control characters as spaces, 100 at most. */
const chunkNameOf = (script: ScriptRef) => script.name.replace(/\p{Cc}/gu, ' ').slice(0, 100);

/**
 * The first place the error names in one of the user's saved scripts (matched by the name or id
 * the chunk carries), or null: errors in the game's own scripts have nothing to open.
 */
export function savedScriptPlace(
  line: Pick<ConsoleLine, 'text' | 'stack'>,
  scripts: readonly ScriptRef[],
): { script: ScriptRef; line: number } | null {
  for (const place of scriptPlaces(line)) {
    if (place.chunk === DASHBOARD_CHUNK) continue;
    const script = scripts.find((candidate) => chunkNameOf(candidate) === place.chunk || candidate.id === place.chunk);
    if (script) return { script, line: place.line };
  }
  return null;
}
