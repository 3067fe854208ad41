import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS, runLua } from './run-lua.ts';
import { errorOf, returnsOf, warmSandboxBeforeAll } from './sandbox-test-support.ts';

warmSandboxBeforeAll();

describe('runLua basics', () => {
  it('has the documented default limits', () => {
    expect(DEFAULT_SANDBOX_LIMITS).toEqual({
      memoryBytes: 64 * 1024 * 1024,
      instructionLimit: 300_000_000,
      deadlineMs: 3000,
      outputBytes: 64 * 1024,
    });
  });

  it('prints like Luau: arguments joined by a space, integral floats without .0', async () => {
    const result = await runLua(
      'print("a", 1, 3.0, 0.1, 1/3, 1e15, 2^53, -0.0, 1/0, -1/0, 0/0, nil, true, false, math.maxinteger, 1e21)',
    );

    expect(result).toMatchObject({ success: true, error: null, limit: null, returns: [] });
    expect(result.output).toBe(
      'a 1 3 0.1 0.3333333333333333 1000000000000000 9007199254740992 -0 inf -inf nan nil true false nil 1e+21\n',
    );
  });

  it('prints tables, __tostring, empty lines and raw bytes', async () => {
    const result = await runLua(
      'print({}) print(setmetatable({}, { __tostring = function() return "custom" end })) print() print("a\\0b", "\\255")',
    );

    const [table, ...rest] = result.output.split('\n');
    expect(table).toMatch(/^table: 0x[0-9a-f]+$/);
    expect(rest).toEqual(['custom', '', 'a\u0000b \uFFFD', '']);
  });

  it('writes warn lines with a warning prefix', async () => {
    const result = await runLua('print("one") warn("careful", 2.0) print("two")');

    expect(result.output).toBe('one\nwarning: careful 2\ntwo\n');
  });

  it('formats tostring like print', async () => {
    expect(await returnsOf('return tostring(3.0), tostring(-2.5), tostring(nil), tostring(12)')).toEqual([
      '3',
      '-2.5',
      'nil',
      '12',
    ]);
    expect(await errorOf('tostring()')).toMatch(/bad argument #1 to 'tostring' \(value expected\)/);
  });

  it('captures the return values as strings', async () => {
    const result = await runLua('return 1, "two", 3.5, nil, true, {}, 4.0');

    expect(result.returns.slice(0, 5)).toEqual(['1', 'two', '3.5', 'nil', 'true']);
    expect(result.returns[5]).toMatch(/^table: 0x/);
    expect(result.returns[6]).toBe('4');
  });

  it('cuts return values at the output size', async () => {
    const result = await runLua('return ("x"):rep(100000), "next"');

    expect(result.returns).toHaveLength(1);
    expect(result.returns[0]).toMatch(/^x+\.\.\. \(returns truncated at 64 KiB\)$/);
  });

  it('reports errors as script:<line>', async () => {
    expect(await errorOf('local x = 1\nlocal y = nil\nreturn y.z')).toBe(
      "script:3: attempt to index a nil value (local 'y')",
    );
    expect(await errorOf('\n\nfoo()')).toBe("script:3: attempt to call a nil value (global 'foo')");
    expect(await errorOf('error("boom")')).toBe('script:1: boom');
    expect(await errorOf('error("boom", 0)')).toBe('boom');
    // Syntax errors are the Luau parser's, worded as Luau words them.
    expect(await errorOf('local x = = 1')).toBe("script:1: Expected identifier when parsing expression, got '='");
    expect(await errorOf('local f = load("x = ", "script") f()')).toMatch(/^script:1: attempt to call a nil value/);
  });

  it('describes error objects that are not strings', async () => {
    expect(await errorOf('error({})')).toBe('(error object is a table value)');
    expect(await errorOf('error()')).toBe('(error object is a nil value)');
    expect(await errorOf('error(42)')).toBe('42');
    expect(await errorOf('error(setmetatable({}, { __tostring = function() return "custom error" end }))')).toBe(
      'custom error',
    );
  });

  it('puts errors of misused library functions at the script line, never in the prelude', async () => {
    const [messages] = await returnsOf(`
      local messages = {}
      for _, call in ipairs({
        function() setmetatable(math, {}) end,
        function() setmetatable(1, {}) end,
        function() rawset(1, 1, 1) end,
        function() table.insert(nil, 1) end,
        function() table.insert({}, 5, 1) end,
        function() table.insert({}, 1, 2, 3) end,
        function() table.remove({}, 7) end,
        function() table.move(nil, 1, 2, 1) end,
        function() ("x"):rep(1e10) end,
        function() coroutine.resume(1) end,
        function() coroutine.close(coroutine.running()) end,
        function() xpcall(print) end,
        function() load(42) end,
        function() print(setmetatable({}, { __tostring = function() return {} end })) end,
        function() tostring(setmetatable({}, { __name = 1, __tostring = function() error("own error") end })) end,
      }) do
        local ok, message = pcall(call)
        messages[#messages + 1] = message
      end
      return table.concat(messages, "|")`);

    expect(messages?.split('|')).toEqual([
      'script:4: cannot change a protected metatable',
      "script:5: bad argument #1 to 'setmetatable' (table expected, got number)",
      "script:6: bad argument #1 to 'rawset' (table expected, got number)",
      "script:7: bad argument #1 to 'insert' (table expected, got nil)",
      "script:8: bad argument #2 to 'insert' (position out of bounds)",
      "script:9: wrong number of arguments to 'insert'",
      "script:10: bad argument #2 to 'remove' (position out of bounds)",
      "script:11: bad argument #1 to 'move' (table expected, got nil)",
      'script:12: resulting string too large',
      "script:13: bad argument #1 to 'resume' (coroutine expected, got number)",
      'script:14: cannot close a running coroutine',
      "script:15: bad argument #2 to 'xpcall' (function expected, got nil)",
      "script:16: bad argument #1 to 'load' (string or function expected, got number)",
      "'__tostring' must return a string",
      'script:18: own error',
    ]);
  });

  it('keeps the output printed before an error', async () => {
    const result = await runLua('print("before")\nerror("after")');

    expect(result).toMatchObject({ success: false, output: 'before\n', error: 'script:2: after', limit: null });
  });

  it('measures the run', async () => {
    const result = await runLua('return 1');

    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(result.durationMs)).toBe(true);
  });
});

describe('the allowlisted environment', () => {
  it('exposes exactly the allowlisted globals', async () => {
    const [names] = await returnsOf(
      'local names = {} for name in pairs(_G) do names[#names + 1] = name end table.sort(names) return table.concat(names, " ")',
    );

    expect(names?.split(' ')).toEqual([
      '_G',
      '_VERSION',
      'assert',
      'bit32',
      'collectgarbage',
      'coroutine',
      'error',
      'getmetatable',
      'ipairs',
      'load',
      'loadstring',
      'math',
      'next',
      'os',
      'pairs',
      'pcall',
      'print',
      'rawequal',
      'rawget',
      'rawlen',
      'rawset',
      'select',
      'setmetatable',
      'string',
      'table',
      'task',
      'tonumber',
      'tostring',
      'type',
      'typeof',
      'utf8',
      'warn',
      'xpcall',
    ]);
  });

  it('reduces os to clock, date, difftime and time', async () => {
    const [names] = await returnsOf(
      'local names = {} for name in pairs(os) do names[#names + 1] = name end table.sort(names) return table.concat(names, " ")',
    );

    expect(names).toBe('clock date difftime time');
    expect(await returnsOf('return type(os.clock()), os.time() % 1, os.date("!%Y", 0), os.difftime(5, 2)')).toEqual([
      'number',
      '0',
      '1970',
      '3',
    ]);
  });

  it('opens string, table, math, utf8 and coroutine', async () => {
    expect(
      await returnsOf(
        'return ("x"):rep(3), table.concat({1, 2}, ","), math.floor(2.5), utf8.char(72, 105), coroutine.wrap(function() coroutine.yield(7) end)()',
      ),
    ).toEqual(['xxx', '1,2', '2', 'Hi', '7']);
  });

  it('loads text chunks, with load and its loadstring alias', async () => {
    expect(
      await returnsOf(
        'return load("return 1 + 1")(), loadstring == load, load("return x", "chunk", "t", { x = 5 })(), select("#", load("syntax error here"))',
      ),
    ).toEqual(['2', 'true', '5', '2']);
  });

  it('refuses bytecode, even when asked for mode "b"', async () => {
    expect(await returnsOf('return load("\\27Lua", "x", "b")')).toEqual([
      'nil',
      'binary chunks are not allowed in the sandbox (load accepts text only)',
    ]);
  });

  it('allows collectgarbage("count") only', async () => {
    expect(await returnsOf('return type(collectgarbage("count")), collectgarbage("count") > 0')).toEqual([
      'number',
      'true',
    ]);
    expect(await errorOf('collectgarbage()')).toMatch(/option 'collect' is not allowed in the sandbox/);
    expect(await errorOf('collectgarbage("stop")')).toMatch(/option 'stop' is not allowed/);
  });

  it('keeps library tables read-only but usable', async () => {
    expect(await errorOf('math.pi = 3')).toMatch(/^script:1: attempt to modify a readonly table \(math\.pi\)$/);
    expect(await errorOf('string.custom = 1')).toMatch(/readonly table \(string\.custom\)/);
    expect(await errorOf('task.wait = nil')).toMatch(/readonly table \(task\.wait\)/);
    expect(await errorOf('rawset(os, "exit", print)')).toMatch(/attempt to modify a readonly table/);
    expect(await errorOf('table.clear(coroutine)')).toMatch(/attempt to modify a readonly table/);
    expect(await errorOf('table.insert(utf8, 1)')).toMatch(/attempt to modify a readonly table/);
    expect(
      await returnsOf(
        'local n = 0 for name, fn in pairs(math) do n = n + 1 end return n > 20, getmetatable(math), getmetatable(""), getmetatable("").__index, ("a"):upper()',
      ),
    ).toEqual(['true', 'The metatable is locked', 'The metatable is locked', 'nil', 'A']);
  });

  it('lets scripts use metatables on their own tables, without __gc', async () => {
    expect(
      await returnsOf(
        'local V = {} V.__index = V V.__add = function(a, b) return setmetatable({ x = a.x + b.x }, V) end local v = setmetatable({ x = 1 }, V) + setmetatable({ x = 2 }, V) return v.x, getmetatable(v) == V',
      ),
    ).toEqual(['3', 'true']);
    expect(await errorOf('setmetatable({}, { __gc = true })')).toMatch(/__gc metamethods are not supported/);
  });

  it('reaches no JS object from Lua', async () => {
    expect(
      await returnsOf(`
        local seen, found = {}, {}
        local function walk(value, path)
          if seen[value] then return end
          seen[value] = true
          local kind = type(value)
          if kind == "userdata" then found[#found + 1] = path end
          if kind == "table" then
            for key, inner in pairs(value) do walk(inner, path .. "." .. tostring(key)) end
            local mt = getmetatable(value)
            if type(mt) == "table" then walk(mt, path .. "<mt>") end
          end
        end
        walk(_G, "_G")
        walk(getmetatable(""), "string metatable")
        return #found, null`),
    ).toEqual(['0', 'nil']);
  });

  it('answers a yield outside a coroutine with an error', async () => {
    expect(await errorOf('coroutine.yield(1)')).toMatch(/attempt to yield from outside a coroutine/);
  });
});

describe('a fresh state per run', () => {
  it('does not let one run poison the next', async () => {
    const poison = await runLua(`
      x = "left over"
      _G.print = function() end
      _G.tostring = function() return "pwned" end
      string = nil
      table = { insert = error }
      pcall(function() getmetatable("").__index.rep = nil end)
      pcall(function() string.rep = nil end)
      return "poisoned"`);
    expect(poison.returns).toEqual(['poisoned']);

    const next = await runLua(
      'print("clean") return x, tostring(1), type(string), ("x"):rep(2), type(table.insert), string.rep == ("").rep',
    );

    expect(next).toMatchObject({ output: 'clean\n', returns: ['nil', '1', 'table', 'xx', 'function', 'true'] });
  });
});

describe('wrapped library functions', () => {
  it('still behave like Lua 5.4', async () => {
    expect(
      await returnsOf(`
        local function show(t) return table.concat(t, ",") end
        local moved = table.move({ 1, 2, 3 }, 1, 3, 2)
        local into = table.move({ 1, 2 }, 1, 2, 3, { 9, 9 })
        local list = { "a", "c" }
        table.insert(list, 2, "b") table.insert(list, "d")
        local removed = table.remove(list, 1) .. table.remove(list)
        local Len = { __len = function(t) return rawlen(t) end }
        local counted = setmetatable({ "x", "z" }, Len)
        table.insert(counted, 2, "y")
        local popped = table.remove(counted, 1)
        local Base = {} local object = setmetatable({}, { __index = Base })
        setmetatable(object, nil)
        return show(moved), show(into), show(list), removed, show(counted), popped, getmetatable(object),
          ("ab"):rep(3, "-"), ("x"):rep(0), rawset({}, "k", "v").k, select("#", pcall(error))`),
    ).toEqual(['1,1,2,3', '9,9,1,2', 'b,c', 'ad', 'y,z', 'x', 'nil', 'ab-ab-ab', '', 'v', '2']);
  });
});

describe('limits', () => {
  it('caps the output and marks where it was cut', async () => {
    const result = await runLua('for i = 1, 100 do print("0123456789") end', { outputBytes: 25 });

    expect(result).toMatchObject({
      success: false,
      limit: 'output',
      error: 'Output limit exceeded (25 bytes)',
      output: '0123456789\n0123456789\n... output truncated (25 bytes limit)\n',
    });
  });

  it('names the memory limit it enforced', async () => {
    const result = await runLua('local t = {} for i = 1, 1e7 do t[i] = i end', { memoryBytes: 8 * 1024 * 1024 });

    expect(result).toMatchObject({ success: false, limit: 'memory', error: 'Memory limit exceeded (8 MiB)' });
  });

  it('lets a script recover from its own errors but not from a limit', async () => {
    const result = await runLua(
      'print(pcall(error, "mine")) local ok = pcall(function() while true do end end) print("unreachable", ok)',
      { instructionLimit: 1_000_000 },
    );

    expect(result).toMatchObject({ limit: 'instructions', output: 'false mine\n' });
  });

  it('ends a run at the soft deadline', async () => {
    const result = await runLua('local t = {} while true do t[#t % 1000 + 1] = tostring(#t) .. "x" end', {
      deadlineMs: 300,
    });

    expect(result).toMatchObject({ success: false, limit: 'deadline', error: 'Time limit exceeded (300 ms)' });
    expect(result.durationMs).toBeGreaterThanOrEqual(300);
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('rejects nonsensical limits', async () => {
    await expect(runLua('return 1', { memoryBytes: 0 })).rejects.toThrow(/memoryBytes must be a positive number/);
  });
});
