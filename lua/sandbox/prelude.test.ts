import { describe, expect, it } from 'vitest';
import { runLua } from '@moonrelay/worker/sandbox/run-lua';
import { errorOf, returnsOf, warmSandboxBeforeAll } from '@moonrelay/worker/sandbox/sandbox-test-support';

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
