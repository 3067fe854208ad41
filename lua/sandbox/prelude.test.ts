import { describe, expect, it } from 'vitest';
import { runLua } from '@moonrelay/sandbox/sandbox/run-lua';
import { errorOf, returnsOf, warmSandboxBeforeAll } from '@moonrelay/sandbox/sandbox/sandbox-test-support';

// The Luau functions the prelude (prelude.lua) adds, run in the real sandbox.

warmSandboxBeforeAll();

describe('the Luau prelude', () => {
  it('table.find', async () => {
    expect(
      await returnsOf(
        'local t = { "a", "b", "a" } return table.find(t, "a"), table.find(t, "b"), table.find(t, "z"), table.find(t, "a", 2), table.find({ 1, nil, 3 }, 3), table.find({}, 1)',
      ),
    ).toEqual(['1', '2', 'nil', '3', 'nil', 'nil']);
    expect(await errorOf('table.find({ 1 }, 1, 0)')).toMatch(
      /^script:1: bad argument #3 to 'find' \(index out of range\)/,
    );
    expect(await errorOf('table.find({ 1 })')).toMatch(/missing argument #2 to 'find'/);
    expect(await errorOf('table.find(nil, 1)')).toMatch(
      /^script:1: bad argument #1 to 'find' \(table expected, got nil\)$/,
    );
  });

  it('table.clear and table.create', async () => {
    expect(
      await returnsOf(
        'local t = { 1, 2, x = 3 } local same = t table.clear(t) local c = table.create(3, "v") return next(t), same == t, #c, c[3], #table.create(5), #table.create(0, 1)',
      ),
    ).toEqual(['nil', 'true', '3', 'v', '0', '0']);
    expect(await errorOf('table.create(-1)')).toMatch(/^script:1: bad argument #1 to 'create' \(size out of range\)/);
    expect(await errorOf('table.create(1.5)')).toMatch(/number has no integer representation/);
    expect(await errorOf('table.clear("x")')).toMatch(
      /^script:1: bad argument #1 to 'clear' \(table expected, got string\)/,
    );
  });

  it('string.split with Luau semantics', async () => {
    const join = (call: string): string => `table.concat(${call}, "|") .. "#" .. #${call}`;
    expect(
      await returnsOf(
        `return ${[
          join('("a,b,,c"):split(",")'),
          join('("a,b"):split()'),
          join('(""):split(",")'),
          join('("abc"):split("")'),
          join('("a.b.c"):split(".")'),
          join('("a--b--"):split("--")'),
          join('string.split(",a,", ",")'),
          join('("no separator"):split(";")'),
          join('(""):split("")'),
        ].join(', ')}`,
      ),
    ).toEqual(['a|b||c#4', 'a|b#2', '#1', 'a|b|c#3', 'a|b|c#3', 'a|b|#3', '|a|#3', 'no separator#1', '#0']);
    expect(await errorOf('string.split(nil)')).toMatch(
      /^script:1: bad argument #1 to 'split' \(string expected, got nil\)/,
    );
  });

  it('math.clamp, math.sign and math.round', async () => {
    expect(
      await returnsOf(
        'return math.clamp(5, 1, 3), math.clamp(0, 1, 3), math.clamp(2.5, 1, 3), math.clamp(2, 2, 2), math.sign(-2), math.sign(0), math.sign(3.5)',
      ),
    ).toEqual(['3', '1', '2.5', '2', '-1', '0', '1']);
    expect(
      await returnsOf(
        'return math.round(2.5), math.round(-2.5), math.round(0.49999999999999994), math.round(-0.5), math.round(1.4), math.round(-1.6), math.round(7), math.round(1/0)',
      ),
    ).toEqual(['3', '-3', '0', '-1', '1', '-2', '7', 'inf']);
    expect(await errorOf('math.clamp(1, 3, 2)')).toMatch(
      /bad argument #3 to 'clamp' \(max must be greater than or equal to min\)/,
    );
    expect(await errorOf('math.sign("x")')).toMatch(
      /^script:1: bad argument #1 to 'sign' \(number expected, got string\)/,
    );
  });

  it('typeof', async () => {
    expect(
      await returnsOf(
        'return typeof(1), typeof("s"), typeof({}), typeof(nil), typeof(print), typeof(coroutine.create(print))',
      ),
    ).toEqual(['number', 'string', 'table', 'nil', 'function', 'thread']);
    expect(await errorOf('typeof()')).toMatch(/missing argument #1 to 'typeof'/);
  });

  it('task.wait returns the requested seconds, clamped to 0..1, without sleeping', async () => {
    const result = await runLua(
      'local total = 0 for i = 1, 100 do total = total + task.wait(1) end return total, task.wait(0.25), task.wait(), task.wait(-3), task.wait(5)',
    );

    expect(result.returns).toEqual(['100', '0.25', '0', '0', '1']);
    expect(result.durationMs).toBeLessThan(1000);
  });

  it('task.spawn runs the function at once in a coroutine, and reports its error without stopping', async () => {
    const result = await runLua(`
      local order = {}
      local thread = task.spawn(function(a, b)
        order[#order + 1] = "spawned " .. a .. b
        print(coroutine.isyieldable())
      end, "x", "y")
      order[#order + 1] = "after"
      task.spawn(function() error("boom") end)
      print("still running")
      return table.concat(order, ", "), typeof(thread), coroutine.status(thread)`);

    expect(result).toMatchObject({
      success: true,
      output: 'true\nerror: script:8: boom\nstill running\n',
      returns: ['spawned xy, after', 'thread', 'dead'],
    });
    expect(await errorOf('task.spawn(42)')).toMatch(
      /bad argument #1 to 'spawn' \(function or thread expected, got number\)/,
    );
  });

  it("adds Luau's math functions that Lua 5.4 lacks, and fmod answers nan for a zero divisor", async () => {
    expect(
      await returnsOf(
        'return math.atan2(1, 1), math.pow(2, 10), math.log10(1000), math.sinh(1), math.cosh(0), math.ldexp(0.5, 1024), math.ldexp(1, -1074), math.lerp(0, 10, 0.25), math.lerp(3, 10, 1), math.map(5, 0, 10, 0, 100), math.isnan(0/0), math.isinf(-math.huge), math.isfinite(1/0), math.fmod(#"abc", #""), math.fmod(-7, 3)',
      ),
    ).toEqual([
      String(Math.atan2(1, 1)),
      '1024',
      '3',
      String(Math.sinh(1)),
      '1',
      '8.98846567431158e+307',
      '5e-324',
      '2.5',
      '10',
      '50',
      'true',
      'true',
      'false',
      'nan',
      '-1',
    ]);
    expect(
      await returnsOf(
        'local m1, e1 = math.frexp(8) local m2, e2 = math.frexp(-0.1) local m3, e3 = math.frexp(5e-324) local m4, e4 = math.frexp(0) return m1, e1, m2, e2, m3, e3, m4, e4',
      ),
    ).toEqual(['0.5', '4', '-0.8', '-3', '0.5', '-1073', '0', '0']);
    expect(await errorOf('math.lerp(1, 2)')).toMatch(
      /^script:1: bad argument #3 to 'lerp' \(number expected, got nil\)$/,
    );
  });

  it("bit32 as Luau's: 32-bit unsigned results, arguments truncated and taken modulo 2^32", async () => {
    expect(
      await returnsOf(
        'return bit32.band(0xFF, 0x0F, 0x3), bit32.bor(1, 2, 4), bit32.bxor(5, 3), bit32.bnot(0), bit32.lshift(1, 31), bit32.lshift(1, 32), bit32.rshift(0x80000000, 31), bit32.rshift(-1, 0), bit32.arshift(0x80000000, 4), bit32.arshift(-1, 40), bit32.lrotate(0x80000001, 1), bit32.rrotate(1, 1), bit32.extract(0xF0, 4, 4), bit32.replace(0, 0xF, 8, 4), bit32.countlz(1), bit32.countrz(0x80), bit32.countlz(0), bit32.byteswap(0x12345678), bit32.btest(1, 2), bit32.band(-1.5), bit32.band(2^32 + 3), bit32.band()',
      ),
    ).toEqual([
      '3',
      '7',
      '6',
      '4294967295',
      '2147483648',
      '0',
      '1',
      '4294967295',
      '4160749568',
      '4294967295',
      '3',
      '2147483648',
      '15',
      '3840',
      '31',
      '7',
      '32',
      '2018915346',
      'false',
      '4294967295',
      '3',
      '4294967295',
    ]);
    expect(await errorOf('bit32.btest(1, {})')).toMatch(
      /^script:1: bad argument #2 to 'btest' \(number expected, got table\)$/,
    );
    expect(await errorOf('bit32.extract(1, 30, 4)')).toMatch(/^script:1: trying to access non-existent bits$/);
    expect(await errorOf('bit32.extract(1, -1)')).toMatch(
      /^script:1: bad argument #2 to 'extract' \(field cannot be negative\)$/,
    );
    expect(await errorOf('bit32.band(1, "x")')).toMatch(
      /^script:1: bad argument #2 to 'band' \(number expected, got string\)$/,
    );
  });

  it('prints numbers as Luau does, for doubles of every magnitude', async () => {
    const samples = numberSamples();
    const result = await runLua(samples.map((value) => `print(${luauLiteral(value)})`).join('\n'));

    expect(result.error).toBeNull();
    expect(result.output.split('\n').slice(0, -1)).toEqual(samples.map(luauNumberText));
  });

  it('formats numbers as Luau in string.format and table.concat, and answers doubles from the libraries', async () => {
    expect(
      await returnsOf(
        'return string.format("%s|%*|%d|%x|%5.1f|%%|%q", 1e16, 0.1, -3.9, 255.5, 2, "a"), table.concat({ 1, 1e100, "x" }, " "), tonumber("9007199254740993"), math.floor(-0.5), math.ceil(2^62) * 4, math.random(3, 3)',
      ),
    ).toEqual([
      '10000000000000000|0.1|-3|ff|  2.0|%|"a"',
      '1 1e+100 x',
      '9007199254740992',
      '-1',
      '18446744073709552000',
      '3',
    ]);
    expect(await errorOf('string.format("%d", "x")')).toMatch(/^script:1: bad argument #2 to 'format'/);
    expect(await errorOf('table.concat({ {} })')).toMatch(
      /^script:1: invalid value \(at index 1\) in table for 'concat'$/,
    );
  });
});

/** Doubles from 5e-324 to 1.8e308, whole and fractional, with a fixed seed. */
function numberSamples(): number[] {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const samples = [
    5e-324,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    0.1,
    1 / 3,
    1e21,
    1e-7,
    123456789012345680000,
  ];
  for (let i = 0; i < 300; i++) {
    const exponent = Math.floor(next() * 600) - 300;
    const value = (next() * 10) ** (next() < 0.5 ? 1 : 3) * 10 ** exponent;
    samples.push(next() < 0.3 ? -value : value, Math.round(next() * 10 ** Math.floor(next() * 22)));
  }
  return samples.filter((value) => Number.isFinite(value) && value !== 0);
}

/** A positive literal and unary minus: Luau has no negative literals. */
function luauLiteral(value: number): string {
  return value < 0 ? `-${String(-value)}` : String(value);
}

/** Luau's rule (VM/src/lnumprint.cpp), on JavaScript's shortest round-trip digits. */
function luauNumberText(value: number): string {
  const [mantissa = '', exponentText = ''] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const dot = Number(exponentText) + 1;
  const sign = value < 0 ? '-' : '';
  if (dot >= -5 && dot <= 21) {
    if (dot <= 0) return `${sign}0.${'0'.repeat(-dot)}${digits}`;
    if (dot >= digits.length) return `${sign}${digits}${'0'.repeat(dot - digits.length)}`;
    return `${sign}${digits.slice(0, dot)}.${digits.slice(dot)}`;
  }
  const power = dot - 1;
  const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
  return `${sign}${digits[0]}${fraction}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
}
