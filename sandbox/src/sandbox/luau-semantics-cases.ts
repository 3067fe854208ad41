/**
 * Luau programs and what real Luau answers for them: the sandbox, which lowers Luau to Lua 5.4
 * (lua/luau/lower.ts), must answer the same. luau-semantics.api.test.ts runs them through the
 * execution API; docs/luau-in-the-sandbox.md names them.
 *
 * `output` is the exact printed text; `error` matches the run's error (its `script:LINE:` is the
 * user's line, however the construct was lowered).
 */

export interface LuauSemanticsCase {
  name: string;
  code: string;
  output?: string;
  error?: RegExp;
}

const lines = (...text: string[]): string => text.join('\n');

export const LUAU_SEMANTICS_CASES: readonly LuauSemanticsCase[] = [
  // Generalized iteration.
  {
    name: 'for k, v in t walks a table: the array part in order, then the rest',
    code: 'local t = { 10, 20, 30, x = 1 } for i, v in t do print(i, v) end',
    output: '1 10\n2 20\n3 30\nx 1\n',
  },
  {
    name: 'for ... in t uses the __iter metamethod',
    code: lines(
      'local t = setmetatable({}, { __iter = function(self) return next, { "a", "b" } end })',
      'for _, v in t do print(v) end',
    ),
    output: 'a\nb\n',
  },
  {
    name: 'pairs, ipairs and iterator functions work as before, continue included',
    code: lines(
      'for i, v in ipairs({ 7, 8 }) do print(i, v) end',
      'for k, v in pairs({ a = 1 }) do print(k, v) end',
      'for _, v in { 3, 4 } do if v == 3 then continue end print(v) end',
    ),
    output: '1 7\n2 8\na 1\n4\n',
  },
  {
    name: 'iterating nil names the line',
    code: 'local x\nfor k in x do end',
    error: /^script:2: attempt to iterate over a nil value$/,
  },

  // Compound assignment.
  { name: 'compound assignment', code: 'local x = 1 x += 1 print(x)', output: '2\n' },
  {
    name: 'every compound operator',
    code: 'local x = 10 x -= 3 x *= 2 x /= 4 x //= 1 x %= 2 x ^= 3 local s = "a" s ..= 1 s ..= 2.5 print(x, s)',
    output: '1 a12.5\n',
  },
  {
    name: 'compound assignment evaluates its target once',
    code: 'local n = 0 local t = { k = 1 } local function f() n += 1 return "k" end t[f()] += 1 print(t.k, n)',
    output: '2 1\n',
  },
  {
    name: 'a.b.c ..= x reads a.b once',
    code: lines(
      'local reads = 0',
      'local root = { b = { c = "x" } }',
      'local a = setmetatable({}, { __index = function(_, k) reads += 1 return root[k] end })',
      'a.b.c ..= "y"',
      'print(root.b.c, reads)',
    ),
    output: 'xy 1\n',
  },
  {
    name: 'compound assignment order: object, key, old value, value, store',
    code: lines(
      'local log = {}',
      'local t = setmetatable({}, {',
      '  __index = function() table.insert(log, "get") return 1 end,',
      '  __newindex = function(self, k, v) table.insert(log, "set") rawset(self, k, v) end,',
      '})',
      'local function key() table.insert(log, "key") return "k" end',
      'local function value() table.insert(log, "value") return 2 end',
      't[key()] += value()',
      'print(table.concat(log, ","), rawget(t, "k"))',
    ),
    output: 'key,get,value,set 3\n',
  },

  // continue, in every loop form.
  {
    name: 'continue in while',
    code: 'local i = 0 while i < 6 do i += 1 if i % 2 == 0 then continue end local square = i * i print(square) end',
    output: '1\n9\n25\n',
  },
  {
    name: 'continue in repeat: until sees the locals declared before it',
    code: lines(
      'local i = 0',
      'repeat',
      '  local j = i',
      '  i += 1',
      '  if j == 1 then continue end',
      '  local later = j * 10',
      '  print(later)',
      'until j >= 3',
    ),
    output: '0\n20\n30\n',
  },
  {
    name: 'continue in numeric for',
    code: 'for i = 1, 5 do if i == 3 then continue end print(i) end',
    output: '1\n2\n4\n5\n',
  },
  {
    name: 'continue in generic for',
    code: 'for _, v in ipairs({ "a", "b", "c" }) do if v == "b" then continue end print(v) end',
    output: 'a\nc\n',
  },
  {
    name: 'break and continue in nested loops',
    code: lines(
      'for i = 1, 3 do',
      '  for j = 1, 3 do',
      '    if j == 2 then continue end',
      '    if j == 3 then break end',
      '    print(i, j)',
      '  end',
      '  if i == 2 then break end',
      'end',
    ),
    output: '1 1\n2 1\n',
  },
  {
    name: 'continue keeps one local per iteration for closures',
    code: lines(
      'local fs = {}',
      'for i = 1, 3 do',
      '  local v = i * 2',
      '  if i == 2 then continue end',
      '  table.insert(fs, function() return v end)',
      'end',
      'print(fs[1](), fs[2]())',
    ),
    output: '2 6\n',
  },
  {
    name: 'continue in a repeat body that ends with return',
    code: 'local function f() local i = 0 repeat i += 1 if i < 3 then continue end return i until false end print(f())',
    output: '3\n',
  },
  {
    name: 'continue before a return that ends the loop body',
    code: 'local function f() for i = 1, 3 do if i < 3 then continue end return i end end print(f())',
    output: '3\n',
  },

  // String interpolation.
  { name: 'interpolation', code: 'print(`v={1+1}`)', output: 'v=2\n' },
  {
    name: 'interpolation passes each part through tostring',
    code: lines(
      'local t = setmetatable({}, { __tostring = function() return "T!" end })',
      'print(`{t} {nil} {true} {0.1} {10/2} {"s"} {2^53}`)',
    ),
    output: 'T! nil true 0.1 5 s 9007199254740992\n',
  },
  {
    name: 'interpolation: escaped braces, nesting, only an expression',
    code: 'local x = 3 print(`\\{x}`, `a{`b{x}`}c`, `{x}`)',
    output: '{x} ab3c 3\n',
  },

  // If-expressions.
  {
    name: 'if-expression evaluates only the chosen branch',
    code: lines(
      'local n = 0',
      'local function bump(v) n += 1 return v end',
      'local a = if n == 0 then bump(1) else bump(2)',
      'local b = { if n > 5 then bump("x") elseif n == 1 then bump("y") else bump("z") }',
      'print(a, b[1], n)',
    ),
    output: '1 y 2\n',
  },
  {
    name: 'if-expression keeps nil and false values',
    code: 'local yes = true print((if yes then nil else 1), (if yes then false else 1), (if not yes then 1 elseif yes then nil else 3), 1 + (if yes then 2 else 3))',
    output: 'nil false nil 3\n',
  },
  {
    name: 'if-expression inside an expression, after a call',
    code: lines(
      'local function pick(...) return select("#", ...), ... end',
      'local function id(v) return v end',
      'local yes, no, none = true, false, nil',
      'print(pick(id(1), if yes then none else 1, if no then 1 else none, if yes then no else "s", if no then none else 2))',
      'print(pick(id(1), if no then 1 elseif yes then none else 3, if no then 1 elseif no then 2 else no, if yes then 4 elseif none then 5 else 6))',
      'print(pick(id(1), if yes then 7 else none, if no then 7 else none), tostring(if yes then "a" else 1) .. (if no then "b" else "c"))',
    ),
    output: '5 1 nil nil false 2\n4 1 nil false 4\n3 ac\n',
  },
  {
    name: 'if-expression with ... in its branches',
    code: lines(
      'local function first(...) return if select("#", ...) > 0 then ... else "none" end',
      'local function second(...) local x = if ... then select(2, ...) else "none" return x end',
      'local function third(...) print(if ... then (...) .. "!" else "none", (if ... then ... else 0)) end',
      'print(first(), first(7, 8), second(1, 2), second())',
      'third("a", "b")',
    ),
    output: 'none 7 2 none\na! a\n',
  },
  {
    name: 'if-expressions computed before their statement keep its order of evaluation',
    code: lines(
      'local flag = false',
      'local function flip() flag = not flag return "called" end',
      'print(flip(), if flag then "after the call" else "before the call")',
      'local t = { flag, if flag then "yes" else "no", n = if not flag then 0 else nil }',
      'print(t[1], t[2], t.n)',
      'local list = {} list[#list + 1] = if flag then "x" else "y" print(list[1])',
    ),
    output: 'called after the call\ntrue yes nil\nx\n',
  },
  {
    name: 'if-expression reading the local it declares reads the outer one',
    code: 'local value = 5 do local value = if value > 1 then value * 2 else 0 print(value) end',
    output: '10\n',
  },

  // Types, casts, aliases, attributes and generics are erased.
  {
    name: 'types, casts, aliases, generics and attributes are erased',
    code: lines(
      'type Point = { x: number, y: number }',
      'export type Id<T> = string | T',
      'local function f<T>(a: T, b: number?): (T, number)',
      '  return a, (b or 0) :: number',
      'end',
      '@native local function g(): number return 1 end',
      'local p: Point = { x = 1, y = 2 }',
      'print((p.x :: any) + g(), f("a"))',
    ),
    output: '2 a 0\n',
  },

  {
    name: 'goto is an ordinary name in Luau',
    code: 'local goto = 1 local t = { goto = 2 } local o = { base = 10 } function o:goto(n) return self.base + n end print(goto + t.goto, o:goto(3))',
    output: '3 13\n',
  },

  // Numbers are doubles, printed as Luau prints them.
  {
    name: 'numbers are doubles',
    code: 'print(10 / 2, 2^53 + 1, 9007199254740993, 2^63, 1e308 * 10, -1e308 * 10, 0 / 0)',
    output: '5 9007199254740992 9007199254740992 9223372036854776000 inf -inf nan\n',
  },
  {
    name: '// and % on negatives and edges, with Luau formulas',
    code: lines(
      'local three, huge = 3, math.huge',
      'print(7 // 2, -7 // 2, 7 // -2, -7 % 3, 7 % -3, 5.5 % 2, -5.5 % 2, 1 // 0, -1 // 0, 5 % huge, 2^60 % three, 5 % 0)',
    ),
    output: `3 -4 -4 2 -2 1.5 0.5 inf -inf nan ${2 ** 60 - Math.floor(2 ** 60 / 3) * 3} nan\n`,
  },
  {
    name: 'integers from the libraries compute as doubles',
    code: lines(
      'local t = { 1, 2, 3 }',
      'print(#t // string.len(""), select("#", 1, 2) % 0, #t / 2, math.floor(2^62) * math.floor(4.5))',
      'print(tonumber("9007199254740993"), tonumber("0x10"), tonumber("ff", 16), math.floor(-3.5), math.ceil(1e300))',
      'print(math.maxinteger, math.type, math.tointeger)',
    ),
    output: 'inf nan 1.5 18446744073709552000\n9007199254740992 16 255 -4 1e+300\nnil nil nil\n',
  },
  {
    name: 'tostring shows the shortest round-trip digits',
    code: 'print(0.1, 1/3, 1e15, 1e16, 1e21, 123456789012345680000, 1e-5, 1e-7, -0.0, 2^-1074, 1.7976931348623157e308, 0.1 + 0.2, 100, -2.5e-10)',
    output:
      '0.1 0.3333333333333333 1000000000000000 10000000000000000 1e+21 123456789012345680000 0.00001 1e-07 -0 5e-324 1.7976931348623157e+308 0.30000000000000004 100 -2.5e-10\n',
  },
  {
    name: 'concatenation, string.format and table.concat format numbers as Luau',
    code: lines(
      'print("n=" .. 1 .. "," .. 0.1 .. "," .. 2^53 .. "," .. 1e100)',
      'print(string.format("%s|%s|%d|%.1f|%*|%*|%x|%5.2s|%%", 1, 0.5, 3.7, 2, true, 3, 255.9, "abc"))',
      'print(table.concat({ 1, 2.5, "x", 3.0 }, ","))',
    ),
    output: 'n=1,0.1,9007199254740992,1e+100\n1|0.5|3|2.0|true|3|ff|   ab|%\n1,2.5,x,3\n',
  },
  {
    name: '__concat still receives the operands',
    code: 'local v = setmetatable({}, { __concat = function(a, b) return "cat" end }) print(v .. 1, 1 .. v)',
    output: 'cat cat\n',
  },

  // Errors point at the user's line, whatever the lowering wrote.
  {
    name: 'error in a compound assignment inside a loop (line 7)',
    code: lines(
      'local t = {}',
      'local count = 0',
      'for i = 1, 3 do',
      '  if i == 1 then',
      '    continue',
      '  end',
      '  t.missing.total += i',
      'end',
    ),
    // Lua would name a field, the lowering holds the object in a local named after it.
    error: /^script:7: attempt to index a nil value \(local 'missing'\)$/,
  },
  {
    name: 'error in an interpolation (line 12)',
    code: lines(...Array.from({ length: 11 }, (_, i) => `local v${i} = ${i}`), 'print(`value {undefinedTable.field}`)'),
    error: /^script:12: attempt to index a nil value \(global 'undefinedTable'\)$/,
  },
  {
    name: 'error in the chosen branch of an if-expression (line 4)',
    code: lines('local flag = false', 'print(if flag', '  then 1', '  else missing.value)'),
    error: /^script:4: attempt to index a nil value \(global 'missing'\)$/,
  },
  {
    name: 'error in the else branch of a multi-line local if-expression (line 4)',
    code: lines('local flag = false', 'local v = if flag', '  then 1', '  else missing.value'),
    error: /^script:4: attempt to index a nil value \(global 'missing'\)$/,
  },
  {
    name: 'error in the value of a multi-line compound assignment (line 3)',
    code: lines('local t = { a = { b = 1 } }', 't.a.b +=', '  t.none.value'),
    error: /^script:3: attempt to index a nil value \(field 'none'\)$/,
  },
  {
    name: 'error in % and .. (lines 2 and 3)',
    code: lines('local ok, err = pcall(function()', '  return nil % 2', 'end) print(err)', 'print("a" .. {})'),
    output: 'script:2: attempt to perform arithmetic on a nil value\n',
    error: /^script:4: attempt to concatenate a table value$/,
  },
  {
    name: 'arithmetic error in % names the user line',
    code: lines('local x', 'local y = x % 2'),
    error: /^script:2: attempt to perform arithmetic on a nil value/,
  },
];

/**
 * Where the sandbox knowingly answers otherwise than Luau (docs/luau-in-the-sandbox.md has the
 * table): `output`/`error` is what the sandbox answers, `luau` what Luau answers.
 */
export interface LuauDifferenceCase extends LuauSemanticsCase {
  luau: string;
}

export const LUAU_DIFFERENCE_CASES: readonly LuauDifferenceCase[] = [
  {
    name: 'a % literal uses Lua 5.4 fmod, exact where Luau rounds a huge quotient',
    code: 'print(2^60 % 3)',
    output: '1\n',
    luau: '0',
  },
  {
    name: 'runtime error messages are worded by Lua 5.4',
    code: 'local t = nil\nprint(t.x)',
    error: /^script:2: attempt to index a nil value \(local 't'\)$/,
    luau: "script:2: attempt to index nil with 'x'",
  },
  {
    name: 'load and loadstring take Lua 5.4 text, not Luau',
    code: 'print(load("local x = 1 x += 1 return x"))',
    output: 'nil [string "local x = 1 x += 1 return x"]:1: syntax error near \'+\'\n',
    luau: 'function: 0x... (loadstring compiles Luau; Roblox disables it by default)',
  },
  {
    name: 'small integers from # and the libraries stay Lua integers, printing and computing as Luau',
    code: 'local n = #"abc" print(n, n / 2, n // 2, n % 2, n // 0, string.format("%5.1f", n))',
    output: '3 1.5 1 1 inf   3.0\n',
    luau: '3 1.5 1 1 inf   3.0',
  },
  {
    name: 'Luau libraries the sandbox does not have',
    code: 'print(buffer, vector, math.noise)',
    output: 'nil nil nil\n',
    luau: 'table: 0x... table: 0x... function: 0x...',
  },
  {
    name: 'string.format %s accepts any value, as Lua 5.4 does',
    code: 'print(string.format("%s %s", true, nil))',
    output: 'true nil\n',
    luau: "bad argument #2 to 'format' (string expected, got boolean)",
  },
  {
    name: 'library integer arguments must be whole numbers, as in Lua 5.4',
    code: 'print(pcall(string.sub, "abc", 1.5))',
    output: "false bad argument #2 to 'string.sub' (number has no integer representation)\n",
    luau: 'true abc (Luau truncates 1.5 to 1)',
  },
  {
    name: 'math.sinh, cosh and tanh come from exp, and may differ in the last digit',
    code: 'print(math.tanh(0.5))',
    output: '0.4621171572600098\n',
    luau: '0.46211715726000974',
  },
];
