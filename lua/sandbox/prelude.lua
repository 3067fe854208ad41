-- Moonrelay sandbox prelude.
--
-- Runs as trusted text in every fresh Lua state of the sandbox (sandbox/src/sandbox/run-lua.ts), after
-- the allowlisted libraries are opened and before the user's script. It:
--   * removes what a script must not reach: dofile, loadfile, string.dump, and every os function but
--     clock, time, date and difftime;
--   * wraps the base functions that would open a hole: load/loadstring take text only, collectgarbage
--     answers "count" only, setmetatable refuses __gc (Lua runs finalizers with hooks off, so a
--     looping finalizer could never be stopped), rawset refuses the library tables;
--   * makes pcall, xpcall, coroutine.resume, coroutine.close and load pass a sandbox limit on instead
--     of catching it, so a script cannot swallow the end of its own run;
--   * bounds the C loops that no hook can interrupt: string.rep of an empty string, table.move over
--     more than 2^24 slots, positional table.insert/remove on tables whose length comes from __len;
--   * adds the Luau functions Roblox scripts expect: table.find/clear/create, string.split,
--     math.clamp/sign/round and Luau's other math functions, bit32, typeof, task.wait/spawn, and
--     Luau-style print, warn and tostring;
--   * makes numbers behave as Luau's doubles: printed by Luau's rule, library results as doubles,
--     string.format/table.concat formatting as Luau, Lua-only integer functions removed;
--   * publishes the helpers that scripts lowered from Luau call (lua/luau/lower.ts) under the global
--     __luau_runtime, which the script's first line takes and removes;
--   * then locks the library tables (read-only proxies with locked metatables) and the string metatable.
--
-- The host hands over its two functions as chunk arguments, so they are never globals:
--   emit(kind, text)   appends one output line (kind 0 print, 1 warn, 2 error of a spawned thread);
--                      raises the output limit once the output is full
--   limitError(err)    the message of the sandbox limit that ended this run, or nil; it also notices
--                      a refused allocation ("not enough memory") and makes it end the run
-- It returns the Luau-style tostring, which the host uses for return values and error objects.
--
-- Wrappers check their arguments before calling the real function: an error raised inside the real
-- function would carry the wrapper's position ("prelude:120:") instead of the script's line. The
-- few errors that cannot be checked beforehand are caught and raised again (rethrow).

local emit, limitError = ...

local G = _G
local type, select, error, next, rawget, tonumber = type, select, error, next, rawget, tonumber
local tostring, setmetatable, getmetatable, rawset = tostring, setmetatable, getmetatable, rawset
local pcall, xpcall, load, collectgarbage = pcall, xpcall, load, collectgarbage
local create, resume, close = coroutine.create, coroutine.resume, coroutine.close
local format, sub, find, byte, rep = string.format, string.sub, string.find, string.byte, string.rep
local concat, pack, insert, remove, move = table.concat, table.pack, table.insert, table.remove, table.move
local mathType, toInteger, floor, ceil, huge = math.type, math.tointeger, math.floor, math.ceil, math.huge
local maxInteger = math.maxinteger
local match, gsub, random, unpack = string.match, string.gsub, math.random, table.unpack

local LOCKED_METATABLE = "The metatable is locked"
-- Slots a C loop may walk in one call: no real table that long fits in the memory cap.
local MAX_MOVE = 1 << 24
-- No string longer than this fits in the WASM memory, whatever the cap.
local MAX_STRING = 1 << 31

local function badArgument(position, name, message)
  return format("bad argument #%d to '%s' (%s)", position, name, message)
end

-- The checks raise at level 3: check -> library function -> the script that called it.
local function checkTable(value, position, name)
  if type(value) ~= "table" then
    error(badArgument(position, name, "table expected, got " .. type(value)), 3)
  end
  return value
end

-- `level` is for a check called through another check (default 3, see above).
local function checkNumber(value, position, name, level)
  local number = (type(value) == "number" or type(value) == "string") and tonumber(value) or nil
  if number == nil then
    error(badArgument(position, name, "number expected, got " .. type(value)), level or 3)
  end
  return number
end

local function checkInteger(value, position, name)
  local number = (type(value) == "number" or type(value) == "string") and tonumber(value) or nil
  if number == nil then
    error(badArgument(position, name, "number expected, got " .. type(value)), 3)
  end
  local integer = toInteger(number)
  if integer == nil then
    error(badArgument(position, name, "number has no integer representation"), 3)
  end
  return integer
end

local function checkString(value, position, name)
  if type(value) == "number" then
    return tostring(value)
  elseif type(value) ~= "string" then
    error(badArgument(position, name, "string expected, got " .. type(value)), 3)
  end
  return value
end

-- The end of a pcall around a real function whose own errors cannot be checked beforehand (they
-- carry no position, as pcall called it): a sandbox limit goes on as the limit; any other error is
-- raised again at `level` (2 when a wrapper tail-calls this: the script that called the wrapper).
local function rethrow(level, ok, ...)
  if ok then
    return ...
  end
  local message = ...
  local limit = limitError(message)
  if limit then
    error(limit, 0)
  end
  error(message, level)
end

-- A caught failure that is a sandbox limit is raised again: the run is over.
local function passLimits(ok, ...)
  if not ok then
    local limit = limitError((...))
    if limit then
      error(limit, 0)
    end
  end
  return ok, ...
end

-- Luau prints a number as its shortest round-trip digits (Schubfach, VM/src/lnumprint.cpp), in
-- fixed notation while the decimal point falls from 5 places before the first digit to 21 after it
-- (0.00001, 1e+21 -> "1e+21", 1e15 -> "1000000000000000", 1e-7 -> "1e-07"), "inf", "-inf", and "nan"
-- for every NaN. Integers (from # or the libraries) print as the doubles they stand for.
local MIN_NORMAL = 2.2250738585072014e-308
local TWO_53 = 2 ^ 53
local SHORTEST_FORMATS = { "%.15g", "%.16g", "%.17g" }

-- The general case: the shortest digits and where the decimal point goes, laid out as Luau does.
local function layOutNumber(number)
  local text
  -- A normal double needs at most 17 digits; if 15 round-trip, the 15-digit rounding with its
  -- trailing zeros cut is the shortest. Subnormals may need fewer, so they try every length.
  local first = (number > -MIN_NORMAL and number < MIN_NORMAL) and 0 or 14
  for precision = first, 16 do
    text = format("%." .. precision .. "e", number)
    if tonumber(text) == number then
      break
    end
  end
  local sign, lead, fraction, exponent = match(text, "^(-?)(%d)%.?(%d*)e([-+]%d+)$")
  local digits = gsub(lead .. fraction, "0+$", "")
  local length = #digits
  local dot = tonumber(exponent) + 1
  if dot >= -5 and dot <= 21 then
    if dot <= 0 then
      return sign .. "0." .. rep("0", -dot) .. digits
    elseif dot >= length then
      return sign .. digits .. rep("0", dot - length)
    end
    return sign .. sub(digits, 1, dot) .. "." .. sub(digits, dot + 1)
  end
  local mantissa = length > 1 and sub(digits, 1, 1) .. "." .. sub(digits, 2) or digits
  local power = dot - 1
  return format("%s%se%s%02d", sign, mantissa, power < 0 and "-" or "+", power < 0 and -power or power)
end

local function formatNumber(number)
  -- Whole numbers below 2^53 (the common case) print their digits; -0 does not come this way.
  local integer = toInteger(number)
  if integer ~= nil and integer < TWO_53 and integer > -TWO_53 and (integer ~= 0 or 1 / number > 0) then
    return integer .. ""
  end
  -- Between 1e-4 and 1e15, %g writes fixed notation at every precision up to 17, which is Luau's
  -- text once the precision is the shortest that round-trips.
  local magnitude = number < 0 and -number or number
  if magnitude >= 1e-4 and magnitude < 1e15 then
    local text = format("%.15g", number)
    if tonumber(text) == number then
      return text
    end
    text = format("%.16g", number)
    if tonumber(text) == number then
      return text
    end
    return format("%.17g", number)
  end
  if mathType(number) == "integer" then
    number = number + 0.0
  end
  if number ~= number then
    return "nan"
  elseif number == huge then
    return "inf"
  elseif number == -huge then
    return "-inf"
  elseif number == 0 then
    return 1 / number < 0 and "-0" or "0"
  elseif number > -MIN_NORMAL and number < MIN_NORMAL then
    return layOutNumber(number)
  end
  -- %g with the shortest precision that round-trips: when it chose fixed notation, its text is
  -- Luau's (Luau's fixed range is wider); otherwise lay the digits out as Luau does.
  for i = 1, 3 do
    local text = format(SHORTEST_FORMATS[i], number)
    if tonumber(text) == number then
      if find(text, "e", 1, true) == nil then
        return text
      end
      break
    end
  end
  return layOutNumber(number)
end

local function luauTostring(value)
  local kind = type(value)
  if kind == "number" then
    return formatNumber(value)
  elseif kind == "string" then
    return value
  elseif kind == "table" and getmetatable(value) ~= nil then
    -- __tostring is the script's own: its errors keep their position, tostring's own have none.
    return rethrow(0, pcall(tostring, value))
  end
  return tostring(value)
end

local function joinArguments(...)
  local count = select("#", ...)
  if count == 1 then
    return luauTostring((...))
  end
  local parts = pack(...)
  for i = 1, count do
    parts[i] = luauTostring(parts[i])
  end
  return concat(parts, " ", 1, count)
end

---------------------------------------------------------------------------------------------------
-- The base library, reduced and wrapped.

G.dofile = nil
G.loadfile = nil

G.print = function(...)
  emit(0, joinArguments(...))
end

G.warn = function(...)
  emit(1, joinArguments(...))
end

G.tostring = function(...)
  if select("#", ...) == 0 then
    error(badArgument(1, "tostring", "value expected"), 2)
  end
  return luauTostring((...))
end

G.typeof = function(...)
  if select("#", ...) == 0 then
    error("missing argument #1 to 'typeof'", 2)
  end
  return type((...))
end

G.pcall = function(f, ...)
  return passLimits(pcall(f, ...))
end

-- The script's error handler runs only while the run goes on. Once a limit is raised, Lua calls the
-- handler again with the limit's message, and when the hook raised it that call runs with hooks off:
-- a handler that loops there could never be stopped. So after a limit, the handler is skipped and
-- the limit goes on; before one, it runs under the hook and counts against the budget like any code.
local function guardHandler(handler)
  return function(message)
    if limitError(message) then
      return message
    end
    return handler(message)
  end
end

G.xpcall = function(f, handler, ...)
  if type(handler) ~= "function" then
    error(badArgument(2, "xpcall", "function expected, got " .. type(handler)), 2)
  end
  return passLimits(xpcall(f, guardHandler(handler), ...))
end

-- Text chunks only: a chunk that starts with ESC (precompiled bytecode) is refused, and the mode is
-- always "t", so a reader function cannot hand over bytecode either.
local function sandboxLoad(chunk, chunkname, _mode, ...)
  local kind = type(chunk)
  if kind ~= "string" and kind ~= "function" then
    error(badArgument(1, "load", "string or function expected, got " .. kind), 2)
  elseif chunkname ~= nil and type(chunkname) ~= "string" and type(chunkname) ~= "number" then
    error(badArgument(2, "load", "string expected, got " .. type(chunkname)), 2)
  elseif kind == "string" and byte(chunk, 1) == 27 then
    return nil, "binary chunks are not allowed in the sandbox (load accepts text only)"
  end
  local fn, message
  if select("#", ...) > 0 then
    fn, message = load(chunk, chunkname, "t", (...))
  else
    fn, message = load(chunk, chunkname, "t")
  end
  if fn == nil then
    local limit = limitError(message)
    if limit then
      error(limit, 0)
    end
  end
  return fn, message
end
G.load = sandboxLoad
G.loadstring = sandboxLoad

G.collectgarbage = function(option)
  if option == "count" then
    return collectgarbage("count")
  end
  error(format("collectgarbage: option '%s' is not allowed in the sandbox (only \"count\")", tostring(option or "collect")), 2)
end

G.setmetatable = function(t, ...)
  if type(t) ~= "table" then
    error(badArgument(1, "setmetatable", "table expected, got " .. type(t)), 2)
  end
  local metatable = ...
  local kind = type(metatable)
  if select("#", ...) == 0 or (kind ~= "table" and kind ~= "nil") then
    error(badArgument(2, "setmetatable", "nil or table expected"), 2)
  elseif kind == "table" and rawget(metatable, "__gc") ~= nil then
    error("setmetatable: __gc metamethods are not supported in the sandbox (as in Luau)", 2)
  elseif getmetatable(t) ~= nil then
    -- The current metatable may be protected by __metatable; only the real function can tell.
    return rethrow(2, pcall(setmetatable, t, metatable))
  end
  return setmetatable(t, metatable)
end

local readOnly = {}

G.rawset = function(t, ...)
  if type(t) ~= "table" then
    error(badArgument(1, "rawset", "table expected, got " .. type(t)), 2)
  elseif readOnly[t] then
    error("attempt to modify a readonly table", 2)
  elseif select("#", ...) < 2 then
    error(badArgument(select("#", ...) + 2, "rawset", "value expected"), 2)
  end
  return rawset(t, ...)
end

---------------------------------------------------------------------------------------------------
-- Library additions and bounds (added to the real tables, before they are locked).

string.dump = nil

string.rep = function(s, n, sep)
  s = checkString(s, 1, "rep")
  n = checkInteger(n, 2, "rep")
  if sep ~= nil then
    sep = checkString(sep, 3, "rep")
  end
  local unit = #s + (sep and #sep or 0)
  -- Lua would copy "" n times in a C loop no hook can interrupt; the answer is "" anyway.
  if n <= 0 or unit == 0 then
    return ""
  elseif unit > MAX_STRING // n then
    error("resulting string too large", 2)
  end
  return rep(s, n, sep)
end

-- Luau: splits by a plain separator (default ","), keeping empty segments; "" splits into bytes.
string.split = function(s, separator)
  s = checkString(s, 1, "split")
  separator = separator == nil and "," or checkString(separator, 2, "split")
  local parts = {}
  if separator == "" then
    for i = 1, #s do
      parts[i] = sub(s, i, i)
    end
    return parts
  end
  local count, start = 0, 1
  while true do
    local first, last = find(s, separator, start, true)
    if first == nil then
      break
    end
    count = count + 1
    parts[count] = sub(s, start, first - 1)
    start = last + 1
  end
  parts[count + 1] = sub(s, start)
  return parts
end

-- Luau: the index of the first element equal to needle, scanning from init until the first nil.
table.find = function(haystack, ...)
  checkTable(haystack, 1, "find")
  if select("#", ...) == 0 then
    error("missing argument #2 to 'find'", 2)
  end
  local needle, init = ...
  local index = init == nil and 1 or checkInteger(init, 3, "find")
  if index < 1 then
    error(badArgument(3, "find", "index out of range"), 2)
  end
  while true do
    local value = rawget(haystack, index)
    if value == nil then
      return nil
    elseif value == needle then
      return index
    end
    index = index + 1
  end
end

table.clear = function(t)
  checkTable(t, 1, "clear")
  if readOnly[t] then
    error("attempt to modify a readonly table", 2)
  end
  for key in next, t do
    rawset(t, key, nil)
  end
end

table.create = function(count, value)
  count = checkInteger(count, 1, "create")
  if count < 0 then
    error(badArgument(1, "create", "size out of range"), 2)
  end
  local t = {}
  if value ~= nil then
    for i = 1, count do
      t[i] = value
    end
  end
  return t
end

table.move = function(a1, f, e, t, a2)
  checkTable(a1, 1, "move")
  local first, last, target = checkInteger(f, 2, "move"), checkInteger(e, 3, "move"), checkInteger(t, 4, "move")
  if a2 ~= nil then
    checkTable(a2, 5, "move")
  end
  if last >= first then
    local span = last - first -- wraps below zero when the range is wider than the integers
    if span < 0 or span >= MAX_MOVE then
      error(badArgument(3, "move", format("more than %d elements to move in the sandbox", MAX_MOVE)), 2)
    elseif target > maxInteger - span then
      error(badArgument(4, "move", "destination wrap around"), 2)
    end
  end
  return move(a1, first, last, target, a2)
end

-- A table with a metatable may report any length through __len; C would then shift that many
-- slots without ever reaching a hook. Those tables are shifted here, in Lua, where the hook counts,
-- and no further than MAX_MOVE slots.
local function hasMetatable(t)
  return getmetatable(t) ~= nil
end

table.insert = function(t, ...)
  checkTable(t, 1, "insert")
  local count = select("#", ...)
  if count == 1 then
    return insert(t, ...)
  elseif count ~= 2 then
    error("wrong number of arguments to 'insert'", 2)
  end
  local position, value = ...
  position = checkInteger(position, 2, "insert")
  local size = #t + 1
  if position < 1 or position > size then
    error(badArgument(2, "insert", "position out of bounds"), 2)
  elseif not hasMetatable(t) then
    return insert(t, position, value)
  elseif size - position > MAX_MOVE then
    error(badArgument(2, "insert", format("more than %d elements to shift in the sandbox", MAX_MOVE)), 2)
  end
  for i = size, position + 1, -1 do
    t[i] = t[i - 1]
  end
  t[position] = value
end

table.remove = function(t, ...)
  checkTable(t, 1, "remove")
  if select("#", ...) == 0 then
    return remove(t)
  end
  local position = checkInteger((...), 2, "remove")
  local size = #t
  if position ~= size and (position < 1 or position > size + 1) then
    error(badArgument(2, "remove", "position out of bounds"), 2)
  elseif not hasMetatable(t) then
    return remove(t, position)
  elseif size - position > MAX_MOVE then
    error(badArgument(2, "remove", format("more than %d elements to shift in the sandbox", MAX_MOVE)), 2)
  end
  local value = t[position]
  while position < size do
    t[position] = t[position + 1]
    position = position + 1
  end
  t[position] = nil
  return value
end

math.clamp = function(x, min, max)
  x, min, max = checkNumber(x, 1, "clamp"), checkNumber(min, 2, "clamp"), checkNumber(max, 3, "clamp")
  if min > max then
    error(badArgument(3, "clamp", "max must be greater than or equal to min"), 2)
  end
  if x < min then
    return min
  elseif x > max then
    return max
  end
  return x
end

math.sign = function(x)
  x = checkNumber(x, 1, "sign")
  if x > 0 then
    return 1
  elseif x < 0 then
    return -1
  end
  return 0
end

-- Half away from zero, like C's round (math.floor(x + 0.5) is wrong for 0.49999999999999994).
math.round = function(x)
  x = checkNumber(x, 1, "round")
  if x >= 0 then
    local whole = floor(x)
    return x - whole >= 0.5 and whole + 1 or whole
  elseif x < 0 then
    local whole = ceil(x)
    return whole - x >= 0.5 and whole - 1 or whole
  end
  return x -- nan
end

-- Luau's bit32 (VM/src/lbitlib.cpp): numbers are truncated toward zero and taken modulo 2^32, shift
-- counts truncated; results are doubles from 0 to 2^32 - 1.
local MASK32 = 0xFFFFFFFF

local function truncate(number)
  return toInteger(number >= 0 and floor(number) or ceil(number)) or 0
end

local function checkUnsigned(value, position, name)
  return truncate(checkNumber(value, position, name, 4)) & MASK32
end

-- `level`: 4 from a library function, 5 through fieldArguments.
local function checkWhole(value, position, name, level)
  return truncate(checkNumber(value, position, name, level or 4))
end

local function shift(r, i)
  if i < 0 then
    return i <= -32 and 0.0 or (r >> -i) + 0.0
  end
  return i >= 32 and 0.0 or ((r << i) & MASK32) + 0.0
end

local function rotate(r, i)
  i = i & 31
  if i ~= 0 then
    r = ((r << i) | (r >> (32 - i))) & MASK32
  end
  return r + 0.0
end

local function fieldArguments(name, position, field, width)
  field = checkWhole(field, position, name, 5)
  width = width == nil and 1 or checkWhole(width, position + 1, name, 5)
  if field < 0 then
    error(badArgument(position, name, "field cannot be negative"), 3)
  elseif width <= 0 then
    error(badArgument(position + 1, name, "width must be positive"), 3)
  elseif field + width > 32 then
    error("trying to access non-existent bits", 3)
  end
  return field, (1 << width) - 1
end

local bit32 = {}

-- Folds the arguments with `combine`; called directly as the library function (error levels).
local function fold(name, initial, combine)
  return function(...)
    local result = initial
    for i = 1, select("#", ...) do
      result = combine(result, checkUnsigned((select(i, ...)), i, name))
    end
    return result + 0.0
  end
end
bit32.band = fold("band", MASK32, function(a, b)
  return a & b
end)
bit32.bor = fold("bor", 0, function(a, b)
  return a | b
end)
bit32.bxor = fold("bxor", 0, function(a, b)
  return a ~ b
end)
bit32.btest = function(...)
  local result = MASK32
  for i = 1, select("#", ...) do
    result = result & checkUnsigned((select(i, ...)), i, "btest")
  end
  return result ~= 0
end
bit32.bnot = function(x)
  return (~checkUnsigned(x, 1, "bnot") & MASK32) + 0.0
end
bit32.lshift = function(x, disp)
  return shift(checkUnsigned(x, 1, "lshift"), checkWhole(disp, 2, "lshift"))
end
bit32.rshift = function(x, disp)
  return shift(checkUnsigned(x, 1, "rshift"), -checkWhole(disp, 2, "rshift"))
end
bit32.arshift = function(x, disp)
  local r, i = checkUnsigned(x, 1, "arshift"), checkWhole(disp, 2, "arshift")
  if i < 0 or r & 0x80000000 == 0 then
    return shift(r, -i)
  elseif i >= 32 then
    return MASK32 + 0.0
  end
  return (((r >> i) | ~(MASK32 >> i)) & MASK32) + 0.0
end
bit32.lrotate = function(x, disp)
  return rotate(checkUnsigned(x, 1, "lrotate"), checkWhole(disp, 2, "lrotate"))
end
bit32.rrotate = function(x, disp)
  return rotate(checkUnsigned(x, 1, "rrotate"), -checkWhole(disp, 2, "rrotate"))
end
bit32.extract = function(n, field, width)
  local r = checkUnsigned(n, 1, "extract")
  local f, mask = fieldArguments("extract", 2, field, width)
  return ((r >> f) & mask) + 0.0
end
bit32.replace = function(n, v, field, width)
  local r, value = checkUnsigned(n, 1, "replace"), checkUnsigned(v, 2, "replace")
  local f, mask = fieldArguments("replace", 3, field, width)
  return (((r & ~(mask << f)) | ((value & mask) << f)) & MASK32) + 0.0
end
bit32.countlz = function(n)
  local v = checkUnsigned(n, 1, "countlz")
  for i = 0, 31 do
    if v & (1 << (31 - i)) ~= 0 then
      return i + 0.0
    end
  end
  return 32.0
end
bit32.countrz = function(n)
  local v = checkUnsigned(n, 1, "countrz")
  for i = 0, 31 do
    if v & (1 << i) ~= 0 then
      return i + 0.0
    end
  end
  return 32.0
end
bit32.byteswap = function(n)
  local v = checkUnsigned(n, 1, "byteswap")
  return (((v << 24) | ((v << 8) & 0xFF0000) | ((v >> 8) & 0xFF00) | (v >> 24)) & MASK32) + 0.0
end

-- Roblox's scheduler does not exist here. task.wait does not sleep: it returns the requested
-- seconds clamped to 0..1 at once, so scripts written for a game keep running (a loop that waits
-- forever is ended by the instruction limit). task.spawn runs f at once in a new coroutine; an
-- error in it is written to the output and the caller carries on, as in Roblox; a spawned thread
-- that yields is never resumed.
local task = {}

task.wait = function(seconds)
  if seconds == nil then
    return 0
  end
  seconds = checkNumber(seconds, 1, "wait")
  if seconds > 1 then
    return 1
  elseif seconds >= 0 then
    return seconds
  end
  return 0
end

task.spawn = function(f, ...)
  local thread = f
  if type(f) == "function" then
    thread = create(f)
  elseif type(f) ~= "thread" then
    error(badArgument(1, "spawn", "function or thread expected, got " .. type(f)), 2)
  end
  local ok, message = resume(thread, ...)
  if not ok then
    local limit = limitError(message)
    if limit then
      error(limit, 0)
    end
    emit(2, luauTostring(message))
  end
  return thread
end

coroutine.resume = function(co, ...)
  if type(co) ~= "thread" then
    error(badArgument(1, "resume", "coroutine expected, got " .. type(co)), 2)
  end
  return passLimits(resume(co, ...))
end

coroutine.close = function(co)
  if type(co) ~= "thread" then
    error(badArgument(1, "close", "coroutine expected, got " .. type(co)), 2)
  end
  -- Closing a running or normal coroutine raises; rethrow puts that error at the script's line.
  return passLimits(rethrow(3, pcall(close, co)))
end

local os = {
  clock = os.clock,
  time = os.time,
  date = os.date,
  difftime = os.difftime,
}

---------------------------------------------------------------------------------------------------
-- Luau's numbers are doubles. Scripts are lowered from Luau (lua/luau/lower.ts) with every literal
-- a Lua float, so arithmetic stays in doubles; the library functions that answer Lua integers of any
-- size are made to answer doubles too (small integers from #, string.len, select("#") ... print and
-- compute exactly as the doubles they equal). Lua 5.4's integer-only functions are not in Luau.

math.type, math.tointeger, math.ult, math.maxinteger, math.mininteger = nil, nil, nil, nil, nil

math.floor = function(x)
  return floor(checkNumber(x, 1, "floor")) + 0.0
end

math.ceil = function(x)
  return ceil(checkNumber(x, 1, "ceil")) + 0.0
end

-- Lua 5.4's fmod raises on two integers with a zero divisor; Luau's answers nan.
local fmod = math.fmod
math.fmod = function(x, y)
  return fmod(checkNumber(x, 1, "fmod") + 0.0, checkNumber(y, 2, "fmod") + 0.0)
end

-- Luau's math functions that Lua 5.4 does not have (VM/src/lmathlib.cpp); math.noise is not here.
local exp, log, atan = math.exp, math.log, math.atan
math.atan2 = function(y, x)
  return atan(checkNumber(y, 1, "atan2"), checkNumber(x, 2, "atan2"))
end
math.pow = function(x, y)
  return checkNumber(x, 1, "pow") ^ checkNumber(y, 2, "pow")
end
math.log10 = function(x)
  return log(checkNumber(x, 1, "log10"), 10)
end
math.sinh = function(x)
  x = checkNumber(x, 1, "sinh")
  return (exp(x) - exp(-x)) / 2
end
math.cosh = function(x)
  x = checkNumber(x, 1, "cosh")
  return (exp(x) + exp(-x)) / 2
end
math.tanh = function(x)
  x = checkNumber(x, 1, "tanh")
  if x > 20 then
    return 1.0
  elseif x < -20 then
    return -1.0
  end
  local a, b = exp(x), exp(-x)
  return (a - b) / (a + b)
end
-- m * 2^e in two steps: 2^e alone overflows (2^1024) or underflows before m can scale it.
local function scaleByPowerOfTwo(m, e)
  local half = e // 2
  return m * 2.0 ^ half * 2.0 ^ (e - half)
end
math.ldexp = function(m, e)
  return scaleByPowerOfTwo(checkNumber(m, 1, "ldexp") + 0.0, checkInteger(e, 2, "ldexp"))
end
math.frexp = function(x)
  x = checkNumber(x, 1, "frexp") + 0.0
  if x == 0 or x ~= x or x == huge or x == -huge then
    return x, 0.0
  end
  local e = floor(log(x < 0 and -x or x, 2)) + 1
  local m = scaleByPowerOfTwo(x, -e)
  -- log can be off by one near a power of two: bring |m| into [0.5, 1).
  if m >= 1 or m <= -1 then
    m, e = m / 2, e + 1
  elseif m < 0.5 and m > -0.5 then
    m, e = m * 2, e - 1
  end
  return m, e + 0.0
end
math.lerp = function(a, b, t)
  a, b, t = checkNumber(a, 1, "lerp"), checkNumber(b, 2, "lerp"), checkNumber(t, 3, "lerp")
  return t == 1 and b + 0.0 or a + (b - a) * t
end
math.map = function(x, inMin, inMax, outMin, outMax)
  x, inMin, inMax = checkNumber(x, 1, "map"), checkNumber(inMin, 2, "map"), checkNumber(inMax, 3, "map")
  outMin, outMax = checkNumber(outMin, 4, "map"), checkNumber(outMax, 5, "map")
  return outMin + (x - inMin) * (outMax - outMin) / (inMax - inMin)
end
math.isnan = function(x)
  x = checkNumber(x, 1, "isnan")
  return x ~= x
end
math.isinf = function(x)
  x = checkNumber(x, 1, "isinf")
  return x == huge or x == -huge
end
math.isfinite = function(x)
  x = checkNumber(x, 1, "isfinite")
  return x == x and x ~= huge and x ~= -huge
end

math.random = function(...)
  local count = select("#", ...)
  if count == 0 then
    return random()
  end
  local m, n = ...
  m = checkInteger(m, 1, "random")
  if count == 1 then
    if m < 1 then
      error(badArgument(1, "random", "interval is empty"), 2)
    end
    return random(m) + 0.0
  end
  n = checkInteger(n, 2, "random")
  if m > n then
    error(badArgument(2, "random", "interval is empty"), 2)
  end
  return random(m, n) + 0.0
end

G.tonumber = function(...)
  local value, base = ...
  local number
  if base == nil then
    if select("#", ...) == 0 then
      error(badArgument(1, "tonumber", "value expected"), 2)
    end
    number = tonumber(value)
  else
    number = rethrow(2, pcall(tonumber, value, base))
  end
  return number and number + 0.0
end

-- A library function called through pcall does not know its name ("bad argument #2 to '?'").
local function named(name, ok, ...)
  if not ok and type((...)) == "string" then
    return false, (gsub((...), "^(bad argument #%d+ to )'%?'", "%1'" .. name .. "'"))
  end
  return ok, ...
end

-- string.format as Luau's: %s and %* show numbers as Luau prints them (%* any value, as tostring),
-- and %d/%i/%c/%o/%u/%x/%X take any number, truncated toward zero.
local INTEGER_CONVERSIONS = { d = true, i = true, c = true, o = true, u = true, x = true, X = true }
string.format = function(pattern, ...)
  pattern = checkString(pattern, 1, "format")
  local args, count = nil, select("#", ...)
  local parts, copied = {}, 1
  local position, index = 1, 0
  while true do
    local percent = find(pattern, "%", position, true)
    if percent == nil then
      break
    end
    local spec, conversion = match(pattern, "^([-+ #0]*%d*%.?%d*)(.?)", percent + 1)
    position = percent + 1 + #spec + #conversion
    if conversion ~= "%" or spec ~= "" then
      index = index + 1
      local value, replaced = select(index, ...), false
      if conversion == "*" and spec == "" and index <= count then
        -- %* is Luau's: any value, as tostring shows it.
        parts[#parts + 1] = sub(pattern, copied, percent - 1)
        parts[#parts + 1] = "%s"
        copied = position
        value, replaced = luauTostring(value), true
      elseif conversion == "s" and type(value) == "number" then
        value, replaced = formatNumber(value), true
      elseif INTEGER_CONVERSIONS[conversion] and type(value) == "number" and value == value and value ~= floor(value) then
        value, replaced = value >= 0 and floor(value) or ceil(value), true
      end
      if replaced then
        args = args or pack(...)
        args[index] = value
      end
    end
  end
  if copied > 1 then
    parts[#parts + 1] = sub(pattern, copied)
    pattern = concat(parts)
  end
  if args then
    return rethrow(2, named("format", pcall(format, pattern, unpack(args, 1, count))))
  end
  return rethrow(2, named("format", pcall(format, pattern, ...)))
end

-- table.concat shows numbers as Luau prints them.
table.concat = function(list, separator, first, last)
  checkTable(list, 1, "concat")
  separator = separator == nil and "" or checkString(separator, 2, "concat")
  first = first == nil and 1 or checkInteger(first, 3, "concat")
  last = last == nil and #list or checkInteger(last, 4, "concat")
  if last - first >= MAX_MOVE then
    error(badArgument(4, "concat", format("more than %d elements to join in the sandbox", MAX_MOVE)), 2)
  end
  local parts = {}
  for i = first, last do
    local value = list[i]
    local kind = type(value)
    if kind == "number" then
      value = formatNumber(value)
    elseif kind ~= "string" then
      error(format("invalid value (at index %d) in table for 'concat'", i), 2)
    end
    parts[i - first + 1] = value
  end
  return concat(parts, separator)
end

-- The helpers lowered scripts call (lua/luau/lower.ts, HELPERS, by their one-letter names). The script's first
-- line takes them through this global, which that call removes.

-- A concatenation operand: a number as Luau prints it; anything else unchanged (for __concat).
-- A whole number below 2^53 is handed back as a Lua integer, which concatenation prints itself
-- (the same digits, without building a string here).
local function concatOperand(value)
  local kind = mathType(value)
  if kind == nil then
    return value
  end
  local integer = kind == "integer" and value or toInteger(value)
  if integer ~= nil and integer < TWO_53 and integer > -TWO_53 and (integer ~= 0 or 1 / value > 0) then
    return integer
  end
  return formatNumber(value)
end

-- An arithmetic operand that is not a number: a numeric string converts (as in Luau); a value with
-- a metatable goes to its metamethod; anything else is the script's error, at the script's line.
local function arithmeticOperands(a, b)
  local x, y = a, b
  if type(x) == "string" then
    x = tonumber(x)
  end
  if type(y) == "string" then
    y = tonumber(y)
  end
  if type(x) == "number" and type(y) == "number" then
    return x, y
  end
  if (type(a) == "table" and getmetatable(a) ~= nil) or (type(b) == "table" and getmetatable(b) ~= nil) then
    return nil
  end
  local bad = type(x) == "number" and b or a
  error(format("attempt to perform arithmetic on a %s value", type(bad)), 3)
end

-- Luau: a % b = a - floor(a / b) * b on doubles.
local function luauMod(a, b)
  if type(a) ~= "number" or type(b) ~= "number" then
    local x, y = arithmeticOperands(a, b)
    if x == nil then
      return a % b
    end
    a, b = x, y
  end
  return a - ((a + 0.0) // b) * b
end

-- Luau: a // b = floor(a / b) on doubles (two Lua integers would raise on zero).
local function luauIdiv(a, b)
  if type(a) ~= "number" or type(b) ~= "number" then
    local x, y = arithmeticOperands(a, b)
    if x == nil then
      return a // b
    end
    a, b = x, y
  end
  return (a + 0.0) // b
end

-- if-expressions: `c and box(v) or e` keeps a nil or false v; unbox restores it. The markers are
-- functions, which no script value equals and which have no __eq.
local BOXED_NIL = function() end
local BOXED_FALSE = function() end
local function box(value)
  if value == nil then
    return BOXED_NIL
  elseif value == false then
    return BOXED_FALSE
  end
  return value
end
local function unbox(value)
  if value == BOXED_NIL then
    return nil
  elseif value == BOXED_FALSE then
    return false
  end
  return value
end

-- obj:goto(...) for method names Lua reserves.
local function invoke(object, name, ...)
  return object[name](object, ...)
end

-- Generalized iteration: `for k, v in t do` walks a table as next does (the array part in order,
-- then the rest), a table whose metatable has __iter answers that iterator, and a function (pairs,
-- ipairs, a custom iterator) or a callable value is used as Lua uses it.
local function iterate(value, state, control)
  if type(value) == "function" then
    return value, state, control
  end
  local metatable = getmetatable(value)
  if type(metatable) == "table" then
    local iter = rawget(metatable, "__iter")
    if iter ~= nil then
      return iter(value)
    end
    if rawget(metatable, "__call") ~= nil then
      return value, state, control
    end
  end
  if type(value) == "table" then
    return next, value, nil
  end
  error("attempt to iterate over a " .. type(value) .. " value", 2)
end

local HELPERS = {
  E = iterate,
  S = concatOperand,
  T = luauTostring,
  M = luauMod,
  D = luauIdiv,
  N = box,
  U = unbox,
  I = invoke,
}

-- Answers the helpers named, in order; called once, by the lowered script's first line.
G.__luau_runtime = function(...)
  G.__luau_runtime = nil
  local helpers = pack(...)
  for i = 1, helpers.n do
    helpers[i] = HELPERS[helpers[i]]
  end
  return unpack(helpers, 1, helpers.n)
end

---------------------------------------------------------------------------------------------------
-- Lock the libraries. Each global library becomes an empty proxy whose metatable reads from the
-- real table, refuses writes and cannot be fetched or replaced; rawset refuses the proxies.

local function lockLibrary(name, library)
  local proxy = {}
  setmetatable(proxy, {
    __index = library,
    __newindex = function(_, key)
      error(format("attempt to modify a readonly table (%s.%s)", name, tostring(key)), 2)
    end,
    -- pairs(string) lists the library without handing out the real table.
    __pairs = function()
      local key
      return function()
        local value
        key, value = next(library, key)
        return key, value
      end
    end,
    __metatable = LOCKED_METATABLE,
  })
  readOnly[proxy] = true
  return proxy
end

G.string = lockLibrary("string", string)
G.table = lockLibrary("table", table)
G.math = lockLibrary("math", math)
G.utf8 = lockLibrary("utf8", utf8)
G.coroutine = lockLibrary("coroutine", coroutine)
G.os = lockLibrary("os", os)
G.task = lockLibrary("task", task)
G.bit32 = lockLibrary("bit32", bit32)

-- Methods on strings ("x"):rep(3) read the real string table, which nothing else hands out.
-- getmetatable("") now answers a string, so nothing writable is exposed.
getmetatable("").__metatable = LOCKED_METATABLE

return luauTostring
