-- Moonrelay's dry run: a small, honest emulation of a Roblox game server inside the Lua sandbox.
--
-- Runs as trusted text after lua/sandbox/prelude.lua, in the same locked-down state and under the
-- same limits (memory, instructions, deadline, output): it is plain Lua with no host function but
-- the prelude's two. sandbox/src/sandbox/run-lua.ts calls this chunk with
--   emit, limitError   the prelude's host functions (output lines; the limit that ended the run)
--   tostring           the prelude's Luau tostring
--   modules            the other modules of this folder, as loaded chunks
-- and keeps the function it returns: the driver, which takes the script's loaded chunk, runs it as
-- the game's one Script on a virtual clock (scheduler.lua) and answers a JSON report:
--   { "error": first error of any thread or absent, "summary": see summarize below }.
-- The script's own return values are dropped, as a Roblox Script's are.
--
-- What is emulated, and what raises "X is not available in a dry run", is listed in
-- docs/decisions/019-dry-runs.md.

local emit, limitError, luauTostring, modules = ...
-- The script shares these globals and may replace them; the emulation keeps the originals.
local pairs, ipairs, next, type, tostring, tonumber, select = pairs, ipairs, next, type, tostring, tonumber, select
local error, pcall, setmetatable, getmetatable, rawget = error, pcall, setmetatable, getmetatable, rawget
local table, string, math, coroutine, os = table, string, math, coroutine, os

local G = _G
local load, rawset = load, rawset

-- Game seconds a dry run covers at most: a game loop that never ends stops here, not at a limit.
local GAME_SECONDS = 60
-- The summary stays short: this many changed properties are listed, the rest counted.
local MAX_CHANGES = 50
local MAX_TEXT = 200
local MAX_ERROR = 8192

local dry = { emit = emit, limitError = limitError, tostring = luauTostring, typeNames = {} }

function dry.notAvailable(what, level)
  error(what .. " is not available in a dry run", (level or 1) + 1)
end

local instancesModule
function dry.typeof(value)
  local kind = type(value)
  if kind == "table" then
    if instancesModule and instancesModule.is(value) then
      return "Instance"
    end
    local meta = getmetatable(value)
    local name = type(meta) == "table" and dry.typeNames[meta]
    if name then
      return name
    end
  end
  return kind
end

dry.json = modules.json()
dry.scheduler = modules.scheduler(dry)
dry.signals = modules.signals(dry)
local enums = modules.enums(dry)
dry.enums = enums
dry.Enum = enums.Enum
dry.datatypes = modules.datatypes(dry)
instancesModule = modules.instances(dry)
dry.instances = instancesModule
dry.announce = modules.classes(dry).announce
local world = modules.world(dry)

local scheduler, datatypes, instances = dry.scheduler, dry.datatypes, dry.instances

---------------------------------------------------------------------------------------------------
-- Globals

-- A library table the script can read but not change (the prelude locks its own the same way).
local function library(name, contents)
  return setmetatable({}, {
    __index = contents,
    __newindex = function(_, key)
      error(string.format("attempt to modify a readonly table (%s.%s)", name, tostring(key)), 2)
    end,
    __metatable = "The metatable is locked",
  })
end

local START_TIME = 1767225600

G.game = world.game
G.Game = world.game
G.workspace = world.workspace
G.Workspace = world.workspace
G.Instance = instances.Instance
G.Enum = dry.Enum
for _, name in ipairs({ "Vector3", "Vector2", "CFrame", "Color3", "UDim", "UDim2", "BrickColor", "Random", "TweenInfo",
  "NumberRange" }) do
  G[name] = library(name, datatypes[name])
end
G.shared = {}

G.typeof = function(...)
  if select("#", ...) == 0 then
    error("missing argument #1 to 'typeof'", 2)
  end
  return dry.typeof((...))
end

G.task = library("task", {
  wait = scheduler.wait,
  spawn = scheduler.spawn,
  delay = scheduler.delay,
  defer = scheduler.defer,
  cancel = scheduler.cancel,
  synchronize = function() end,
  desynchronize = function() end,
})
G.wait = function(seconds)
  local waited = scheduler.wait(seconds)
  return waited, scheduler.now()
end
G.spawn = function(fn)
  scheduler.delay(0, fn)
end
G.delay = function(seconds, fn)
  scheduler.delay(seconds, fn)
end
G.tick = function()
  return START_TIME + scheduler.now()
end
G.time = scheduler.now
G.elapsedTime = scheduler.now

-- os.clock, os.time and os.date read the game's clock, so timings agree with task.wait.
local realDate, realTime = os.date, os.time
local function osTime(fields)
  if fields ~= nil then
    return realTime(fields)
  end
  return START_TIME + math.floor(scheduler.now())
end
G.os = library("os", {
  clock = scheduler.now,
  time = osTime,
  date = function(format, at)
    return realDate(format, at or osTime())
  end,
  difftime = os.difftime,
})

-- The Script the code runs as, in ServerScriptService.
instances.define("Script", "Instance", {
  properties = { Disabled = { kind = "boolean", default = false }, Enabled = { kind = "boolean", default = true } },
})
do
  local script, scriptSelf = instances.new("Script", false)
  scriptSelf.name = "Script"
  instances.setParent(scriptSelf, world.services.ServerScriptService)
  G.script = script
end

G.require = function(target)
  dry.notAvailable("require(" .. (instances.is(target) and instances.fullName(instances.state(target)) or "...") .. ")", 2)
end

-- loadstring works (a dry run is a server with LoadStringEnabled). Each chunk it makes reads and
-- writes its globals through a box, so setfenv can point that chunk at another table, which is
-- what Luau's setfenv does; Lua 5.4 functions have no environment of their own to change.
local boxes = setmetatable({}, { __mode = "k" })

G.loadstring = function(source, chunkName)
  if type(source) ~= "string" then
    error("bad argument #1 to 'loadstring' (string expected, got " .. dry.typeof(source) .. ")", 2)
  end
  local box = { target = G }
  local environment = setmetatable({}, {
    __index = function(_, key)
      return box.target[key]
    end,
    __newindex = function(_, key, value)
      box.target[key] = value
    end,
  })
  local fn, message = load(source, chunkName or source, "t", environment)
  if fn then
    boxes[fn] = box
  end
  return fn, message
end

G.setfenv = function(target, environment)
  if type(environment) ~= "table" then
    error("bad argument #2 to 'setfenv' (table expected, got " .. dry.typeof(environment) .. ")", 2)
  end
  local box = boxes[target]
  if not box then
    dry.notAvailable("setfenv on a function that loadstring did not make", 2)
  end
  box.target = environment
  return target
end

G.getfenv = function(target)
  local box = type(target) == "function" and boxes[target]
  if box then
    return box.target
  end
  return G
end

---------------------------------------------------------------------------------------------------
-- The summary

local function clip(text)
  if #text > MAX_TEXT then
    return string.sub(text, 1, MAX_TEXT) .. "..."
  end
  return text
end

local function describe(value)
  if instances.is(value) then
    return clip(instances.fullName(instances.state(value)))
  elseif type(value) == "string" then
    return clip(string.format("%q", value))
  end
  local ok, text = pcall(luauTostring, value)
  return clip(ok and text or dry.typeof(value))
end

local function byClass(counts)
  local list = {}
  for className, count in pairs(counts) do
    list[#list + 1] = { className = className, count = count }
  end
  table.sort(list, function(a, b)
    if a.count ~= b.count then
      return a.count > b.count
    end
    return a.className < b.className
  end)
  return list
end

local function summarize(result)
  local record = dry.record
  local changed = {}
  for index = 1, math.min(#record.changeOrder, MAX_CHANGES) do
    local entry = record.changeOrder[index]
    changed[index] = {
      instance = clip(instances.fullName(entry.self)),
      property = entry.key,
      value = describe(instances.read(entry.self, entry.key)),
    }
  end
  return {
    created = byClass(record.created),
    destroyed = byClass(record.destroyed),
    changed = changed,
    changedOmitted = math.max(0, #record.changeOrder - MAX_CHANGES),
    propertiesSet = record.propertiesSet,
    gameSeconds = scheduler.now(),
    waitingThreads = scheduler.waitingCount(),
    endedBy = result.endedBy,
  }
end

-- The driver: runs the script's chunk in the emulated game and answers the JSON report.
return function(chunk)
  local result = scheduler.run(chunk, world.playerJoins, GAME_SECONDS)
  local errorText = result.error
  if errorText and #errorText > MAX_ERROR then
    errorText = string.sub(errorText, 1, MAX_ERROR) .. "..."
  end
  return dry.json.encode({ error = errorText, summary = summarize(result) })
end
