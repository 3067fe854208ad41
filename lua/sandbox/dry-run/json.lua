-- JSON as Roblox's HttpService:JSONEncode and :JSONDecode do it, for the dry run (and the test
-- game server of server/test/roblox-emulation, which loads this file too).
--
-- Encode: a table whose keys are exactly 1..n is an array (an empty table is []); one with string
-- keys only is an object; anything else (mixed keys, functions, NaN or infinity) raises, as Roblox
-- refuses it too. Numbers that are whole print without a fraction (Luau has only doubles).
-- Decode: null becomes nil, whole numbers become integers, so values read back the way Luau shows them.

local json = {}
-- The script shares these globals and may replace them; the emulation keeps the originals.
local pairs, ipairs, next, type, tostring, tonumber, select = pairs, ipairs, next, type, tostring, tonumber, select
local error, pcall, setmetatable, getmetatable, rawget = error, pcall, setmetatable, getmetatable, rawget
local table, string, math, coroutine, os = table, string, math, coroutine, os

local ESCAPES = {
  ['"'] = '\\"',
  ["\\"] = "\\\\",
  ["\b"] = "\\b",
  ["\f"] = "\\f",
  ["\n"] = "\\n",
  ["\r"] = "\\r",
  ["\t"] = "\\t",
}

local function encodeString(text)
  return '"' .. string.gsub(text, '[%c"\\]', function(char)
    return ESCAPES[char] or string.format("\\u%04x", string.byte(char))
  end) .. '"'
end

-- A finite number's shortest text that reads back as the same double, as Luau writes numbers
-- (the emulation's tostring uses it too).
function json.shortestNumber(number)
  for _, format in ipairs({ "%.14g", "%.15g", "%.16g" }) do
    local text = string.format(format, number)
    if tonumber(text) == number then
      return text
    end
  end
  return string.format("%.17g", number)
end

local function encodeNumber(number)
  if number ~= number or number == math.huge or number == -math.huge then
    error("Can't convert to JSON: NaN and infinity have no JSON form", 0)
  end
  if number == math.floor(number) and math.abs(number) < 2 ^ 53 then
    return string.format("%d", number)
  end
  return json.shortestNumber(number)
end

local encodeValue

local function encodeTable(value, seen)
  if seen[value] then
    error("Can't convert to JSON: the table contains itself", 0)
  end
  seen[value] = true
  local count, stringKeys, otherKeys = 0, 0, 0
  for key in pairs(value) do
    count = count + 1
    if type(key) == "string" then
      stringKeys = stringKeys + 1
    else
      otherKeys = otherKeys + 1
    end
  end
  local parts = {}
  if count == 0 or (otherKeys == count and #value == count) then
    for index = 1, #value do
      parts[index] = encodeValue(value[index], seen)
    end
    seen[value] = nil
    return "[" .. table.concat(parts, ",") .. "]"
  end
  if stringKeys ~= count then
    error("Can't convert to JSON: a table mixes array and object keys", 0)
  end
  local keys = {}
  for key in pairs(value) do
    table.insert(keys, key)
  end
  -- Sorted, so the same table always encodes the same way (Roblox's order is unspecified).
  table.sort(keys)
  for _, key in ipairs(keys) do
    table.insert(parts, encodeString(key) .. ":" .. encodeValue(value[key], seen))
  end
  seen[value] = nil
  return "{" .. table.concat(parts, ",") .. "}"
end

function encodeValue(value, seen)
  local kind = type(value)
  if kind == "nil" then
    return "null"
  elseif kind == "boolean" then
    return tostring(value)
  elseif kind == "number" then
    return encodeNumber(value)
  elseif kind == "string" then
    return encodeString(value)
  elseif kind == "table" then
    return encodeTable(value, seen)
  end
  error("Can't convert to JSON: a " .. kind .. " value", 0)
end

function json.encode(value)
  return encodeValue(value, {})
end

-- Decoding: a recursive descent over the text; `at` is the index of the next character.

local decodeValue

local function fail(at, what)
  error("Can't parse JSON: " .. what .. " at character " .. tostring(at), 0)
end

local function skipSpace(text, at)
  return (string.find(text, "[^ \t\r\n]", at)) or (#text + 1)
end

local function codepointToUtf8(text, at, code)
  -- A UTF-16 surrogate pair arrives as two \u escapes.
  if code >= 0xD800 and code <= 0xDBFF then
    local low = string.match(text, "^\\u(%x%x%x%x)", at)
    if not low then
      fail(at, "an unpaired surrogate")
    end
    code = 0x10000 + (code - 0xD800) * 0x400 + (tonumber(low, 16) - 0xDC00)
    return utf8.char(code), at + 6
  end
  return utf8.char(code), at
end

local SIMPLE_ESCAPES = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }

local function decodeString(text, at)
  local parts = {}
  local position = at + 1
  while true do
    local stop = string.find(text, '["\\%c]', position)
    if not stop then
      fail(at, "an unterminated string")
    end
    table.insert(parts, string.sub(text, position, stop - 1))
    local char = string.sub(text, stop, stop)
    if char == '"' then
      return table.concat(parts), stop + 1
    elseif char == "\\" then
      local escape = string.sub(text, stop + 1, stop + 1)
      if escape == "u" then
        local hex = string.match(text, "^%x%x%x%x", stop + 2)
        if not hex then
          fail(stop, "a bad \\u escape")
        end
        local decoded, after = codepointToUtf8(text, stop + 6, tonumber(hex, 16))
        table.insert(parts, decoded)
        position = after
      elseif SIMPLE_ESCAPES[escape] then
        table.insert(parts, SIMPLE_ESCAPES[escape])
        position = stop + 2
      else
        fail(stop, "a bad escape")
      end
    else
      fail(stop, "a control character in a string")
    end
  end
end

local function decodeNumber(text, at)
  local literal = string.match(text, "^-?%d+%.?%d*[eE]?[-+]?%d*", at)
  local number = literal and tonumber(literal)
  if not number then
    fail(at, "a bad number")
  end
  -- Where Lua has integers (the test game server), whole numbers become integers; the sandbox, like
  -- Luau, has only doubles (its prelude removes math.tointeger).
  local toInteger = math.tointeger
  return toInteger and toInteger(number) or number, at + #literal
end

local function decodeArray(text, at)
  local array = {}
  local position = skipSpace(text, at + 1)
  if string.sub(text, position, position) == "]" then
    return array, position + 1
  end
  local index = 0
  while true do
    local value
    value, position = decodeValue(text, position)
    index = index + 1
    array[index] = value
    position = skipSpace(text, position)
    local char = string.sub(text, position, position)
    if char == "]" then
      return array, position + 1
    elseif char ~= "," then
      fail(position, "',' or ']' expected")
    end
    position = skipSpace(text, position + 1)
  end
end

local function decodeObject(text, at)
  local object = {}
  local position = skipSpace(text, at + 1)
  if string.sub(text, position, position) == "}" then
    return object, position + 1
  end
  while true do
    if string.sub(text, position, position) ~= '"' then
      fail(position, "a key expected")
    end
    local key, value
    key, position = decodeString(text, position)
    position = skipSpace(text, position)
    if string.sub(text, position, position) ~= ":" then
      fail(position, "':' expected")
    end
    value, position = decodeValue(text, skipSpace(text, position + 1))
    object[key] = value
    position = skipSpace(text, position)
    local char = string.sub(text, position, position)
    if char == "}" then
      return object, position + 1
    elseif char ~= "," then
      fail(position, "',' or '}' expected")
    end
    position = skipSpace(text, position + 1)
  end
end

local LITERALS = { ["true"] = true, ["false"] = false }

function decodeValue(text, at)
  local char = string.sub(text, at, at)
  if char == "{" then
    return decodeObject(text, at)
  elseif char == "[" then
    return decodeArray(text, at)
  elseif char == '"' then
    return decodeString(text, at)
  elseif char == "-" or string.match(char, "%d") then
    return decodeNumber(text, at)
  end
  for literal, value in pairs(LITERALS) do
    if string.sub(text, at, at + #literal - 1) == literal then
      return value, at + #literal
    end
  end
  if string.sub(text, at, at + 3) == "null" then
    return nil, at + 4
  end
  fail(at, "a value expected")
end

function json.decode(text)
  if type(text) ~= "string" then
    error("Can't parse JSON: a string is needed, got " .. type(text), 0)
  end
  local value, position = decodeValue(text, skipSpace(text, 1))
  if skipSpace(text, position) <= #text then
    fail(position, "text after the value")
  end
  return value
end

return json
