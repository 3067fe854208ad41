import { describe, expect, it } from 'vitest';
import { checkLuau, type Diagnostic } from './luau-syntax.ts';

const at = (line: number, column: number, endLine: number, endColumn: number, message: string): Diagnostic => ({
  line,
  column,
  endLine,
  endColumn,
  message,
});

describe('checkLuau: Luau syntax', () => {
  it.each([
    ['type annotations', 'local count: number = 0\nlocal function add(a: number, b: number): number return a + b end'],
    ['optional and union types', 'local name: string? = nil\nlocal value: number | string = 1'],
    ['generics', 'local function first<T>(items: { T }): T? return items[1] end\ntype Map<K, V> = { [K]: V }'],
    ['export type', 'export type Point = { x: number, y: number }\nexport type Callback<T...> = (T...) -> ()'],
    ['continue', 'for i = 1, 10 do\n  if i % 2 == 0 then continue end\n  print(i)\nend'],
    [
      'compound assignment',
      'local x = 1\nx += 2\nx -= 1\nx *= 3\nx /= 2\nx //= 1\nx %= 5\nx ^= 2\nlocal s = "a"\ns ..= "b"',
    ],
    [
      'backtick interpolated strings',
      'local name = "Ada"\nprint(`hello {name}, {1 + 2} {`nested {name}`}`)\nprint(`plain`)',
    ],
    ['if-then-else expressions', 'local n = 3\nlocal kind = if n > 2 then "big" elseif n > 1 then "mid" else "small"'],
    ['`::` casts', 'local part = workspace:FindFirstChild("Part") :: BasePart\nlocal n = (value :: any) :: number'],
    ['typeof and function types', 'type Fn = (number, string) -> boolean\ntype T = typeof(setmetatable({}, {}))'],
    ['attributes and const', '@native\nlocal function hot(x: number) return x * 2 end\nconst LIMIT = 10'],
    ['an empty script', ''],
    ['a trailing comment', 'local x = 1 -- trailing comment'],
    ['a byte-order mark', '\uFEFFlocal x = 1'],
  ])('accepts %s', (_name, code) => {
    expect(checkLuau(code)).toEqual({ ok: true, diagnostics: [] });
  });
});

describe('checkLuau: diagnostics in Luau’s words', () => {
  it('points at the offending token', () => {
    expect(checkLuau('local x: = 5')).toEqual({
      ok: false,
      diagnostics: [at(1, 9, 1, 11, "Expected type, got '='")],
    });
    expect(checkLuau('print(1').diagnostics).toEqual([
      at(1, 8, 1, 8, "Expected ')' (to close '(' at column 6), got <eof>"),
    ]);
  });

  it('names what a missing end should close', () => {
    expect(checkLuau('if ready then\n  go()\nelse').diagnostics).toEqual([
      at(3, 5, 3, 5, "Expected 'end' (to close 'else' at column 1), got <eof>"),
    ]);
    expect(checkLuau('it(function()\n  doCleanup()\n  -- done\n)').diagnostics[0]).toEqual(
      at(4, 1, 4, 2, "Expected identifier when parsing expression, got ')'"),
    );
  });

  it('reports several errors, as Luau recovers from them', () => {
    expect(checkLuau('local a = 1\nlocal x = = 1\nlocal y: = 2').diagnostics).toEqual([
      at(2, 11, 2, 12, "Expected identifier when parsing expression, got '='"),
      at(3, 9, 3, 11, "Expected type, got '='"),
    ]);
  });

  it('reports broken strings, comments, numbers and characters', () => {
    expect(checkLuau('local s = "abc\nprint(s)').diagnostics).toEqual([
      at(1, 11, 1, 15, 'Malformed string; did you forget to finish it?'),
    ]);
    expect(checkLuau('--[[ never closed').diagnostics).toEqual([
      at(1, 1, 1, 18, 'Expected identifier when parsing expression, got unfinished comment'),
    ]);
    expect(checkLuau('local x = 0x').diagnostics).toEqual([at(1, 11, 1, 13, 'Malformed number')]);
    expect(checkLuau('local x = 1 $ 2').diagnostics[0]).toEqual(
      at(1, 13, 1, 14, "Expected identifier when parsing expression, got '$'"),
    );
    expect(checkLuau('local x = 1\0').diagnostics[0]!.message).toBe(
      "Expected identifier when parsing expression, got '\\0'",
    );
  });

  it('counts columns in UTF-16 code units, as the editor does', () => {
    expect(checkLuau('local s = "😀" local x = = 1').diagnostics[0]).toMatchObject({ line: 1, column: 26 });
    expect(checkLuau('local s = [[😀\n😀😀]] local x = = 1').diagnostics[0]).toMatchObject({ line: 2, column: 18 });
    expect(checkLuau('\uFEFFlocal x = = 1').diagnostics[0]).toMatchObject({ line: 1, column: 12 });
  });

  it('keeps at most 100 diagnostics', () => {
    expect(checkLuau('local x = = 1 x\n'.repeat(300)).diagnostics).toHaveLength(100);
  });

  it('refuses nesting deeper than Luau allows, without overflowing the stack', () => {
    expect(checkLuau(`local t = ${'{'.repeat(100_000)}${'}'.repeat(100_000)}`).diagnostics).toEqual([
      expect.objectContaining({
        message: 'Exceeded allowed recursion depth; simplify your expression to make the code compile',
      }),
    ]);
  });
});
