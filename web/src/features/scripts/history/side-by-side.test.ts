import { describe, expect, it } from 'vitest';
import { DIFF_MAX_EDIT_LINES, foldUnchanged, sideBySide } from './side-by-side.ts';

const rowsOf = (older: string, newer: string) => {
  const result = sideBySide(older, newer);
  if ('tooLarge' in result) throw new Error('too large');
  return result;
};

describe('sideBySide', () => {
  it('keeps unchanged lines on both sides with their own numbers', () => {
    const { rows, added, removed } = rowsOf('a\nb\n', 'a\nb\n');
    expect(rows).toEqual([
      { kind: 'same', left: { number: 1, text: 'a' }, right: { number: 1, text: 'a' } },
      { kind: 'same', left: { number: 2, text: 'b' }, right: { number: 2, text: 'b' } },
    ]);
    expect([added, removed]).toEqual([0, 0]);
  });

  it('pairs a replaced line, and numbers each side on from there', () => {
    const { rows } = rowsOf('local a = 1\nprint(a)\nreturn', 'local a = 2\nprint(a)\nreturn');
    expect(rows.map((row) => [row.kind, row.left?.number, row.left?.text, row.right?.number, row.right?.text])).toEqual(
      [
        ['changed', 1, 'local a = 1', 1, 'local a = 2'],
        ['same', 2, 'print(a)', 2, 'print(a)'],
        ['same', 3, 'return', 3, 'return'],
      ],
    );
  });

  it('shows lines only one side has against a blank, and counts them', () => {
    const { rows, added, removed } = rowsOf('one\ntwo\nthree\n', 'one\nthree\nfour\nfive\n');
    expect(rows.map((row) => [row.kind, row.left?.text ?? null, row.right?.text ?? null])).toEqual([
      ['same', 'one', 'one'],
      ['removed', 'two', null],
      ['same', 'three', 'three'],
      ['added', null, 'four'],
      ['added', null, 'five'],
    ]);
    expect(rows.at(-1)?.right?.number).toBe(4);
    expect([added, removed]).toEqual([2, 1]);
  });

  it('pairs unequal runs: two lines replaced by three', () => {
    const { rows } = rowsOf('x\na\nb\ny', 'x\nc\nd\ne\ny');
    expect(rows.map((row) => row.kind)).toEqual(['same', 'changed', 'changed', 'added', 'same']);
    expect(rows[3]).toEqual({ kind: 'added', left: null, right: { number: 4, text: 'e' } });
    expect(rows[4]).toMatchObject({ left: { number: 4 }, right: { number: 5 } });
  });

  it('says the versions differ too much to lay out instead of working through a huge edit', () => {
    const older = Array.from({ length: DIFF_MAX_EDIT_LINES + 10 }, (_, line) => `print(${line})`).join('\n');
    const newer = Array.from({ length: DIFF_MAX_EDIT_LINES + 10 }, (_, line) => `warn(${line})`).join('\n');
    expect(sideBySide(older, newer)).toEqual({ tooLarge: true });
  });
});

describe('foldUnchanged', () => {
  const lines = (count: number, change: number) =>
    Array.from({ length: count }, (_, line) => (line === change ? 'changed' : `line ${line}`)).join('\n');

  it('keeps three lines around a change and folds the rest, counted', () => {
    const { rows } = rowsOf(lines(100, -1), lines(100, 50));
    const shown = foldUnchanged(rows);
    expect(shown.map((row) => (row.kind === 'fold' ? `fold ${row.count}` : row.kind))).toEqual([
      'fold 47',
      'same',
      'same',
      'same',
      'changed',
      'same',
      'same',
      'same',
      'fold 46',
    ]);
  });

  it('folds nothing when the change is near both ends, and everything when nothing changed', () => {
    const { rows } = rowsOf('a\nb\nc', 'a\nB\nc');
    expect(foldUnchanged(rows).every((row) => row.kind !== 'fold')).toBe(true);
    const same = rowsOf(lines(10, -1), lines(10, -1));
    expect(foldUnchanged(same.rows)).toEqual([{ kind: 'fold', count: 10 }]);
  });
});

describe('sideBySide at the end of the code', () => {
  it('a line added after a last line without a newline leaves that line unchanged', () => {
    const { rows, added, removed } = rowsOf('a\nb', 'a\nb\nc');
    expect(rows.map((row) => row.kind)).toEqual(['same', 'same', 'added']);
    expect([added, removed]).toEqual([1, 0]);
  });
});
