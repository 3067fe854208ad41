-- The emulated game server of a dry run: game and its services, and one player.
--
-- The script runs as a Script in ServerScriptService of a server no one has joined yet; right
-- after its first run (when it first waits or ends) the player "Player1" joins: they appear in
-- Players, PlayerAdded fires, then their character (a Model with a HumanoidRootPart, a Head and a
-- Humanoid) spawns in the Workspace and CharacterAdded fires. Players.LocalPlayer is nil, as on any
-- server. Services Roblox has but a dry run cannot honestly answer for (DataStoreService,
-- MessagingService, TweenService, ...) raise "... is not available in a dry run".

local dry = ...
-- The script shares these globals and may replace them; the emulation keeps the originals.
local pairs, ipairs, next, type, tostring, tonumber, select = pairs, ipairs, next, type, tostring, tonumber, select
local error, pcall, setmetatable, getmetatable, rawget = error, pcall, setmetatable, getmetatable, rawget
local table, string, math, coroutine, os = table, string, math, coroutine, os
local instances, datatypes, Enum, scheduler, json = dry.instances, dry.datatypes, dry.Enum, dry.scheduler, dry.json
local define, read, store = instances.define, instances.read, instances.store
local internals = instances.state
local vector3, CFrame, Color3 = datatypes.vector3, datatypes.CFrame, datatypes.Color3

local world = {}
dry.world = world

local PLAYER = { name = "Player1", userId = 1, spawn = vector3(0, 3, 0) }
-- Game time, in Unix seconds, at the start of every dry run (workspace:GetServerTimeNow).
local START_TIME = 1767225600

local function P(kind, default)
  return { kind = kind, default = default }
end

local function RO(default)
  return { readOnly = true, default = default }
end

---------------------------------------------------------------------------------------------------
-- Tags (CollectionService and Instance:AddTag)

local tagged = {}
local tagSignals = {}

local function tagSignal(kind, tag)
  tagSignals[kind] = tagSignals[kind] or {}
  local signal = tagSignals[kind][tag]
  if not signal then
    signal = dry.signals.new(tag)
    tagSignals[kind][tag] = signal
  end
  return signal
end

dry.tags = {
  add = function(instance, tag)
    tagged[tag] = tagged[tag] or setmetatable({}, { __mode = "k" })
    if not tagged[tag][instance] then
      tagged[tag][instance] = true
      dry.signals.fire(tagSignal("added", tag), instance)
    end
  end,
  remove = function(instance, tag)
    if tagged[tag] and tagged[tag][instance] then
      tagged[tag][instance] = nil
      dry.signals.fire(tagSignal("removed", tag), instance)
    end
  end,
  has = function(instance, tag)
    return tagged[tag] ~= nil and tagged[tag][instance] == true
  end,
  of = function(instance)
    local list = {}
    for tag, set in pairs(tagged) do
      if set[instance] then
        list[#list + 1] = tag
      end
    end
    table.sort(list)
    return list
  end,
}

---------------------------------------------------------------------------------------------------
-- Services

define("ServiceProvider", "Instance", {})

local game, gameSelf
local services = {}
-- GetService answers only the services below; any other name (DataStoreService, TweenService, a
-- typo) raises "<name> is not available in a dry run".

local function defineService(name, superName, spec)
  spec.service = true
  define(name, superName or "Instance", spec)
end

defineService("Workspace", "Model", {
  properties = {
    Gravity = P("number", 196.2),
    FallenPartsDestroyHeight = P("number", -500),
    StreamingEnabled = RO(false),
    DistributedGameTime = {
      readOnly = true,
      get = function()
        return scheduler.now()
      end,
    },
  },
  methods = {
    GetServerTimeNow = function()
      return START_TIME + scheduler.now()
    end,
  },
  unavailable = { "Raycast", "Blockcast", "Spherecast", "Shapecast", "GetPartBoundsInBox", "GetPartBoundsInRadius",
    "GetPartsInPart", "FindPartOnRay", "FindPartOnRayWithIgnoreList", "FindPartOnRayWithWhitelist",
    "FindPartsInRegion3", "FindPartsInRegion3WithIgnoreList", "ArePartsTouchingOthers", "BulkMoveTo",
    "GetTouchingParts" },
})

defineService("Players", nil, {
  properties = {
    LocalPlayer = RO(nil),
    MaxPlayers = RO(8),
    RespawnTime = P("number", 5),
    CharacterAutoLoads = P("boolean", true),
  },
  events = { "PlayerAdded", "PlayerRemoving" },
  methods = {
    GetPlayers = function()
      return instances.list(world.players())
    end,
    GetPlayerByUserId = function(_, userId)
      for _, player in ipairs(world.players()) do
        if player.UserId == userId then
          return player
        end
      end
      return nil
    end,
    GetPlayerFromCharacter = function(_, character)
      return world.playerFromCharacter(character)
    end,
  },
  unavailable = { "GetUserIdFromNameAsync", "GetNameFromUserIdAsync", "GetUserThumbnailAsync",
    "GetHumanoidDescriptionFromUserId", "GetCharacterAppearanceInfoAsync", "GetFriendsAsync", "BanAsync",
    "UnbanAsync", "CreateHumanoidModelFromUserId" },
})

for _, name in ipairs({ "ReplicatedStorage", "ServerStorage", "ServerScriptService", "ReplicatedFirst", "StarterGui",
  "StarterPack", "StarterPlayer", "Teams", "SoundService" }) do
  defineService(name, nil, {})
end

defineService("Lighting", nil, {
  properties = {
    ClockTime = {
      kind = "number",
      default = 14,
      set = function(self, value)
        store(self, "ClockTime", value % 24)
        dry.announce(self, "TimeOfDay")
      end,
    },
    TimeOfDay = {
      kind = "string",
      get = function(self)
        local minutes = math.floor(read(self, "ClockTime") * 60 + 0.5)
        return string.format("%02d:%02d:00", minutes // 60 % 24, minutes % 60)
      end,
      set = function(self, value)
        local hours, minutes, seconds = string.match(value, "^(%d+):?(%d*):?(%d*)$")
        if hours then
          store(self, "ClockTime", (tonumber(hours) + (tonumber(minutes) or 0) / 60 + (tonumber(seconds) or 0) / 3600) % 24)
          dry.announce(self, "ClockTime")
        end
      end,
    },
    Brightness = P("number", 2),
    Ambient = P("Color3", Color3.fromRGB(70, 70, 70)),
    OutdoorAmbient = P("Color3", Color3.fromRGB(70, 70, 70)),
    FogColor = P("Color3", Color3.fromRGB(192, 192, 192)),
    FogEnd = P("number", 100000),
    FogStart = P("number", 0),
    GlobalShadows = P("boolean", true),
    ExposureCompensation = P("number", 0),
    GeographicLatitude = P("number", 41.733),
  },
  methods = {
    GetMinutesAfterMidnight = function(self)
      return read(self, "ClockTime") * 60
    end,
    SetMinutesAfterMidnight = function(self, minutes)
      instances.assign(self, "ClockTime", (tonumber(minutes) or 0) / 60, 3)
    end,
  },
})

defineService("RunService", nil, {
  events = { "Heartbeat", "Stepped", "PostSimulation", "PreSimulation", "PreAnimation" },
  methods = {
    IsServer = function()
      return true
    end,
    IsClient = function()
      return false
    end,
    IsStudio = function()
      return false
    end,
    IsRunning = function()
      return true
    end,
    IsRunMode = function()
      return false
    end,
  },
  unavailable = { "BindToRenderStep", "UnbindFromRenderStep", "RenderStepped" },
})

defineService("HttpService", nil, {
  properties = { HttpEnabled = RO(true) },
  methods = {
    JSONEncode = function(_, value)
      local ok, text = pcall(json.encode, value)
      if not ok then
        error(text, 3)
      end
      return text
    end,
    JSONDecode = function(_, text)
      local ok, value = pcall(json.decode, text)
      if not ok then
        error(value, 3)
      end
      return value
    end,
    GenerateGUID = function(_, wrap)
      local guid = string.gsub("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", "[xy]", function(char)
        return string.format("%X", char == "x" and math.random(0, 15) or math.random(8, 11))
      end)
      return wrap == false and guid or "{" .. guid .. "}"
    end,
    UrlEncode = function(_, text)
      return (string.gsub(tostring(text), "[^%w%-_%.~]", function(char)
        return string.format("%%%02X", string.byte(char))
      end))
    end,
  },
  unavailable = { "GetAsync", "PostAsync", "RequestAsync", "GetSecret", "CreateWebStreamClient" },
})

defineService("CollectionService", nil, {
  methods = {
    GetTagged = function(_, tag)
      local list = {}
      for instance in pairs(tagged[tag] or {}) do
        local self = internals(instance)
        if not self.destroyed and instance:IsDescendantOf(game) then
          list[#list + 1] = instance
        end
      end
      return instances.list(list)
    end,
    AddTag = function(_, instance, tag)
      dry.tags.add(instance, tag)
    end,
    RemoveTag = function(_, instance, tag)
      dry.tags.remove(instance, tag)
    end,
    HasTag = function(_, instance, tag)
      return dry.tags.has(instance, tag)
    end,
    GetTags = function(_, instance)
      return instances.list(dry.tags.of(instance))
    end,
    GetInstanceAddedSignal = function(_, tag)
      return tagSignal("added", tag)
    end,
    GetInstanceRemovedSignal = function(_, tag)
      return tagSignal("removed", tag)
    end,
    GetAllTags = function()
      local list = {}
      for tag in pairs(tagged) do
        list[#list + 1] = tag
      end
      table.sort(list)
      return list
    end,
  },
})

defineService("Debris", nil, {
  methods = {
    AddItem = function(_, item, lifetime)
      local self = internals(item)
      if not self then
        error("invalid argument #1 to 'AddItem' (Instance expected, got " .. dry.typeof(item) .. ")", 3)
      end
      scheduler.after(tonumber(lifetime) or 10, function()
        instances.destroy(self, true)
      end)
    end,
  },
})

local closeCallbacks = {}
define("DataModel", "ServiceProvider", {
  properties = {
    JobId = RO(""),
    PlaceId = RO(0),
    GameId = RO(0),
    CreatorId = RO(0),
    CreatorType = RO(nil),
    PlaceVersion = RO(0),
    PrivateServerId = RO(""),
    PrivateServerOwnerId = RO(0),
    Workspace = {
      readOnly = true,
      get = function()
        return services.Workspace
      end,
    },
  },
  events = { "Loaded", "Close" },
  methods = {
    GetService = function(_, name)
      if type(name) ~= "string" then
        error("invalid argument #1 to 'GetService' (string expected, got " .. dry.typeof(name) .. ")", 3)
      end
      local service = services[name]
      if not service then
        dry.notAvailable(name, 3)
      end
      return service
    end,
    FindService = function(_, name)
      return services[name]
    end,
    IsLoaded = function()
      return true
    end,
    BindToClose = function(_, fn)
      if type(fn) ~= "function" then
        error("invalid argument #1 to 'BindToClose' (function expected, got " .. dry.typeof(fn) .. ")", 3)
      end
      closeCallbacks[#closeCallbacks + 1] = fn
    end,
  },
  unavailable = { "Shutdown", "SetPlaceId", "SetUniverseId", "GetJobsInfo", "GetObjects" },
})

do
  game, gameSelf = instances.new("DataModel", false)
  gameSelf.name = "Game"
  gameSelf.parentLocked = true
  local order = { "Workspace", "Players", "Lighting", "ReplicatedFirst", "ReplicatedStorage", "ServerScriptService",
    "ServerStorage", "StarterGui", "StarterPack", "StarterPlayer", "Teams", "SoundService", "RunService",
    "HttpService", "CollectionService", "Debris" }
  for _, name in ipairs(order) do
    local service, serviceSelf = instances.new(name, false)
    serviceSelf.name = name
    instances.setParent(serviceSelf, game)
    serviceSelf.parentLocked = true
    services[name] = service
  end
end

---------------------------------------------------------------------------------------------------
-- The player and their character

local playersSelf = internals(services.Players)

function world.players()
  return table.move(playersSelf.children, 1, #playersSelf.children, 1, {})
end

function world.playerFromCharacter(character)
  for _, player in ipairs(world.players()) do
    if internals(player).values.Character == character and character ~= nil then
      return player
    end
  end
  return nil
end

local spawnCharacter

define("Player", "Instance", {
  properties = {
    DisplayName = RO(PLAYER.name),
    UserId = RO(PLAYER.userId),
    AccountAge = RO(365),
    MembershipType = RO(Enum.MembershipType.None),
    Character = P("Instance", nil),
    Team = P("Instance", nil),
    TeamColor = P("BrickColor", datatypes.BrickColor.White()),
    Neutral = P("boolean", true),
    RespawnLocation = P("Instance", nil),
    CanLoadCharacterAppearance = P("boolean", true),
    CharacterAppearanceId = RO(PLAYER.userId),
  },
  events = { "CharacterAdded", "CharacterRemoving", "CharacterAppearanceLoaded", "Chatted", "Idled" },
  methods = {
    LoadCharacter = function(self)
      spawnCharacter(self)
    end,
    Kick = function(self, message)
      dry.emit(1, "Player " .. self.name .. " was kicked: " .. tostring(message or ""))
      local playerSelf = self
      instances.fire(playersSelf, "PlayerRemoving", playerSelf.proxy)
      local character = playerSelf.values.Character
      if character then
        instances.destroy(internals(character), false)
      end
      instances.setParent(playerSelf, nil)
    end,
  },
  unavailable = { "GetMouse", "IsInGroup", "GetRankInGroup", "GetRoleInGroup", "GetFriendsOnline", "IsFriendsWith",
    "GetJoinData", "ClearCharacterAppearance", "RequestStreamAroundAsync", "GetNetworkPing" },
})

local function newPart(name, size, position, parent)
  local part, partSelf = instances.new("Part", false)
  partSelf.name = name
  partSelf.values.Size = size
  partSelf.values.CFrame = CFrame.new(position)
  instances.setParent(partSelf, parent)
  return part, partSelf
end

-- Builds a character at the spawn point: Model "Player1" with HumanoidRootPart (its PrimaryPart),
-- Head, Torso and Humanoid; the old one, if any, is removed first.
function spawnCharacter(playerSelf)
  local old = playerSelf.values.Character
  if old then
    instances.fire(playerSelf, "CharacterRemoving", old)
    instances.destroy(internals(old), false)
  end
  local character
  do
    local model, modelSelf = instances.new("Model", false)
    modelSelf.name = playerSelf.name
    local root, rootSelf = newPart("HumanoidRootPart", vector3(2, 2, 1), PLAYER.spawn, model)
    rootSelf.values.Transparency = 1
    local _, headSelf = newPart("Head", vector3(2, 1, 1), PLAYER.spawn + vector3(0, 1.5, 0), model)
    local _, torsoSelf = newPart("Torso", vector3(2, 2, 1), PLAYER.spawn, model)
    -- Welded to the root: moving the HumanoidRootPart moves the whole character.
    rootSelf.assembly = { headSelf, torsoSelf }
    local _, humanoidSelf = instances.new("Humanoid", false)
    instances.setParent(humanoidSelf, model)
    modelSelf.values.PrimaryPart = root
    playerSelf.values.Character = model
    instances.setParent(modelSelf, services.Workspace)
    character = model
  end
  dry.announce(playerSelf, "Character")
  instances.fire(playerSelf, "CharacterAdded", character)
  instances.fire(playerSelf, "CharacterAppearanceLoaded", character)
end

-- The player joins: added to Players (PlayerAdded fires), then their character spawns.
function world.playerJoins()
  local player, playerSelf = instances.new("Player", false)
  do
    playerSelf.name = PLAYER.name
    for _, name in ipairs({ "Backpack", "PlayerGui", "StarterGear" }) do
      local container, containerSelf = instances.new(name, false)
      containerSelf.name = name
      instances.setParent(containerSelf, player)
    end
    instances.setParent(playerSelf, services.Players)
  end
  instances.fire(playersSelf, "PlayerAdded", player)
  -- The character follows once the PlayerAdded handlers have run (or begun to wait).
  scheduler.soon(function()
    if playerSelf.parent then
      spawnCharacter(playerSelf)
    end
  end)
end

-- Heartbeat and Stepped tick every frame while anything listens to them.
local runSelf = internals(services.RunService)
local FRAME_EVENTS = { "Stepped", "PreSimulation", "PostSimulation", "Heartbeat" }
scheduler.setFrameListener(function(delta)
  for _, name in ipairs(FRAME_EVENTS) do
    local signal = runSelf.signals and runSelf.signals[name]
    if signal then
      if name == "Stepped" then
        dry.signals.fire(signal, scheduler.now(), delta)
      else
        dry.signals.fire(signal, delta)
      end
    end
  end
end, function()
  if not runSelf.signals then
    return false
  end
  for _, name in ipairs(FRAME_EVENTS) do
    local signal = runSelf.signals[name]
    if signal and dry.signals.isListened(signal) then
      return true
    end
  end
  return false
end)

world.game = game
world.workspace = services.Workspace
world.services = services
return world
