import { describe, expect, it } from 'vitest';
import { LuauFormatError, LuauSyntaxError } from './lua-tools.errors.ts';
import { formatLuau } from './luau-format.ts';

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
    // The same words as the syntax check: Luau's.
    expect((thrown as LuauSyntaxError).diagnostics).toEqual([
      {
        line: 1,
        column: 11,
        endLine: 1,
        endColumn: 12,
        message: "Expected identifier when parsing expression, got '='",
      },
    ]);
    expect((thrown as LuauSyntaxError).message).toBe(
      "Luau syntax error at 1:11: Expected identifier when parsing expression, got '='",
    );
  });

  it('keeps a byte-order mark out of the formatted code', () => {
    expect(formatLuau('\uFEFFlocal   x=1').code).toBe('local x = 1\n');
  });

  it('says formatting is unavailable, not that the code is wrong, for syntax StyLua does not know', () => {
    // Valid Luau that StyLua 2.5 cannot parse: an attribute list.
    expect(() => formatLuau('@[deprecated] function f() end')).toThrow(LuauFormatError);
  });
});
