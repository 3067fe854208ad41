/**
 * Scripts written to hurt the server, and how the sandbox must end each one. The tests run them
 * (hostile-cases.test.ts) and the sandbox report prints how each was stopped and how long it took
 * (cli/sandbox-report.ts). Every case must end with a clear error or a limit, never take the host
 * down, and leave the thread able to run the next script.
 *
 * `stoppedBy: 'sandbox'` cases are ended by runLua itself. `stoppedBy: 'hard-deadline'` cases spend
 * their time inside one C function (pattern matching), which no Lua hook reaches: only the pool's
 * hard deadline, terminating the thread, stops them.
 */
import type { SandboxLimitName } from './run-lua.ts';

export interface HostileCase {
  name: string;
  code: string;
  stoppedBy: 'sandbox' | 'hard-deadline';
  /** How a 'sandbox' case must end. */
  expect: {
    limit: SandboxLimitName | null;
    /** Matches the run's error; null when the run must succeed. */
    error: RegExp | null;
    returns?: string[];
    output?: RegExp;
  };
}

/** A precompiled-chunk header as Lua 5.4 writes it (string.dump is gone, so it is written by hand). */
const BYTECODE = String.raw`"\27Lua\84\0\25\147\13\10\26\10\4\8\8\120\86\0\0\0\0\0\0\0\0\0\0\0\40\119\64\1"`;

const limitCase = (name: string, code: string, limit: SandboxLimitName, error: RegExp): HostileCase => ({
  name,
  code,
  stoppedBy: 'sandbox',
  expect: { limit, error },
});

const refusedCase = (name: string, code: string, error: RegExp): HostileCase => ({
  name,
  code,
  stoppedBy: 'sandbox',
  expect: { limit: null, error },
});

/**
 * Error handlers of xpcall that never return. The handler runs again when a limit is raised inside
 * it, and that second call comes from inside the instruction hook, where Lua runs no hook: were the
 * script's handler to run there, nothing but the thread's termination would stop it. The tests run
 * these in a thread of their own, so a sandbox that fails them is terminated instead of hanging.
 */
export const ERROR_HANDLER_CASES: readonly HostileCase[] = [
  limitCase(
    'xpcall whose handler loops',
    'xpcall(error, function() while true do end end)',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
  limitCase(
    'xpcall whose function and handler both loop',
    'xpcall(function() while true do end end, function() while true do end end)',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
  limitCase(
    'xpcall whose handler calls a looping function',
    'local function spin() while true do end end xpcall(function() error("x") end, function(e) spin() return e end)',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
  limitCase(
    'nested xpcalls whose handlers loop',
    'xpcall(function() xpcall(error, function() while true do end end) end, function() while true do end end)',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
  limitCase(
    'xpcall whose handler loops over pcalls',
    'xpcall(error, function() while true do pcall(function() while true do end end) end end)',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
  limitCase(
    'xpcall whose handler loops inside a coroutine',
    'coroutine.wrap(function() xpcall(error, function() while true do end end) end)()',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
];

export const HOSTILE_CASES: readonly HostileCase[] = [
  // Bytecode and escapes from the state.
  refusedCase('bytecode through load', `return assert(load(${BYTECODE}))`, /binary chunks are not allowed/),
  refusedCase(
    'bytecode through a load reader',
    `local sent = false
return assert(load(function() if sent then return nil end sent = true return ${BYTECODE} end))`,
    /attempt to load a binary chunk \(mode is 't'\)/,
  ),
  {
    name: 'dangerous globals are absent',
    code: 'return io, os.exit, os.getenv, os.remove, os.execute, require, dofile, loadfile, debug, package, string.dump',
    stoppedBy: 'sandbox',
    expect: { limit: null, error: null, returns: Array.from({ length: 11 }, () => 'nil') },
  },
  refusedCase('os.exit', 'os.exit(1)', /^script:1: attempt to call a nil value \(field 'exit'\)$/),
  refusedCase(
    'os.execute',
    'os.execute("touch /tmp/moonrelay-pwned")',
    /attempt to call a nil value \(field 'execute'\)/,
  ),
  refusedCase('require', 'require("os")', /attempt to call a nil value \(global 'require'\)/),
  refusedCase('debug.sethook', 'debug.sethook()', /attempt to index a nil value \(global 'debug'\)/),

  // Instructions.
  limitCase('infinite loop', 'while true do end', 'instructions', /^Instruction limit exceeded$/),
  limitCase(
    'infinite loop in pcall in a loop',
    'while true do pcall(function() while true do end end) end',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
  limitCase(
    'xpcall whose handler swallows the limit',
    'while true do xpcall(function() while true do end end, function() return "handled" end) end',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
  ...ERROR_HANDLER_CASES,
  limitCase(
    'infinite loop in coroutines, caught',
    'while true do pcall(coroutine.wrap(function() while true do end end)) coroutine.resume(coroutine.create(function() while true do end end)) end',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
  limitCase(
    'infinite loop in a load reader',
    'while true do load(function() while true do end end) end',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
  limitCase(
    // Luau has no <close>, but load() takes Lua 5.4 text, which does.
    'infinite loop in a __close handler',
    'load("local guard <close> = setmetatable({}, { __close = function() while true do end end }) while true do end")()',
    'instructions',
    /^Instruction limit exceeded$/,
  ),
  limitCase(
    'waiting forever with task.wait',
    'while true do task.wait(1) end',
    'instructions',
    /^Instruction limit exceeded$/,
  ),

  // Memory.
  limitCase('("x"):rep(2^30)', 'return #("x"):rep(2^30)', 'memory', /^Memory limit exceeded \(64 MiB\)$/),
  limitCase(
    '("x"):rep(2^30) inside pcall',
    'local ok = pcall(string.rep, "x", 2^30) return ok',
    'memory',
    /^Memory limit exceeded \(64 MiB\)$/,
  ),
  limitCase('string doubling', 'local s = "x" while true do s = s .. s end', 'memory', /^Memory limit exceeded/),
  limitCase(
    'table bomb',
    'local t = {} local i = 0 while true do i = i + 1 t[i] = { i } end',
    'memory',
    /^Memory limit exceeded/,
  ),
  limitCase(
    'coroutine bomb',
    'local t = {} while true do t[#t + 1] = coroutine.create(print) end',
    'memory',
    /^Memory limit exceeded/,
  ),

  // Finalizers: Lua runs __gc with hooks off, so a looping one could never be stopped; refused.
  refusedCase(
    '__gc finalizer that loops forever',
    'setmetatable({}, { __gc = function() while true do end end }) collectgarbage()',
    /__gc metamethods are not supported/,
  ),
  refusedCase(
    '__gc added after setmetatable',
    'local mt = {} setmetatable({}, mt) mt.__gc = function() while true do end end collectgarbage("collect")',
    /collectgarbage: option 'collect' is not allowed/,
  ),

  // Output.
  {
    name: '1e7 prints',
    code: 'for i = 1, 1e7 do print(i) end',
    stoppedBy: 'sandbox',
    expect: {
      limit: 'output',
      error: /^Output limit exceeded \(64 KiB\)$/,
      output: /\n\.\.\. output truncated \(64 KiB limit\)\n$/,
    },
  },
  limitCase('one huge print', 'print(("x"):rep(10 * 1024 * 1024))', 'output', /^Output limit exceeded/),
  limitCase(
    'prints inside pcall',
    'while true do pcall(print, ("x"):rep(1000)) end',
    'output',
    /^Output limit exceeded/,
  ),

  // Stacks.
  refusedCase('deep recursion', 'local function f(n) return 1 + f(n + 1) end return f(1)', /stack overflow/),
  refusedCase(
    'nested coroutines',
    'local function nest() local co = coroutine.create(nest) local ok, err = coroutine.resume(co) if not ok then error(err, 0) end end nest()',
    /C stack overflow/,
  ),
  refusedCase(
    'nested coroutine.wrap',
    'local function nest() return coroutine.wrap(nest)() end nest()',
    /stack overflow/,
  ),
  refusedCase(
    'recursive __index',
    'local t = setmetatable({}, { __index = function(t, k) return t[k] end }) return t.x',
    /stack overflow/,
  ),
  refusedCase(
    'recursive gsub callback',
    'local function g(s) return (s:gsub(".", g)) end return g("aa")',
    /stack overflow/,
  ),

  // Poisoning the shared libraries (each run has a fresh state anyway; these must fail loudly).
  refusedCase(
    'replace string.rep',
    'string.rep = function() end',
    /attempt to modify a readonly table \(string\.rep\)/,
  ),
  refusedCase('replace table.insert', 'table.insert = nil', /attempt to modify a readonly table \(table\.insert\)/),
  refusedCase('rawset on a library', 'rawset(string, "rep", print)', /attempt to modify a readonly table/),
  refusedCase('replace a library metatable', 'setmetatable(math, {})', /cannot change a protected metatable/),
  refusedCase(
    'replace the string metatable __index',
    'getmetatable("").__index = {}',
    /attempt to index a string value/,
  ),
  refusedCase('collectgarbage("collect")', 'collectgarbage("collect")', /only "count"/),

  // C loops that no hook reaches, bounded by the prelude.
  {
    name: '("").rep(2^53)',
    code: 'return #(""):rep(2^53)',
    stoppedBy: 'sandbox',
    expect: { limit: null, error: null, returns: ['0'] },
  },
  refusedCase('table.move over 1e15 slots', 'table.move({}, 1, 1e15, 2)', /more than 16777216 elements to move/),
  refusedCase(
    'table.insert with a lying __len',
    'local t = setmetatable({}, { __len = function() return 1e15 end }) table.insert(t, 1, "x")',
    /more than 16777216 elements to shift/,
  ),

  // Inside one C call: only the hard deadline stops these.
  {
    name: 'backtracking pattern',
    code: 'return string.find(("a"):rep(1e5), ".-.-.-.-b$")',
    stoppedBy: 'hard-deadline',
    expect: { limit: null, error: null },
  },
  {
    name: 'quadratic plain find',
    code: 'local s = ("a"):rep(2e7) return s:find(("a"):rep(1e7) .. "b", 1, true)',
    stoppedBy: 'hard-deadline',
    expect: { limit: null, error: null },
  },
];
