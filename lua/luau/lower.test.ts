import { LuaFactory, LuaReturn, type LuaWasm } from 'wasmoon';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileLuau } from './compile.ts';
import { describeEachCorpus } from './corpus-suites.test-support.ts';
import { LowerError, lowerLuau, luaNumber, luaString, RUNTIME_GLOBAL } from './lower.ts';
import { parseLuau } from './parser.ts';

/**
 * The lowering on its own: the Lua text it writes (lines kept, numbers as floats, no closures for
 * if-expressions), and that everything it writes for the corpus loads in Lua 5.4. What the lowered
 * code does when run is in sandbox/src/sandbox/luau-semantics-cases.ts.
 */

function lower(source: string): string {
  const parsed = parseLuau(source);
  expect(parsed.diagnostics).toEqual([]);
  return lowerLuau(parsed.chunk);
}

/** The lowered text's lines, without the helpers' prefix on line 1. */
function loweredLines(source: string): string[] {
  const [first = '', ...rest] = lower(source).split('\n');
  return [first.slice(first.indexOf(');') + 2), ...rest];
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

let lua: LuaWasm;
beforeAll(async () => {
  lua = await new LuaFactory().getLuaModule();
});

/** Compiles `code` in a bare Lua 5.4 state without running it: null, or Lua's syntax error. */
function luaLoadError(code: string): string | null {
  const wasm = lua.module as unknown as {
    _malloc(size: number): number;
    _free(pointer: number): void;
    lengthBytesUTF8(text: string): number;
    stringToUTF8(text: string, pointer: number, max: number): void;
  };
  const L = lua.luaL_newstate();
  const size = wasm.lengthBytesUTF8(code);
  const buffer = wasm._malloc(size + 1);
  try {
    wasm.stringToUTF8(code, buffer, size + 1);
    const status = lua.luaL_loadbufferx(L, buffer, size, '=script', 't');
    return status === LuaReturn.Ok ? null : String(lua.lua_tolstring(L, -1, null));
  } finally {
    wasm._free(buffer);
    lua.lua_close(L);
  }
}

describe('lowering Luau to Lua 5.4', () => {
  it('writes every number literal as a Lua float', () => {
    expect(luaNumber(2)).toBe('2.0');
    expect(luaNumber(0.1)).toBe('0.1');
    expect(luaNumber(1e21)).toBe('1e+21');
    expect(luaNumber(1e-7)).toBe('1e-7');
    expect(luaNumber(2 ** 53 + 1)).toBe('9007199254740992.0');
    expect(luaNumber(Infinity)).toBe('1e999');
    expect(squash(loweredLines('local a, b, c = 1, 0x10, 0b101')[0]!)).toBe('local a, b, c = 1.0 , 16.0 , 5.0 ;');
  });

  it('writes strings as one-line ASCII literals with their bytes intact', () => {
    expect(luaString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(luaString('line\nnext\0\xff')).toBe('"line\\010next\\000\\255"');
    expect(luaString('é')).toBe('"\\233"');
    // A multi-line long string stays on its line; the next statement is still on its own.
    const lines = loweredLines('local s = [[a\nb\nc]]\nlocal after = 1');
    expect(lines[0]).toContain('"a\\010b\\010c"');
    expect(lines[3]).toContain('local after');
  });

  it('keeps every construct on its source line', () => {
    const source = [
      'local t = {}', // 1
      'for i = 1, 3 do', // 2
      '  if i == 2 then continue end', // 3
      '  t[i] += i', // 4
      '  local s = `{i}-{t[i]}`', // 5
      '  local v = if i > 1', // 6
      '    then "big"', // 7
      '    else "small"', // 8
      '  t.x ..= v', // 9
      'end', // 10
      'type T = number', // 11
      'return t', // 12
    ].join('\n');
    const lines = loweredLines(source);
    expect(lines).toHaveLength(12);
    expect(lines[2]).toContain('goto');
    expect(lines[3]).toMatch(/t \[ i \] =/);
    expect(lines[4]).toContain('__luau_T(');
    expect(lines[6]).toContain('"big"');
    expect(lines[7]).toContain('"small"');
    expect(lines[8]).toContain('__luau_S(');
    expect(lines[10]).toBe('');
    expect(lines[11]).toContain('return');
  });

  it('lowers if-expressions without a closure', () => {
    const lowered = squash(
      lower(
        'local a = 1 print(if a then nil else 2, if a then "x" else "y") print(f(), if a then nil else 2, if a then nil else a) local b = if a then a else 0',
      ),
    );
    expect(lowered).not.toContain('function');
    // Computed before a statement that evaluates nothing that may call before it.
    expect(lowered).toContain(
      'do local __luau_v1; if a then __luau_v1 = nil else __luau_v1 = 2.0 end local __luau_v2; if a then __luau_v2 = "x" else __luau_v2 = "y" end print ( __luau_v1 , __luau_v2 ) ; end',
    );
    // After a call it stays in place (the call may change what it reads): and/or, with the
    // condition negated when only the else value is never falsy, or else the value boxed.
    expect(lowered).toContain('print ( f ( ) , ( not a and 2.0 or nil ) , __luau_U( a and __luau_N( nil ) or a ) )');
    // The whole value of a local: an ordinary if statement.
    expect(lowered).toContain('local b ; if a then b = a else b = 0.0 end');
  });

  it('lowers continue to a goto, wrapping later locals of a repeat body in a block', () => {
    const lowered = squash(lower('repeat local a = 1 if a then continue end local b = 2 until a'));
    expect(lowered).toContain('goto __luau_continue1');
    expect(lowered).toMatch(/do local b = 2\.0 ; end ::__luau_continue1:: until a/);
  });

  it("refuses a repeat condition reading a local that continue jumps over, in Luau's words", () => {
    const parsed = parseLuau('repeat if x then continue end local b = 2 until b');
    expect(parsed.diagnostics).toEqual([]);
    expect(() => lowerLuau(parsed.chunk)).toThrow(LowerError);
    expect(compileLuau('repeat if x then continue end local b = 2 until b')).toMatchObject({
      ok: false,
      error:
        'script:1: Local b used in the repeat..until condition is undefined because continue statement jumps over it',
    });
  });

  it('renames names Lua reserves and names starting with the lowering prefix', () => {
    const lowered = squash(
      lower('local goto = 1 local t = { goto = 2 } print(t.goto, __luau_x) function t.goto() end'),
    );
    expect(lowered).toContain('local __luau_u_goto = 1.0');
    expect(lowered).toContain('{ ["goto"] = 2.0');
    expect(lowered).toContain('t ["goto"]');
    expect(lowered).toContain('__luau_u___luau_x');
    expect(
      luaLoadError(
        lower('local goto = 1 local t = { goto = 2 } t.goto = t.goto + goto function t:goto() end t:goto()'),
      ),
    ).toBeNull();
  });

  it('writes only the helpers a script uses, and always removes the runtime global', () => {
    expect(lower('print(1)').startsWith(`${RUNTIME_GLOBAL}();`)).toBe(true);
    expect(
      lower('print(a % b, a // 2, `{a}`)').startsWith(`local __luau_T, __luau_M = ${RUNTIME_GLOBAL}("T", "M");`),
    ).toBe(true);
  });

  it('answers a syntax error with the parser message and line, and survives deep nesting', () => {
    expect(compileLuau('local x = 1\nlocal = 2')).toMatchObject({ ok: false });
    const compiled = compileLuau('\nlocal x = = 1');
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.error).toMatch(/^script:2: Expected identifier when parsing expression/);
    for (const depth of [150, 900, 5000]) {
      const deep = compileLuau(`return ${'('.repeat(depth)}1${')'.repeat(depth)}`);
      expect(typeof deep.ok).toBe('boolean');
    }
  });

  it('writes code that loads in Lua 5.4 for every kind of statement and expression', () => {
    const source = [
      'local a: number, b = 1, 2',
      'a, b = b, a',
      'a += 1 a -= 1 a *= 2 a /= 2 a //= 1 a %= 3 a ^= 2',
      'local t = { 1, x = 2, [3] = 4; "s" }',
      't.x ..= "y" t[1] += 1',
      'local function f(x: number, ...: any): ...any return x, ... end',
      'function t.m(self) return self end',
      'function t:n() return self end',
      'local g = function<T>(v: T): T return v end',
      'do local z = 1 end',
      'while a < 10 do a += 1 if a == 5 then continue elseif a == 9 then break else end end',
      'repeat local r = 1 if r then continue end until r',
      'for i = 1, 10, 2 do continue end',
      'for k, v in pairs(t) do continue end',
      'local s = `a{a}b{`c{b}`}` .. "x" .. a .. -a .. #t',
      'local e = if a then 1 elseif b then nil else 3',
      'print(e, (f(1)), f(1) :: any, not a, -a ^ 2, 2 ^ -a, a // b, a % b, a .. b .. a)',
      'export type X<T> = { v: T }',
      'type function id(t) return t end',
      '@native function t.o() end',
      '("x"):rep(2)',
      'return if a then f(1) else ...',
    ].join('\n');
    const lowered = lower(source);
    expect(luaLoadError(lowered)).toBeNull();
    expect(lowered.split('\n')).toHaveLength(source.split('\n').length);
  });
});

describeEachCorpus('lowering the Luau corpus', (corpus) => {
  it('has files to lower', () => {
    expect(corpus.valid.length).toBeGreaterThanOrEqual(corpus.minimum.valid);
  });

  it.each(corpus.valid.map((entry) => [entry.file]))('%s lowers, keeps its lines and loads in Lua 5.4', (file) => {
    const source = corpus.read(file);
    const compiled = compileLuau(source);
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.lua.split('\n').length).toBeLessThanOrEqual(source.split('\n').length);
    expect(luaLoadError(compiled.lua)).toBeNull();
  });
});
