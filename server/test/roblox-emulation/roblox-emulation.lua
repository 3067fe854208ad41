-- A small Roblox game server for tests, on plain Lua 5.4 (wasmoon).
--
-- Not the dry run users get (lua/sandbox/dry-run, docs/decisions/019-dry-runs.md): that one runs in
-- the locked-down sandbox with no network and a virtual clock. This one does real HTTP to a real
-- Moonrelay server, in real (scaled) time, in an unrestricted state; both use the dry run's json.lua.
--
-- Enough of Roblox's server-side API for Moonrelay's integration scripts: game (JobId, PlaceId,
-- GameId, GetService), HttpService (HttpEnabled, JSON, RequestAsync/GetAsync/PostAsync doing real
-- HTTP through the host), Players with one player whose Character has a HumanoidRootPart and a
-- Humanoid, Vector3 and CFrame (positions only), task.wait/spawn/delay/defer/cancel, loadstring,
-- setfenv/getfenv, Luau's print/warn/tostring/typeof, DateTime.now, and a few Luau library
-- functions. The output as Roblox reports it to scripts: LogService.MessageOut fires for every
-- print (MessageOutput), warn (MessageWarning) and uncaught error (MessageError, then the stack as
-- MessageInfo lines "Stack Begin", "Script '<name>', Line <n>", "Stack End"), and
-- ScriptContext.Error(message, stackTrace, script) for every uncaught error; both signals are
-- deferred (their handlers run after the thread that logged yields, as with Roblox's deferred
-- signal behaviour), and a handler runs for the script that connected it. Reading or
-- writing a member Roblox does not have raises Roblox's own message, so a script that works here
-- does not lean on something the emulation invented.
--
-- The host (emulated-game.ts) runs this chunk once with:
--   host.now()                        the clock, in emulated seconds (held still while Lua runs)
--   host.emit(kind, text)             one output line: "print", "warn", "error" or "info"
--   host.epochMs()                    the wall clock (Unix milliseconds), for DateTime.now
--   host.http(id, method, url, headersJson, body)
--                                     starts a request; the answer comes back through control.deliver
--   host.source(name)                 the text of a sibling module (json, scheduler)
--   optionsJson                       the game's settings (see emulated-game.ts)
-- and drives the game through the control table this chunk returns.

local host, optionsJson = ...

local globals = _G
local rawTostring, rawLoad, debugLibrary = tostring, load, debug

local function import(name, ...)
  local chunk = assert(rawLoad(host.source(name), "@" .. name .. ".lua", "t"))
  return chunk(...)
end

local json = import("json")
local options = json.decode(optionsJson)

---------------------------------------------------------------------------------------------------
-- Luau's tostring, print and warn

-- Luau has only doubles and prints them in their shortest round-trip form: 3.0 prints as 3.
local function formatNumber(number)
  if math.type(number) == "integer" then
    return rawTostring(number)
  elseif number ~= number then
    return "nan"
  elseif number == math.huge then
    return "inf"
  elseif number == -math.huge then
    return "-inf"
  end
  return json.shortestNumber(number)
end

local function luauTostring(value)
  if type(value) == "number" then
    return formatNumber(value)
  end
  return rawTostring(value)
end

local function joinArguments(...)
  local parts = {}
  for index = 1, select("#", ...) do
    parts[index] = luauTostring((select(index, ...)))
  end
  return table.concat(parts, " ")
end

-- Writes one line of output and tells LogService.MessageOut (defined with the services below).
local logMessage

tostring = luauTostring
function print(...)
  logMessage("print", joinArguments(...))
end
function warn(...)
  logMessage("warn", joinArguments(...))
end

-- Reports a thread's uncaught error (defined with the services below).
local reportError

-- A thread that runs this many seconds without waiting is stopped, like Roblox's script timeout.
local scheduler = import("scheduler", host.now, function(thread, message)
  reportError(thread, message)
end, options.maxRunSeconds or 2)

---------------------------------------------------------------------------------------------------
-- The globals Roblox has and plain Lua does not, and the ones it lacks

_VERSION = "Luau"
unpack = table.unpack
-- Not in Luau (and io, os.exit or os.execute have no place in a game server).
load, dofile, loadfile, require, io, package = nil, nil, nil, nil, nil, nil
string.dump = nil
os = { time = os.time, date = os.date, difftime = os.difftime, clock = host.now }
-- Roblox's debug library has traceback but none of the introspection used below for setfenv.
debug = { traceback = debugLibrary.traceback }

function table.find(list, value, init)
  for index = init or 1, #list do
    if list[index] == value then
      return index
    end
  end
  return nil
end

function table.clear(list)
  for key in pairs(list) do
    list[key] = nil
  end
end

function string.split(text, separator)
  separator = separator or ","
  local parts = {}
  local start = 1
  while true do
    local from, to = string.find(text, separator, start, true)
    if not from then
      table.insert(parts, string.sub(text, start))
      return parts
    end
    table.insert(parts, string.sub(text, start, from - 1))
    start = to + 1
  end
end

function math.clamp(value, low, high)
  return math.min(math.max(value, low), high)
end

function math.round(value)
  return value >= 0 and math.floor(value + 0.5) or math.ceil(value - 0.5)
end

function math.sign(value)
  return value > 0 and 1 or (value < 0 and -1 or 0)
end

function typeof(value)
  local meta = getmetatable(value)
  if type(meta) == "table" and rawget(meta, "__type") then
    return rawget(meta, "__type")
  end
  return type(value)
end

---------------------------------------------------------------------------------------------------
-- task and the older globals

task = {
  wait = scheduler.sleep,
  spawn = scheduler.spawn,
  delay = scheduler.delay,
  cancel = scheduler.cancel,
  defer = scheduler.defer,
}

function wait(seconds)
  local waited = scheduler.sleep(seconds)
  return waited, host.now()
end
spawn = function(fn)
  return scheduler.delay(0, fn)
end
delay = scheduler.delay
tick = host.now
time = host.now
elapsedTime = host.now

---------------------------------------------------------------------------------------------------
-- loadstring, setfenv and getfenv
--
-- Lua 5.4 has no function environments: a function sees its globals through its _ENV upvalue. So
-- setfenv points that upvalue at the new table (debug.upvaluejoin), which is what Luau's setfenv
-- means for a function fresh from loadstring; a function that uses no globals has no _ENV and
-- nothing to change. A stack level instead of a function is not emulated.

local loadStringEnabled = options.loadStringEnabled ~= false

function loadstring(source, chunkName)
  if not loadStringEnabled then
    error("loadstring() is not available", 2)
  end
  if type(source) ~= "string" then
    error("bad argument #1 to 'loadstring' (string expected, got " .. type(source) .. ")", 2)
  end
  -- Text only, with the globals as its environment; the chunk name defaults to the source as in Luau.
  return rawLoad(source, chunkName, "t", globals)
end

local function environmentUpvalue(fn)
  local index = 1
  while true do
    local name = debugLibrary.getupvalue(fn, index)
    if name == nil then
      return nil
    elseif name == "_ENV" then
      return index
    end
    index = index + 1
  end
end

function setfenv(target, environment)
  if type(target) ~= "function" then
    error("setfenv: the emulation takes a function, not " .. type(target), 2)
  end
  if type(environment) ~= "table" then
    error("bad argument #2 to 'setfenv' (table expected, got " .. type(environment) .. ")", 2)
  end
  local index = environmentUpvalue(target)
  if index then
    debugLibrary.upvaluejoin(target, index, function()
      return environment
    end, 1)
  end
  return target
end

function getfenv(target)
  local fn = target
  if target == nil or type(target) == "number" then
    local level = target or 1
    if level == 0 then
      return globals
    end
    local info = debugLibrary.getinfo(level + 1, "f")
    if not info then
      error("bad argument #1 to 'getfenv' (invalid level)", 2)
    end
    fn = info.func
  end
  local index = type(fn) == "function" and environmentUpvalue(fn)
  if index then
    local _, environment = debugLibrary.getupvalue(fn, index)
    return environment
  end
  return globals
end

---------------------------------------------------------------------------------------------------
-- Data types: Vector3 and CFrame (position only: rotation is not emulated)

local Vector3Meta = { __type = "Vector3" }
Vector3 = {}

function Vector3.new(x, y, z)
  return setmetatable({ X = x or 0, Y = y or 0, Z = z or 0 }, Vector3Meta)
end

Vector3Meta.__index = function(vector, key)
  if key == "Magnitude" then
    return math.sqrt(vector.X * vector.X + vector.Y * vector.Y + vector.Z * vector.Z)
  end
  error(tostring(key) .. " is not a valid member of Vector3", 2)
end
Vector3Meta.__newindex = function(_, key)
  error(tostring(key) .. " cannot be assigned to", 2)
end
Vector3Meta.__add = function(a, b)
  return Vector3.new(a.X + b.X, a.Y + b.Y, a.Z + b.Z)
end
Vector3Meta.__sub = function(a, b)
  return Vector3.new(a.X - b.X, a.Y - b.Y, a.Z - b.Z)
end
Vector3Meta.__mul = function(a, b)
  if type(a) == "number" then
    a, b = b, a
  end
  if type(b) == "number" then
    return Vector3.new(a.X * b, a.Y * b, a.Z * b)
  end
  return Vector3.new(a.X * b.X, a.Y * b.Y, a.Z * b.Z)
end
Vector3Meta.__eq = function(a, b)
  return a.X == b.X and a.Y == b.Y and a.Z == b.Z
end
Vector3Meta.__tostring = function(vector)
  return luauTostring(vector.X) .. ", " .. luauTostring(vector.Y) .. ", " .. luauTostring(vector.Z)
end
Vector3.zero = Vector3.new(0, 0, 0)
Vector3.one = Vector3.new(1, 1, 1)

local CFrameMeta = { __type = "CFrame" }
CFrame = {}

function CFrame.new(x, y, z)
  local position
  if typeof(x) == "Vector3" then
    position = x
  else
    position = Vector3.new(x, y, z)
  end
  return setmetatable({ Position = position, X = position.X, Y = position.Y, Z = position.Z }, CFrameMeta)
end

CFrameMeta.__index = function(_, key)
  error(tostring(key) .. " is not a valid member of CFrame (the emulation models positions only)", 2)
end
CFrameMeta.__newindex = Vector3Meta.__newindex
CFrameMeta.__add = function(frame, offset)
  return CFrame.new(frame.Position + offset)
end
CFrameMeta.__tostring = function(frame)
  return tostring(frame.Position) .. ", 1, 0, 0, 0, 1, 0, 0, 0, 1"
end

local function enumItem(enumType, name, value)
  return setmetatable({ Name = name, Value = value, EnumType = enumType }, {
    __type = "EnumItem",
    __tostring = function()
      return "Enum." .. enumType .. "." .. name
    end,
  })
end

Enum = {
  MessageType = {
    MessageOutput = enumItem("MessageType", "MessageOutput", 0),
    MessageInfo = enumItem("MessageType", "MessageInfo", 1),
    MessageWarning = enumItem("MessageType", "MessageWarning", 2),
    MessageError = enumItem("MessageType", "MessageError", 3),
  },
  HttpContentType = {
    ApplicationJson = { Name = "ApplicationJson", mime = "application/json" },
    ApplicationUrlEncoded = { Name = "ApplicationUrlEncoded", mime = "application/x-www-form-urlencoded" },
    TextPlain = { Name = "TextPlain", mime = "text/plain" },
    TextXml = { Name = "TextXml", mime = "text/xml" },
  },
}

---------------------------------------------------------------------------------------------------
-- Signals (events): Connect and Wait

local SignalMeta = { __type = "RBXScriptSignal" }
SignalMeta.__index = SignalMeta

-- deferred: handlers run after the thread that fired yields (Roblox's deferred signal behaviour).
local function newSignal(deferred)
  return setmetatable({ handlers = {}, waiting = {}, deferred = deferred == true }, SignalMeta)
end

function SignalMeta:Connect(handler)
  local connection = { Connected = true }
  function connection.Disconnect()
    connection.Connected = false
  end
  -- The handler runs for the script that connected it.
  table.insert(self.handlers, { handler = handler, connection = connection, script = scheduler.currentScript() })
  return connection
end

function SignalMeta:Wait()
  table.insert(self.waiting, scheduler.current())
  return scheduler.suspend()
end

local function fire(signal, ...)
  for _, entry in ipairs(signal.handlers) do
    if entry.connection.Connected then
      if signal.deferred then
        scheduler.deferAs(entry.script, entry.handler, ...)
      else
        scheduler.spawnAs(entry.script, entry.handler, ...)
      end
    end
  end
  local waiting = signal.waiting
  signal.waiting = {}
  for _, thread in ipairs(waiting) do
    if signal.deferred then
      scheduler.resumeAt(thread, -math.huge, ...)
    else
      scheduler.resume(thread, ...)
    end
  end
end

---------------------------------------------------------------------------------------------------
-- Instances
--
-- An instance is an empty proxy table; its state lives in `internals`. Reading a member looks at
-- the class's properties, then its methods, then a child of that name, as Roblox does.

local internals = setmetatable({}, { __mode = "k" })
local InstanceMeta = { __type = "Instance" }

local function state(instance)
  return internals[instance]
end

local function memberError(instance, key)
  local self = state(instance)
  return tostring(key) .. " is not a valid member of " .. self.className .. ' "' .. self.name .. '"'
end

InstanceMeta.__index = function(instance, key)
  local self = state(instance)
  if key == "Name" then
    return self.name
  elseif key == "ClassName" then
    return self.className
  elseif key == "Parent" then
    return self.parent
  elseif self.properties[key] ~= nil then
    return self.values[key]
  elseif self.methods[key] then
    return self.methods[key]
  end
  for _, child in ipairs(self.children) do
    if state(child).name == key then
      return child
    end
  end
  error(memberError(instance, key), 2)
end

InstanceMeta.__newindex = function(instance, key, value)
  local self = state(instance)
  local kind = self.properties[key]
  if key == "Name" then
    self.name = tostring(value)
  elseif key == "Parent" then
    self.setParent(value)
  elseif kind == "readonly" then
    error("Unable to assign property " .. key .. ". Property is read only", 2)
  elseif kind == nil then
    error(memberError(instance, key), 2)
  elseif self.setters[key] then
    self.setters[key](value)
  else
    self.values[key] = value
  end
end

InstanceMeta.__tostring = function(instance)
  return state(instance).name
end

-- Methods check that they were called with ':' (Roblox's message when called with '.').
local function method(name, fn)
  return function(instance, ...)
    if internals[instance] == nil then
      error("Expected ':' not '.' calling member function " .. name, 2)
    end
    return fn(instance, ...)
  end
end

local baseMethods = {}

baseMethods.FindFirstChild = method("FindFirstChild", function(instance, name)
  for _, child in ipairs(state(instance).children) do
    if state(child).name == name then
      return child
    end
  end
  return nil
end)

baseMethods.FindFirstChildOfClass = method("FindFirstChildOfClass", function(instance, className)
  for _, child in ipairs(state(instance).children) do
    if state(child).className == className then
      return child
    end
  end
  return nil
end)

baseMethods.IsA = method("IsA", function(instance, className)
  local self = state(instance)
  return className == "Instance" or self.className == className or self.ancestors[className] == true
end)

baseMethods.FindFirstChildWhichIsA = method("FindFirstChildWhichIsA", function(instance, className)
  for _, child in ipairs(state(instance).children) do
    if child:IsA(className) then
      return child
    end
  end
  return nil
end)

baseMethods.Destroy = method("Destroy", function(instance)
  state(instance).setParent(nil)
  state(instance).destroyed = true
end)

baseMethods.GetChildren = method("GetChildren", function(instance)
  return table.move(state(instance).children, 1, #state(instance).children, 1, {})
end)

-- The names from the DataModel down, without the DataModel: "ServerScriptService.Script".
baseMethods.GetFullName = method("GetFullName", function(instance)
  local names = {}
  local current = instance
  while current and state(current).className ~= "DataModel" do
    table.insert(names, 1, state(current).name)
    current = state(current).parent
  end
  return table.concat(names, ".")
end)

baseMethods.WaitForChild = method("WaitForChild", function(instance, name, timeout)
  local waited = 0
  while true do
    local child = instance:FindFirstChild(name)
    if child or (timeout and waited >= timeout) then
      return child
    end
    waited = waited + scheduler.sleep(0.1)
  end
end)

-- spec: { className, name, isA = { "BasePart", ... }, properties = { Name = "readonly" | true },
-- values = { ... }, setters = { ... }, methods = { ... } }
local function newInstance(spec)
  local instance = setmetatable({}, InstanceMeta)
  local self = {
    className = spec.className,
    name = spec.name or spec.className,
    parent = nil,
    children = {},
    ancestors = {},
    properties = spec.properties or {},
    values = spec.values or {},
    setters = spec.setters or {},
    methods = setmetatable(spec.methods or {}, { __index = baseMethods }),
  }
  for _, className in ipairs(spec.isA or {}) do
    self.ancestors[className] = true
  end
  function self.setParent(parent)
    if self.parent then
      local siblings = state(self.parent).children
      local index = table.find(siblings, instance)
      if index then
        table.remove(siblings, index)
      end
    end
    self.parent = parent
    if parent then
      table.insert(state(parent).children, instance)
    end
  end
  internals[instance] = self
  return instance, self
end

---------------------------------------------------------------------------------------------------
-- The world: game, Workspace, the player and their character

local game = newInstance({
  className = "DataModel",
  name = "Game",
  properties = { JobId = "readonly", PlaceId = "readonly", GameId = "readonly", CreatorId = "readonly" },
  values = {
    JobId = options.jobId or "",
    PlaceId = options.placeId or 0,
    GameId = options.gameId or 0,
    CreatorId = 0,
  },
})

local Workspace = newInstance({ className = "Workspace", name = "Workspace", isA = { "Model" } })
Workspace.Parent = game

local ServerScriptService = newInstance({ className = "ServerScriptService", name = "ServerScriptService" })
ServerScriptService.Parent = game

local deaths = 0

local function newCharacter(playerName, spec)
  local character = newInstance({
    className = "Model",
    name = playerName,
    properties = { PrimaryPart = true },
    methods = {},
  })
  local root = newInstance({
    className = "Part",
    name = "HumanoidRootPart",
    isA = { "BasePart" },
    properties = { Position = true, CFrame = true, Anchored = true },
    values = { Anchored = false },
  })
  local rootState = state(root)
  local function place(position)
    rootState.values.Position = position
    rootState.values.CFrame = CFrame.new(position)
  end
  local position = spec.position or {}
  place(Vector3.new(position.x or 0, position.y or 0, position.z or 0))
  rootState.setters.Position = function(value)
    place(value)
  end
  rootState.setters.CFrame = function(value)
    place(value.Position)
  end
  root.Parent = character

  local died = newSignal()
  local humanoid, humanoidState = newInstance({
    className = "Humanoid",
    name = "Humanoid",
    properties = { Health = true, MaxHealth = true, WalkSpeed = true, JumpPower = true, Died = "readonly" },
    values = {
      MaxHealth = spec.maxHealth or 100,
      Health = spec.health or spec.maxHealth or 100,
      WalkSpeed = spec.walkSpeed or 16,
      JumpPower = 50,
      Died = died,
    },
  })
  local values = humanoidState.values
  -- Health stays within 0..MaxHealth; reaching 0 kills the character once (Died fires).
  humanoidState.setters.Health = function(value)
    local wasAlive = values.Health > 0
    values.Health = math.clamp(tonumber(value) or 0, 0, values.MaxHealth)
    if wasAlive and values.Health <= 0 then
      deaths = deaths + 1
      fire(died)
    end
  end
  humanoidState.setters.MaxHealth = function(value)
    values.MaxHealth = math.max(tonumber(value) or 0, 0)
    values.Health = math.min(values.Health, values.MaxHealth)
  end
  humanoidState.setters.WalkSpeed = function(value)
    values.WalkSpeed = math.max(tonumber(value) or 0, 0)
  end
  humanoid.Parent = character

  local characterState = state(character)
  characterState.values.PrimaryPart = root
  characterState.methods.PivotTo = method("PivotTo", function(_, frame)
    if typeof(frame) ~= "CFrame" then
      error("Unable to cast " .. typeof(frame) .. " to CoordinateFrame", 3)
    end
    place(frame.Position)
  end)
  characterState.methods.GetPivot = method("GetPivot", function()
    return CFrame.new(rootState.values.Position)
  end)
  character.Parent = Workspace
  return character, root, humanoid
end

local Players = newInstance({
  className = "Players",
  name = "Players",
  properties = {
    PlayerAdded = "readonly",
    PlayerRemoving = "readonly",
    LocalPlayer = "readonly",
    BanningEnabled = "readonly",
  },
  values = { PlayerAdded = newSignal(), PlayerRemoving = newSignal(), BanningEnabled = options.banningEnabled ~= false },
})
Players.Parent = game

local playersState = state(Players)
playersState.methods.GetPlayers = method("GetPlayers", function()
  return Players:GetChildren()
end)
playersState.methods.GetPlayerByUserId = method("GetPlayerByUserId", function(_, userId)
  for _, player in ipairs(Players:GetChildren()) do
    if player.UserId == userId then
      return player
    end
  end
  return nil
end)

-- Roblox's Ban API (Players:BanAsync, UnbanAsync). Each call is recorded for the host
-- (control.moderation) and yields a moment, as the real calls do. options.banFailures maps a user
-- id to the error Roblox gives for that player: a call with such players fails, its error one
-- message per failing player joined by newlines (the others in the call are applied).
local moderation = { bans = {}, unbans = {}, kicks = {} }
local function checkBanConfig(config, name)
  if type(config) ~= "table" or type(config.UserIds) ~= "table" then
    error("Players:" .. name .. " expects a config table with UserIds", 3)
  end
  if #config.UserIds > 50 then
    error("Players:" .. name .. ": UserIds holds at most 50 ids", 3)
  end
  if not playersState.values.BanningEnabled then
    error("Players:" .. name .. " failed: BanningEnabled is false for this place", 3)
  end
end
local function banCall(config, name, into)
  checkBanConfig(config, name)
  scheduler.sleep(0)
  local failures = {}
  for _, userId in ipairs(config.UserIds) do
    local failure = (options.banFailures or {})[tostring(userId)]
    if failure then
      table.insert(failures, "UserId " .. tostring(userId) .. ": " .. failure)
    end
  end
  table.insert(into, config)
  return failures
end
local function raiseFailures(failures)
  if #failures > 0 then
    error(table.concat(failures, "\n"), 0)
  end
end
playersState.methods.BanAsync = method("BanAsync", function(_, config)
  if config and (config.Duration == 0 or (type(config.Duration) == "number" and config.Duration < -1)) then
    error("Players:BanAsync: Duration must be -1 or a positive number of seconds", 2)
  end
  local failures = banCall(config, "BanAsync", moderation.bans)
  -- A banned player in this server is removed from it, as Roblox does.
  for _, userId in ipairs(config.UserIds) do
    local player = Players:GetPlayerByUserId(userId)
    if player and not (options.banFailures or {})[tostring(userId)] then
      player:Kick(tostring(config.DisplayReason or ""))
    end
  end
  raiseFailures(failures)
end)
playersState.methods.UnbanAsync = method("UnbanAsync", function(_, config)
  raiseFailures(banCall(config, "UnbanAsync", moderation.unbans))
end)

-- The players: options.players (all of them, in join order), else options.player (one, or none).
-- The first player's character is the one control.character reads and control.setCharacter moves.
local character, root, humanoid
local function addPlayer(spec)
  local player = newInstance({
    className = "Player",
    name = spec.name,
    properties = {
      UserId = "readonly",
      DisplayName = "readonly",
      AccountAge = "readonly",
      Character = true,
      CharacterAdded = "readonly",
    },
    values = {
      UserId = spec.userId,
      DisplayName = spec.displayName or spec.name,
      AccountAge = spec.accountAge or 0,
      CharacterAdded = newSignal(),
    },
  })
  local playerCharacter, playerRoot, playerHumanoid = newCharacter(spec.name, spec)
  player.Character = playerCharacter
  local playerGui = newInstance({ className = "PlayerGui", name = "PlayerGui", isA = { "BasePlayerGui" } })
  playerGui.Parent = player
  -- Player:Kick(message): out of the game at once (PlayerRemoving fires), the message recorded.
  state(player).methods.Kick = method("Kick", function(kicked, message)
    table.insert(moderation.kicks, { userId = kicked.UserId, message = tostring(message or "") })
    fire(state(Players).values.PlayerRemoving, kicked)
    local kickedCharacter = kicked.Character
    kicked.Parent = nil
    if kickedCharacter then
      kickedCharacter.Parent = nil
    end
  end)
  player.Parent = Players
  if not character then
    character, root, humanoid = playerCharacter, playerRoot, playerHumanoid
  end
  fire(state(Players).values.PlayerAdded, player)
end
for _, spec in ipairs(options.players or { options.player }) do
  if spec then
    addPlayer(spec)
  end
end

-- RunService: whether this runs in Studio (Play, or Test > Start's local server) or in a live game.
local RunService = newInstance({ className = "RunService", name = "Run Service" })
RunService.Parent = game
state(RunService).methods.IsStudio = method("IsStudio", function()
  return options.studio == true
end)
state(RunService).methods.IsServer = method("IsServer", function()
  return true
end)

---------------------------------------------------------------------------------------------------
-- HttpService: the requests go to the host, which answers through control.deliver

local httpWaiting = {}
local nextRequestId = 0

local HttpService, httpState = newInstance({
  className = "HttpService",
  name = "HttpService",
  properties = { HttpEnabled = "readonly" },
  values = { HttpEnabled = options.httpEnabled ~= false },
})
HttpService.Parent = game

local function checkHttp(url)
  if not httpState.values.HttpEnabled then
    error("Http requests are not enabled. Enable via game settings", 3)
  end
  if type(url) ~= "string" or not string.match(url, "^https?://") then
    error("Url must be an http:// or https:// address, got " .. tostring(url), 3)
  end
end

-- Sends one request from the running thread and waits for the answer. Answers Roblox's response
-- table; a failure to reach the server raises, as RequestAsync does (e.g. "HttpError: ConnectFail").
local function send(method_, url, headers, body)
  local thread = scheduler.current()
  nextRequestId = nextRequestId + 1
  local id = nextRequestId
  httpWaiting[id] = thread
  host.http(id, method_, url, json.encode(headers or {}), body or "")
  local ok, statusCode, statusMessage, headersJson, responseBody = scheduler.suspend()
  if not ok then
    error(statusCode, 0)
  end
  return {
    Success = statusCode >= 200 and statusCode < 300,
    StatusCode = statusCode,
    StatusMessage = statusMessage,
    Headers = json.decode(headersJson),
    Body = responseBody,
  }
end

local function raiseUnlessOk(response)
  if not response.Success then
    error("HTTP " .. tostring(response.StatusCode) .. " (" .. response.StatusMessage .. ")", 0)
  end
  return response.Body
end

httpState.methods.JSONEncode = method("JSONEncode", function(_, value)
  return json.encode(value)
end)
httpState.methods.JSONDecode = method("JSONDecode", function(_, text)
  return json.decode(text)
end)
httpState.methods.GenerateGUID = method("GenerateGUID", function(_, wrap)
  local guid = string.gsub("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", "[xy]", function(char)
    local value = char == "x" and math.random(0, 15) or math.random(8, 11)
    return string.format("%X", value)
  end)
  return wrap == false and guid or "{" .. guid .. "}"
end)
httpState.methods.UrlEncode = method("UrlEncode", function(_, text)
  return (string.gsub(text, "[^%w%-_%.~]", function(char)
    return string.format("%%%02X", string.byte(char))
  end))
end)
httpState.methods.RequestAsync = method("RequestAsync", function(_, request)
  if type(request) ~= "table" then
    error("Unable to cast value to Dictionary", 2)
  end
  local method_ = string.upper(request.Method or "GET")
  checkHttp(request.Url)
  if (method_ == "GET" or method_ == "HEAD") and request.Body ~= nil then
    error("Body cannot be specified for " .. method_ .. " requests", 2)
  end
  return send(method_, request.Url, request.Headers, request.Body)
end)
httpState.methods.GetAsync = method("GetAsync", function(_, url, _nocache, headers)
  checkHttp(url)
  return raiseUnlessOk(send("GET", url, headers, nil))
end)
httpState.methods.PostAsync = method("PostAsync", function(_, url, data, contentType, _compress, headers)
  checkHttp(url)
  local allHeaders = {}
  for name, value in pairs(headers or {}) do
    allHeaders[name] = value
  end
  allHeaders["Content-Type"] = (contentType or Enum.HttpContentType.ApplicationJson).mime
  return raiseUnlessOk(send("POST", url, allHeaders, data))
end)

---------------------------------------------------------------------------------------------------
-- game:GetService and the globals that name the world

---------------------------------------------------------------------------------------------------
-- LogService and ScriptContext: the output as scripts hear of it

local messageOut = newSignal(true)
local LogService = newInstance({
  className = "LogService",
  name = "LogService",
  properties = { MessageOut = "readonly" },
  values = { MessageOut = messageOut },
})
LogService.Parent = game

local scriptError = newSignal(true)
local ScriptContext = newInstance({
  className = "ScriptContext",
  name = "ScriptContext",
  properties = { Error = "readonly" },
  values = { Error = scriptError },
})
ScriptContext.Parent = game

local MESSAGE_TYPES = {
  print = Enum.MessageType.MessageOutput,
  warn = Enum.MessageType.MessageWarning,
  error = Enum.MessageType.MessageError,
  info = Enum.MessageType.MessageInfo,
}

function logMessage(kind, text)
  host.emit(kind, text)
  fire(messageOut, text, MESSAGE_TYPES[kind])
end

-- The frames of a thread that ended with an error, innermost first, as { source, line, name }
-- (functions written in Lua only, like Roblox's traces).
local function framesOf(thread)
  local frames = {}
  local level = 0
  while true do
    local info = debugLibrary.getinfo(thread, level, "Sln")
    if not info then
      return frames
    end
    if info.what ~= "C" and info.currentline and info.currentline > 0 then
      table.insert(frames, { source = info.short_src, line = info.currentline, name = info.name })
    end
    level = level + 1
  end
end

-- As Roblox reports an uncaught error: the message in red, the stack in blue (MessageInfo), and
-- ScriptContext.Error with the message, the trace ("Source:line function name" per frame) and
-- the script the thread belongs to.
function reportError(thread, message)
  local text = luauTostring(message)
  local frames = framesOf(thread)
  local trace = {}
  logMessage("error", text)
  logMessage("info", "Stack Begin")
  for _, frame in ipairs(frames) do
    local named = frame.name and (" function " .. frame.name) or ""
    table.insert(trace, frame.source .. ":" .. frame.line .. named)
    logMessage("info", "Script '" .. frame.source .. "', Line " .. frame.line .. (frame.name and (" - function " .. frame.name) or ""))
  end
  logMessage("info", "Stack End")
  local traceText = table.concat(trace, "\n")
  if #trace > 0 then
    traceText = traceText .. "\n"
  end
  fire(scriptError, text, traceText, scheduler.scriptOf(thread))
end

---------------------------------------------------------------------------------------------------
-- Instance.new for the interface objects a server script builds (a ScreenGui with a TextLabel in a
-- player's PlayerGui), with UDim2 and Color3 values for their properties

local guiProperties = {
  ScreenGui = { ResetOnSpawn = true, DisplayOrder = true, Enabled = true, IgnoreGuiInset = true },
  TextLabel = {
    Text = true,
    Size = true,
    Position = true,
    BackgroundColor3 = true,
    BackgroundTransparency = true,
    TextColor3 = true,
    TextScaled = true,
    TextWrapped = true,
    Font = true,
  },
}
Instance = {}
function Instance.new(className, parent)
  local properties = guiProperties[className]
  if not properties then
    error('Unable to create an Instance of type "' .. tostring(className) .. '" (not emulated)', 2)
  end
  local instance = newInstance({ className = className, name = className, isA = { "GuiObject" }, properties = properties, values = { Text = "" } })
  if parent then
    instance.Parent = parent
  end
  return instance
end

UDim2 = {}
function UDim2.new(xScale, xOffset, yScale, yOffset)
  return setmetatable({ X = { Scale = xScale, Offset = xOffset }, Y = { Scale = yScale, Offset = yOffset } }, { __type = "UDim2" })
end
function UDim2.fromScale(x, y)
  return UDim2.new(x, 0, y, 0)
end
Color3 = {}
function Color3.fromRGB(r, g, b)
  return setmetatable({ R = r / 255, G = g / 255, B = b / 255 }, { __type = "Color3" })
end
function Color3.new(r, g, b)
  return setmetatable({ R = r, G = g, B = b }, { __type = "Color3" })
end

---------------------------------------------------------------------------------------------------
-- DateTime: the wall clock (Roblox's DateTime.now), in Unix milliseconds

DateTime = {}
function DateTime.now()
  local millis = math.floor(host.epochMs())
  return setmetatable({ UnixTimestampMillis = millis, UnixTimestamp = millis // 1000 }, { __type = "DateTime" })
end

local services = {
  HttpService = HttpService,
  LogService = LogService,
  Players = Players,
  RunService = RunService,
  ScriptContext = ScriptContext,
  ServerScriptService = ServerScriptService,
  Workspace = Workspace,
}

local gameState = state(game)
gameState.methods.GetService = method("GetService", function(_, name)
  local service = services[name]
  if not service then
    error("'" .. tostring(name) .. "' is not a valid Service name (or is not emulated)", 2)
  end
  return service
end)
gameState.methods.FindService = method("FindService", function(_, name)
  return services[name]
end)

globals.game = game
globals.workspace = Workspace

---------------------------------------------------------------------------------------------------
-- The host's handle on the game

local control = {}

-- Starts a script the way a Script in ServerScriptService starts: in its own thread. Answers ""
-- or the compile error.
function control.run(source, chunkName)
  local chunk, compileError = rawLoad(source, "=" .. chunkName, "t", globals)
  if not chunk then
    return compileError
  end
  -- The Script instance it runs as: "ServerScriptService.Name" is Name in that service.
  local serviceName, scriptName = string.match(chunkName, "^([^.]+)%.(.+)$")
  local script = newInstance({ className = "Script", name = scriptName or chunkName, isA = { "BaseScript", "LuaSourceContainer" } })
  script.Parent = services[serviceName] or ServerScriptService
  scheduler.spawnAs(script, chunk)
  return ""
end

function control.step()
  return scheduler.step()
end

-- The answer to request `id`: ok with the status, status text, headers (JSON) and body, or not ok
-- with the error message (in statusCode's place).
function control.deliver(id, ok, statusCode, statusMessage, headersJson, body)
  local thread = httpWaiting[id]
  httpWaiting[id] = nil
  if thread then
    scheduler.resume(thread, ok, statusCode, statusMessage, headersJson, body)
  end
end

-- The character as the test reads it (JSON; null without a player).
function control.character()
  if not character then
    return "null"
  end
  local position = state(root).values.Position
  local values = state(humanoid).values
  return json.encode({
    position = { x = position.X, y = position.Y, z = position.Z },
    health = values.Health,
    maxHealth = values.MaxHealth,
    walkSpeed = values.WalkSpeed,
    deaths = deaths,
  })
end

-- Sets the character's health, walk speed or position from the test (JSON of the fields to change).
function control.setCharacter(changesJson)
  local changes = json.decode(changesJson)
  if changes.position then
    character:PivotTo(CFrame.new(changes.position.x, changes.position.y, changes.position.z))
  end
  if changes.maxHealth then
    humanoid.MaxHealth = changes.maxHealth
  end
  if changes.health then
    humanoid.Health = changes.health
  end
  if changes.walkSpeed then
    humanoid.WalkSpeed = changes.walkSpeed
  end
end

-- A player joins (PlayerAdded fires), with a character of their own.
function control.addPlayer(spec)
  addPlayer(json.decode(spec))
end

-- A player leaves: out of Players and their character out of Workspace (PlayerRemoving fires first).
-- Answers whether the player was in the game.
function control.removePlayer(name)
  for _, player in ipairs(Players:GetChildren()) do
    if player.Name == name then
      fire(state(Players).values.PlayerRemoving, player)
      local playerCharacter = player.Character
      player.Parent = nil
      if playerCharacter then
        playerCharacter.Parent = nil
      end
      return true
    end
  end
  return false
end

-- What the game's moderation did (JSON): BanAsync and UnbanAsync calls (their configs), kicks, and
-- the text on each player's screen now (the TextLabels in their PlayerGui).
function control.moderation()
  local screens = {}
  for _, player in ipairs(Players:GetChildren()) do
    local texts = {}
    local playerGui = player:FindFirstChildOfClass("PlayerGui")
    for _, gui in ipairs(playerGui and playerGui:GetChildren() or {}) do
      for _, child in ipairs(gui:GetChildren()) do
        if state(child).className == "TextLabel" then
          table.insert(texts, child.Text)
        end
      end
    end
    screens[player.Name] = texts
  end
  return json.encode({ bans = moderation.bans, unbans = moderation.unbans, kicks = moderation.kicks, screens = screens })
end

-- Switches Players.BanningEnabled (a place setting only Studio changes).
function control.setBanningEnabled(enabled)
  playersState.values.BanningEnabled = enabled
end

function control.sleepingCount()
  return scheduler.sleepingCount()
end

return control
