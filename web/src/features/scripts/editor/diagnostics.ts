import type { LuaDiagnostic } from '@moonrelay/contract/executions';

/**
 * Luau diagnostics (1-based lines and columns in UTF-16 units, end exclusive, from POST
 * /api/lua/check) as Ace shows them: gutter annotations and underline markers (0-based rows and
 * columns, the same UTF-16 units, so only the base changes).
 */

export interface AceAnnotation {
  row: number;
  column: number;
  text: string;
  type: 'error';
}

export interface DiagnosticMarker {
  startRow: number;
  startCol: number;
  endRow: number;
  endCol: number;
  className: string;
}

/** The class of the underline markers (styled by DIAGNOSTIC_CSS). */
export const DIAGNOSTIC_MARKER_CLASS = 'luau-diagnostic';

export function diagnosticAnnotations(diagnostics: readonly LuaDiagnostic[]): AceAnnotation[] {
  return diagnostics.map((diagnostic) => ({
    row: Math.max(0, diagnostic.line - 1),
    column: Math.max(0, diagnostic.column - 1),
    text: diagnostic.message,
    type: 'error',
  }));
}

/**
 * One marker per diagnostic. Ace draws nothing for an empty range, and some errors are a point
 * (`got <eof>` after the last character): a point covers the character after it,
 * or at the end of its line the character before it. `lineLength` gives the length of a row of the
 * document the markers go on; a row past its end has length 0.
 */
export function diagnosticMarkers(
  diagnostics: readonly LuaDiagnostic[],
  lineLength: (row: number) => number,
): DiagnosticMarker[] {
  return diagnostics.map((diagnostic) => {
    const startRow = Math.max(0, diagnostic.line - 1);
    let startCol = Math.max(0, diagnostic.column - 1);
    let endRow = Math.max(startRow, diagnostic.endLine - 1);
    let endCol = Math.max(0, diagnostic.endColumn - 1);
    if (endRow === startRow && endCol <= startCol) {
      endRow = startRow;
      const length = lineLength(startRow);
      if (startCol < length) endCol = startCol + 1;
      else if (length > 0) {
        startCol = length - 1;
        endCol = length;
      } else endCol = startCol;
    }
    return { startRow, startCol, endRow, endCol, className: DIAGNOSTIC_MARKER_CLASS };
  });
}

/** "No syntax errors", or "2 syntax errors — line 3: Expected identifier …" (the first one). */
export function diagnosticsSummary(diagnostics: readonly LuaDiagnostic[]): string {
  const [first] = diagnostics;
  if (!first) return 'No syntax errors';
  const count = diagnostics.length === 1 ? '1 syntax error' : `${diagnostics.length} syntax errors`;
  return `${count} — line ${first.line}: ${first.message}`;
}

/** "The script has 2 syntax errors; it will not run until they are fixed." */
export function savedWithErrorsText(count: number): string {
  return count === 1
    ? 'The script has 1 syntax error; it will not run until it is fixed.'
    : `The script has ${count} syntax errors; it will not run until they are fixed.`;
}

// A red wavy line along the bottom of the marker (an SVG data URL: the CSP allows data: images).
const WAVE =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='6' height='3' viewBox='0 0 6 3'%3E" +
  "%3Cpath d='M0 2.5 1.5 0.5 3 2.5 4.5 0.5 6 2.5' fill='none' stroke='%23ff5c5c' stroke-width='0.9'/%3E%3C/svg%3E";

/** Injected once through Ace's importCssString (a <style> element; the CSP allows inline styles). */
export const DIAGNOSTIC_CSS = `
.ace_marker-layer .${DIAGNOSTIC_MARKER_CLASS} {
  position: absolute;
  background-image: url("${WAVE}");
  background-repeat: repeat-x;
  background-position: left bottom;
  background-size: 6px 3px;
}
`;
