import { describe, expect, it } from 'vitest';
import type { LuaDiagnostic } from '@moonrelay/contract/executions';
import {
  DIAGNOSTIC_CSS,
  diagnosticAnnotations,
  diagnosticMarkers,
  diagnosticsSummary,
  savedWithErrorsText,
} from './diagnostics.ts';

const at = (line: number, column: number, endLine: number, endColumn: number, message = 'oops'): LuaDiagnostic => ({
  line,
  column,
  endLine,
  endColumn,
  message,
});

/** Line lengths of a document, as the editor gives them (0 past the end). */
const linesOf = (code: string) => {
  const lines = code.split('\n');
  return (row: number) => lines[row]?.length ?? 0;
};

describe('diagnosticAnnotations', () => {
  it("turns 1-based lines and columns into Ace's 0-based rows and columns, type error, text = message", () => {
    expect(
      diagnosticAnnotations([
        at(1, 9, 1, 10, "Expected identifier when parsing expression, got '='"),
        at(3, 1, 3, 2, 'Incomplete statement: expected assignment or a function call'),
      ]),
    ).toEqual([
      { row: 0, column: 8, type: 'error', text: "Expected identifier when parsing expression, got '='" },
      { row: 2, column: 0, type: 'error', text: 'Incomplete statement: expected assignment or a function call' },
    ]);
  });

  it('has nothing to annotate without diagnostics', () => {
    expect(diagnosticAnnotations([])).toEqual([]);
  });
});

describe('diagnosticMarkers', () => {
  it('underlines the range, end exclusive, with the luau-diagnostic class', () => {
    // `local x = = 1`: the second `=` (1:9 to 1:10) is characters 8..9 of row 0.
    expect(diagnosticMarkers([at(1, 9, 1, 10)], linesOf('local x = = 1'))).toEqual([
      { startRow: 0, startCol: 8, endRow: 0, endCol: 9, className: 'luau-diagnostic' },
    ]);
  });

  it('keeps ranges over several lines', () => {
    expect(diagnosticMarkers([at(1, 11, 2, 1)], linesOf('local s = "abc\nprint(s)'))).toEqual([
      { startRow: 0, startCol: 10, endRow: 1, endCol: 0, className: 'luau-diagnostic' },
    ]);
  });

  it('widens a point inside a line to the character after it', () => {
    expect(diagnosticMarkers([at(1, 3, 1, 3)], linesOf('print(1'))).toEqual([
      { startRow: 0, startCol: 2, endRow: 0, endCol: 3, className: 'luau-diagnostic' },
    ]);
  });

  it('widens a point at the end of a line (got <eof>) to the character before it', () => {
    // `if x then` is 9 characters; the error is at 2:10, just after them.
    expect(diagnosticMarkers([at(2, 10, 2, 10)], linesOf('local x = 1\nif x then'))).toEqual([
      { startRow: 1, startCol: 8, endRow: 1, endCol: 9, className: 'luau-diagnostic' },
    ]);
  });

  it('leaves a point on an empty line as it is (the gutter annotation still shows it)', () => {
    expect(diagnosticMarkers([at(2, 1, 2, 1)], linesOf('if x then\n'))).toEqual([
      { startRow: 1, startCol: 0, endRow: 1, endCol: 0, className: 'luau-diagnostic' },
    ]);
  });

  it('counts columns in UTF-16 units, as Ace does', () => {
    // The emoji is two UTF-16 units: the `=` after it is at column 19 (1-based), as the server says.
    const code = 'local s = "é😀" x = = 1';
    const [marker] = diagnosticMarkers([at(1, 21, 1, 22)], linesOf(code));
    expect(code.slice(marker!.startCol, marker!.endCol)).toBe('=');
  });
});

describe('diagnosticsSummary', () => {
  it("says 'No syntax errors' without diagnostics", () => {
    expect(diagnosticsSummary([])).toBe('No syntax errors');
  });

  it('counts the errors and names the first one with its line', () => {
    expect(diagnosticsSummary([at(3, 5, 3, 6, "Expected identifier when parsing expression, got ')'")])).toBe(
      "1 syntax error — line 3: Expected identifier when parsing expression, got ')'",
    );
    expect(
      diagnosticsSummary([
        at(3, 5, 3, 6, "Expected identifier when parsing expression, got ')'"),
        at(7, 1, 7, 2, 'later'),
      ]),
    ).toBe("2 syntax errors — line 3: Expected identifier when parsing expression, got ')'");
  });
});

describe('savedWithErrorsText', () => {
  it('says how many errors the saved script has', () => {
    expect(savedWithErrorsText(1)).toBe('The script has 1 syntax error; it will not run until it is fixed.');
    expect(savedWithErrorsText(3)).toBe('The script has 3 syntax errors; it will not run until they are fixed.');
  });
});

describe('DIAGNOSTIC_CSS', () => {
  it('draws the underline with an image the CSP allows (a data: URL), no remote resource', () => {
    expect(DIAGNOSTIC_CSS).toContain('.luau-diagnostic');
    expect(DIAGNOSTIC_CSS).toContain('url("data:image/svg+xml,');
    expect(DIAGNOSTIC_CSS).not.toMatch(/url\("?https?:/);
  });
});
