import { Config, formatCode, LuaVersion, OutputVerification } from '@johnnymorganz/stylua';
import { describe, expect, it } from 'vitest';
import { LuauSyntaxError } from './lua-tools.errors.ts';
import { checkLuau, formatLuau, parseStyluaErrors, type Diagnostic } from './luau-syntax.ts';

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
  ])('accepts %s', (_name, code) => {
    expect(checkLuau(code)).toEqual({ ok: true, diagnostics: [] });
  });

  it('relies on the exact text StyLua gives a lone `)` after a complete script (the fast path)', () => {
    const config = Config.new();
    config.syntax = LuaVersion.Luau;
    let thrown: unknown;
    try {
      formatCode('local x = 1\nreturn x\n)', config, undefined, OutputVerification.None);
    } catch (error) {
      thrown = error;
    }
    // If a StyLua upgrade changes this text, checks stay correct but lose their fast path.
    expect(thrown).toBe(
      'error parsing: unexpected token `)` (3:1 to 3:2), unexpected token, this needs to be a statement',
    );
  });

  it('does not let its `)` sentinel line close what the script left open', () => {
    expect(checkLuau('print(1').diagnostics).toEqual([
      at(1, 6, 1, 7, 'unexpected token `(`, expected `)` to close function call'),
    ]);
    expect(checkLuau('local t = (1 +\n  2').ok).toBe(false);
    expect(checkLuau('f(function() end').ok).toBe(false);
    expect(checkLuau('local s = "abc\\').ok).toBe(false);
    expect(checkLuau('local x = 1 -- trailing comment').ok).toBe(true);
    expect(checkLuau('return x :: any').ok).toBe(true);
  });

  it('accepts an empty script and a shebang line', () => {
    expect(checkLuau('').ok).toBe(true);
    expect(checkLuau('#!/usr/bin/env luau\nprint(1)').ok).toBe(true);
  });
});

describe('checkLuau: diagnostics from StyLua errors', () => {
  it('one error: "error parsing: unexpected token `:` (1:8 to 1:9), expected type info after `:`"', () => {
    expect(checkLuau('local x: = 5')).toEqual({
      ok: false,
      diagnostics: [at(1, 8, 1, 9, 'unexpected token `:`, expected type info after `:`')],
    });
  });

  it('several errors, as " - " items, in the order StyLua found them', () => {
    expect(checkLuau('local a = 1\nlocal x = = 1').diagnostics).toEqual([
      at(2, 9, 2, 10, 'unexpected token `=`, expected an expression'),
      at(2, 11, 2, 12, 'unexpected token `=`, unexpected token, this needs to be a statement'),
    ]);
  });

  it('tokenizer errors: unclosed string, unclosed comment, invalid number, unexpected character', () => {
    expect(checkLuau('local s = "abc\nprint(s)').diagnostics).toEqual([at(1, 11, 2, 1, 'unclosed string')]);
    expect(checkLuau('--[[ never closed').diagnostics).toEqual([at(1, 1, 1, 18, 'unclosed comment')]);
    expect(checkLuau('local x = 0x').diagnostics).toEqual([at(1, 11, 1, 13, 'invalid number')]);
    expect(checkLuau('local x = 1 $ 2').diagnostics[0]).toEqual(at(1, 13, 1, 14, 'unexpected character $'));
  });

  it('shows invisible characters as code points', () => {
    expect(checkLuau('local x = 1\0').diagnostics).toEqual([at(1, 12, 1, 13, 'unexpected character U+0000')]);
  });

  it('says "end of script" for the empty end-of-file token', () => {
    expect(checkLuau('if ready then\n  go()\nelse').diagnostics).toEqual([
      at(3, 5, 3, 5, 'unexpected end of script, expected `end` to conclude `if`'),
    ]);
  });

  it('points "expected `end`" errors at the offending token, not the statement before it', () => {
    // StyLua says "unexpected token `)` (2:3 to 2:12)", the range of `doCleanup()`.
    expect(checkLuau('it(function()\n  doCleanup()\n  -- done\n)').diagnostics).toEqual([
      at(4, 1, 4, 2, 'unexpected token `)`, expected `end` to close function body block'),
    ]);
    // ... and "unexpected token `` (2:3 to 2:10)" when the file ends instead.
    expect(checkLuau('function f()\n  print(1)\n').diagnostics).toEqual([
      at(3, 1, 3, 1, 'unexpected end of script, expected `end` to close function body block'),
    ]);
  });

  it('parses tokens that hold backticks, newlines or the item separator', () => {
    const diagnostics = checkLuau('local x = 1 [[a\n - b]] = 2').diagnostics;
    expect(diagnostics).toEqual([
      at(1, 13, 2, 7, 'unexpected token `[[a - b]]`, unexpected token, this needs to be a statement'),
    ]);
    expect(checkLuau('local s = `a {b c`\n').diagnostics).toContainEqual(
      at(1, 18, 1, 19, 'unexpected token ````, unexpected expression when looking for a statement'),
    );
  });

  it('counts columns in UTF-16 code units (StyLua counts code points)', () => {
    // 😀 is one code point but two UTF-16 units: StyLua says 1:23, the editor's column is 24.
    expect(checkLuau('local s = "😀" local x = = 1').diagnostics[0]).toMatchObject({ line: 1, column: 24 });
    expect(checkLuau('local s = [[😀\n😀😀]] local x = = 1').diagnostics[0]).toMatchObject({ line: 2, column: 16 });
  });

  it('ignores a byte-order mark but keeps columns on the original text', () => {
    expect(checkLuau('\uFEFFlocal x = 1').ok).toBe(true);
    expect(checkLuau('\uFEFFlocal x = = 1').diagnostics[0]).toMatchObject({ line: 1, column: 10 });
  });

  it('drops exact duplicates and keeps at most 100 diagnostics', () => {
    expect(checkLuau('local x = = 1\n'.repeat(300)).diagnostics).toHaveLength(100);
    const text = 'error parsing: \n - unclosed string (1:1 to 1:3)\n - unclosed string (1:1 to 1:3)';
    expect(parseStyluaErrors(text, '"a')).toEqual([at(1, 1, 1, 3, 'unclosed string')]);
  });

  it('puts a message without a position at 1:1 and says so', () => {
    expect(parseStyluaErrors('error parsing: something went wrong', 'x')).toEqual([
      at(1, 1, 1, 1, 'something went wrong (no position given by the parser)'),
    ]);
  });

  it('drops stylua.toml hints and fixes ranges that end before they start', () => {
    const code = 'local a = 1\nlocal b = 2\nthen';
    const text =
      'error parsing: unexpected token `then` (3:1 to 1:4), expected `end` to close function body block' +
      '\nhint: this looks like a conflict with Luau and Lua 5.2 label syntax, add `syntax = "Lua52"` to stylua.toml';
    expect(parseStyluaErrors(text, code)).toEqual([
      at(3, 1, 3, 5, 'unexpected token `then`, expected `end` to close function body block'),
    ]);
  });

  it('shortens long tokens in messages', () => {
    const long = `[[${'x'.repeat(100)}]]`;
    const [diagnostic] = checkLuau(`local x = 1 ${long}`).diagnostics;
    expect(diagnostic!.message).toBe(
      `unexpected token \`[[${'x'.repeat(38)}…\`, unexpected token, this needs to be a statement`,
    );
  });
});

describe('formatLuau', () => {
  const messy = [
    "local Players=game:GetService('Players')",
    'local function greet(player : Player,count:number?) : string',
    'if count==nil then count=1 end',
    'local parts={}',
    'for i=1,count do table.insert(parts,`hi {player.Name} #{i}`) end',
    'return table.concat(parts,", ")',
    'end',
    'Players.PlayerAdded:Connect(function(p) print(greet(p,2)) end)',
  ].join('\n');

  const formatted = [
    'local Players = game:GetService("Players")',
    'local function greet(player: Player, count: number?): string',
    '  if count == nil then',
    '    count = 1',
    '  end',
    '  local parts = {}',
    '  for i = 1, count do',
    '    table.insert(parts, `hi {player.Name} #{i}`)',
    '  end',
    '  return table.concat(parts, ", ")',
    'end',
    'Players.PlayerAdded:Connect(function(p)',
    '  print(greet(p, 2))',
    'end)',
    '',
  ].join('\n');

  it('formats with 2-space indents, spaced operators and double quotes', () => {
    expect(formatLuau(messy).code).toBe(formatted);
  });

  it('is idempotent', () => {
    expect(formatLuau(formatted).code).toBe(formatted);
  });

  it('wraps lines longer than 120 columns', () => {
    const call = `print(${Array.from({ length: 30 }, (_, i) => `value${i}`).join(', ')})`;
    const lines = formatLuau(call).code.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
  });

  it('refuses code that does not parse, with the diagnostics', () => {
    let thrown: unknown;
    try {
      formatLuau('local x = = 1');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LuauSyntaxError);
    expect((thrown as LuauSyntaxError).diagnostics[0]).toEqual(
      at(1, 9, 1, 10, 'unexpected token `=`, expected an expression'),
    );
    expect((thrown as LuauSyntaxError).message).toBe(
      'Luau syntax error at 1:9: unexpected token `=`, expected an expression',
    );
  });
});
