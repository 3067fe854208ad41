import { diffLines } from 'diff';

/** One line of one side: its number in that version, and its text. */
export interface DiffCell {
  number: number;
  text: string;
}

/** A row of the side-by-side view: the older version's line on the left, the newer one's on the right. */
export interface DiffRow {
  kind: 'same' | 'changed' | 'removed' | 'added';
  left: DiffCell | null;
  right: DiffCell | null;
}

export type SideBySide = { rows: DiffRow[]; added: number; removed: number } | { tooLarge: true };

/**
 * Past this many changed lines (or this long) the two versions are said to differ too much, not
 * shown line by line: the diff's cost grows with the square of the edit's size, the page must not
 * freeze, and thousands of red and green rows help nobody.
 */
export const DIFF_MAX_EDIT_LINES = 2_000;
const DIFF_TIMEOUT_MS = 300;

const linesOf = (value: string) => {
  const lines = value.split('\n');
  // diffLines keeps each line's newline: the last piece ends with one or is the final line.
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

/**
 * Lines diffed by jsdiff (Myers' algorithm), laid out side by side: a run of removed lines followed
 * by a run of added ones is paired row by row as a change, the longer run's rest shown against a
 * blank; unchanged lines sit on both sides.
 */
export function sideBySide(older: string, newer: string): SideBySide {
  const changes = diffLines(older, newer, {
    maxEditLength: DIFF_MAX_EDIT_LINES,
    timeout: DIFF_TIMEOUT_MS,
    // A last line that gained a newline (a line added after it) is not a changed line.
    ignoreNewlineAtEof: true,
  });
  if (!changes) return { tooLarge: true };
  const rows: DiffRow[] = [];
  let left = 1;
  let right = 1;
  let added = 0;
  let removed = 0;
  for (let index = 0; index < changes.length; index++) {
    const change = changes[index]!;
    const lines = linesOf(change.value);
    if (!change.added && !change.removed) {
      for (const text of lines)
        rows.push({ kind: 'same', left: { number: left++, text }, right: { number: right++, text } });
      continue;
    }
    if (change.removed) {
      const next = changes[index + 1];
      const replacement = next?.added ? linesOf(next.value) : [];
      if (next?.added) index++;
      removed += lines.length;
      added += replacement.length;
      for (let line = 0; line < Math.max(lines.length, replacement.length); line++) {
        const gone = lines[line];
        const come = replacement[line];
        rows.push({
          kind: gone !== undefined && come !== undefined ? 'changed' : gone !== undefined ? 'removed' : 'added',
          left: gone !== undefined ? { number: left++, text: gone } : null,
          right: come !== undefined ? { number: right++, text: come } : null,
        });
      }
      continue;
    }
    added += lines.length;
    for (const text of lines) rows.push({ kind: 'added', left: null, right: { number: right++, text } });
  }
  return { rows, added, removed };
}

/** Unchanged lines left out of the view: how many, where. */
export interface FoldRow {
  kind: 'fold';
  count: number;
}

/** Lines kept on each side of a change so it can be read in place. */
export const DIFF_CONTEXT_LINES = 3;

/**
 * Leaves out long stretches of unchanged lines, keeping `context` lines around each change, as a
 * reviewer reads a diff: a one-line change in a 20,000-line script shows a handful of rows.
 */
export function foldUnchanged(rows: DiffRow[], context = DIFF_CONTEXT_LINES): (DiffRow | FoldRow)[] {
  const near = new Array<boolean>(rows.length).fill(false);
  rows.forEach((row, index) => {
    if (row.kind === 'same') return;
    for (let at = Math.max(0, index - context); at <= Math.min(rows.length - 1, index + context); at++) near[at] = true;
  });
  const shown: (DiffRow | FoldRow)[] = [];
  let folded = 0;
  rows.forEach((row, index) => {
    if (near[index]) {
      if (folded) shown.push({ kind: 'fold', count: folded });
      folded = 0;
      shown.push(row);
    } else folded++;
  });
  if (folded) shown.push({ kind: 'fold', count: folded });
  return shown;
}
