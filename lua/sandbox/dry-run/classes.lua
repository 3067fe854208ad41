-- The classes a dry run knows, with Roblox's defaults for the properties scripts read and set most.
-- What needs the physics engine, rendering, assets or Roblox's web services is listed as
-- `unavailable`: reading the member works, calling it raises "Class:Member is not available in a
-- dry run". Touched, MouseClick and similar events exist and can be connected, but nothing in a
-- dry run fires them (no physics, no clients).

local dry = ...
-- The script shares these globals and may replace them; the emulation keeps the originals.
local pairs, ipairs, next, type, tostring, tonumber, select = pairs, ipairs, next, type, tostring, tonumber, select
local error, pcall, setmetatable, getmetatable, rawget = error, pcall, setmetatable, getmetatable, rawget
local table, string, math, coroutine, os = table, string, math, coroutine, os
local instances, datatypes, Enum, scheduler = dry.instances, dry.datatypes, dry.Enum, dry.scheduler
local define, read, store, assign = instances.define, instances.read, instances.store, instances.assign
local Vector3, CFrame, Color3, UDim2 = datatypes.Vector3, datatypes.CFrame, datatypes.Color3, datatypes.UDim2
local vector3 = datatypes.vector3
local internals = instances.state

local function P(kind, default)
  return { kind = kind, default = default }
end

local function RO(default)
  return { readOnly = true, default = default }
end

-- Fires Changed and the property signal for a property derived from another (Position from CFrame).
local function announce(self, key)
  instances.fire(self, "Changed", key)
  local propertySignals = self.propertySignals
  if propertySignals and propertySignals[key] then
    dry.signals.fire(propertySignals[key])
  end
end

local WHITE = Color3.new(1, 1, 1)
local BLACK = Color3.new(0, 0, 0)
local DEGREES = 180 / math.pi

---------------------------------------------------------------------------------------------------
-- Parts and models

-- Moves a part; parts welded to it (a character's parts, to its HumanoidRootPart: self.assembly)
-- move along, as they do in Roblox.
local function place(self, value)
  local assembly = self.assembly
  if assembly then
    local delta = datatypes.multiply(value, datatypes.inverse(read(self, "CFrame")))
    for _, member in ipairs(assembly) do
      if not member.destroyed then
        store(member, "CFrame", datatypes.multiply(delta, read(member, "CFrame")))
      end
    end
  end
  store(self, "CFrame", value)
end

local function setCFrame(self, value)
  place(self, value)
  announce(self, "Position")
  announce(self, "Orientation")
end

define("PVInstance", "Instance", {})

local function partPivotTo(self, target)
  if dry.typeof(target) ~= "CFrame" then
    error("Unable to cast " .. dry.typeof(target) .. " to CoordinateFrame", 3)
  end
  assign(self, "CFrame", target, 3)
end

define("BasePart", "PVInstance", {
  properties = {
    CFrame = { kind = "CFrame", default = CFrame.identity, set = setCFrame },
    Position = {
      kind = "Vector3",
      get = function(self)
        return read(self, "CFrame").Position
      end,
      set = function(self, value)
        place(self, datatypes.withPosition(read(self, "CFrame"), value))
        announce(self, "Position")
      end,
    },
    Orientation = {
      kind = "Vector3",
      get = function(self)
        local x, y, z = datatypes.toOrientation(read(self, "CFrame"))
        return vector3(x * DEGREES, y * DEGREES, z * DEGREES)
      end,
      set = function(self, value)
        local rotation = CFrame.fromOrientation(value.X / DEGREES, value.Y / DEGREES, value.Z / DEGREES)
        place(self, datatypes.withPosition(rotation, read(self, "CFrame").Position))
        announce(self, "Orientation")
      end,
    },
    Size = P("Vector3", vector3(4, 1, 2)),
    Color = P("Color3", datatypes.BrickColor.new("Medium stone grey").Color),
    BrickColor = {
      kind = "BrickColor",
      get = function(self)
        return datatypes.nearestBrickColor(read(self, "Color"))
      end,
      set = function(self, value)
        store(self, "Color", value.Color)
        announce(self, "BrickColor")
      end,
    },
    Material = P("Enum.Material", Enum.Material.Plastic),
    Transparency = P("number", 0),
    Reflectance = P("number", 0),
    Anchored = P("boolean", false),
    CanCollide = P("boolean", true),
    CanTouch = P("boolean", true),
    CanQuery = P("boolean", true),
    CastShadow = P("boolean", true),
    Locked = P("boolean", false),
    Massless = P("boolean", false),
    AssemblyLinearVelocity = P("Vector3", Vector3.zero),
    AssemblyAngularVelocity = P("Vector3", Vector3.zero),
    CollisionGroup = P("string", "Default"),
  },
  events = { "Touched", "TouchEnded" },
  methods = {
    GetPivot = function(self)
      return read(self, "CFrame")
    end,
    PivotTo = partPivotTo,
    SetNetworkOwner = function() end,
    SetNetworkOwnershipAuto = function() end,
    GetNetworkOwner = function()
      return nil
    end,
  },
  unavailable = { "GetTouchingParts", "ApplyImpulse", "ApplyAngularImpulse", "GetMass", "Resize", "BreakJoints",
    "GetJoints", "GetConnectedParts", "SubtractAsync", "UnionAsync", "IntersectAsync", "CanCollideWith",
    "GetVelocityAtPosition", "GetRootPart" },
})

define("Part", "BasePart", { creatable = true, properties = { Shape = P("Enum.PartType", Enum.PartType.Block) } })
define("MeshPart", "BasePart", { creatable = true, properties = { MeshId = P("string", ""), TextureID = P("string", "") } })
define("WedgePart", "BasePart", { creatable = true })
define("CornerWedgePart", "BasePart", { creatable = true })
define("TrussPart", "BasePart", { creatable = true })
define("SpawnLocation", "Part", {
  creatable = true,
  properties = {
    Enabled = P("boolean", true),
    Neutral = P("boolean", true),
    Duration = P("number", 10),
    AllowTeamChangeOnTouch = P("boolean", false),
    TeamColor = P("BrickColor", datatypes.BrickColor.White()),
  },
})
define("Seat", "Part", { creatable = true, properties = { Disabled = P("boolean", false), Occupant = RO(nil) } })

-- A model's pivot: its PrimaryPart's CFrame, else its WorldPivot once set, else the middle of its parts.
local function modelPivot(self)
  local primary = self.values.PrimaryPart
  if primary and internals(primary) and not internals(primary).destroyed then
    return read(internals(primary), "CFrame")
  elseif self.values.WorldPivot then
    return self.values.WorldPivot
  end
  local sum, parts = Vector3.zero, 0
  for _, node in ipairs(instances.descendants(self)) do
    local nodeSelf = internals(node)
    if nodeSelf.class.ancestry.BasePart then
      sum = sum + read(nodeSelf, "CFrame").Position
      parts = parts + 1
    end
  end
  return CFrame.new(parts > 0 and sum / parts or sum)
end

local function modelPivotTo(self, target)
  if dry.typeof(target) ~= "CFrame" then
    error("Unable to cast " .. dry.typeof(target) .. " to CoordinateFrame", 3)
  end
  local delta = datatypes.multiply(target, datatypes.inverse(modelPivot(self)))
  -- Every part's place is worked out first: moving one may move those welded to it.
  local moves = {}
  for _, node in ipairs(instances.descendants(self)) do
    local nodeSelf = internals(node)
    if nodeSelf.class.ancestry.BasePart then
      moves[#moves + 1] = { nodeSelf, datatypes.multiply(delta, read(nodeSelf, "CFrame")) }
    end
  end
  for _, move in ipairs(moves) do
    assign(move[1], "CFrame", move[2], 3)
  end
  if not self.values.PrimaryPart then
    store(self, "WorldPivot", target)
  end
end

define("Model", "PVInstance", {
  creatable = true,
  properties = {
    PrimaryPart = P("Instance", nil),
    WorldPivot = {
      kind = "CFrame",
      get = modelPivot,
      set = function(self, value)
        store(self, "WorldPivot", value)
      end,
    },
  },
  methods = {
    GetPivot = modelPivot,
    PivotTo = modelPivotTo,
    SetPrimaryPartCFrame = function(self, target)
      if not self.values.PrimaryPart then
        error("Model:SetPrimaryPartCFrame() failed because no PrimaryPart has been set, or the PrimaryPart no"
          .. " longer exists. Please set Model.PrimaryPart before using this.", 3)
      end
      modelPivotTo(self, target)
    end,
    GetPrimaryPartCFrame = function(self)
      local primary = self.values.PrimaryPart
      return primary and read(internals(primary), "CFrame")
    end,
    MoveTo = function(self, position)
      local pivot = modelPivot(self)
      modelPivotTo(self, pivot - pivot.Position + position)
    end,
    TranslateBy = function(self, offset)
      modelPivotTo(self, modelPivot(self) + offset)
    end,
    GetScale = function()
      return 1
    end,
  },
  unavailable = { "GetBoundingBox", "GetExtentsSize", "ScaleTo", "BreakJoints", "MakeJoints" },
})

define("Folder", "Instance", { creatable = true })
define("Configuration", "Instance", { creatable = true })
define("Accessory", "Instance", { creatable = true })
define("ForceField", "Instance", { creatable = true, properties = { Visible = P("boolean", true) } })
define("Animation", "Instance", { creatable = true, properties = { AnimationId = P("string", "") } })
define("Animator", "Instance", { creatable = true, unavailable = { "LoadAnimation", "GetPlayingAnimationTracks" } })

---------------------------------------------------------------------------------------------------
-- Values: Changed fires with the new value, not the property's name.

define("ValueBase", "Instance", { valueChanged = true })
for className, spec in pairs({
  IntValue = { "int", 0 },
  NumberValue = { "number", 0 },
  StringValue = { "string", "" },
  BoolValue = { "boolean", false },
  ObjectValue = { "Instance", nil },
  Vector3Value = { "Vector3", Vector3.zero },
  CFrameValue = { "CFrame", CFrame.identity },
  Color3Value = { "Color3", BLACK },
  BrickColorValue = { "BrickColor", datatypes.BrickColor.Gray() },
}) do
  define(className, "ValueBase", { creatable = true, properties = { Value = P(spec[1], spec[2]) } })
end

---------------------------------------------------------------------------------------------------
-- Humanoid

local function characterOf(self)
  return self.parent and internals(self.parent)
end

local function setHealth(self, value)
  local before = read(self, "Health")
  local health = math.max(0, math.min(value, read(self, "MaxHealth")))
  store(self, "Health", health)
  if health ~= before then
    instances.fire(self, "HealthChanged", health)
  end
  if before > 0 and health <= 0 then
    instances.fire(self, "Died")
  end
end

define("Humanoid", "Instance", {
  creatable = true,
  properties = {
    Health = { kind = "number", default = 100, set = setHealth },
    MaxHealth = {
      kind = "number",
      default = 100,
      set = function(self, value)
        store(self, "MaxHealth", math.max(0, value))
        if read(self, "Health") > value then
          setHealth(self, value)
        end
      end,
    },
    WalkSpeed = {
      kind = "number",
      default = 16,
      set = function(self, value)
        store(self, "WalkSpeed", math.max(0, value))
      end,
    },
    JumpPower = P("number", 50),
    JumpHeight = P("number", 7.2),
    UseJumpPower = P("boolean", false),
    HipHeight = P("number", 2),
    AutoRotate = P("boolean", true),
    Sit = P("boolean", false),
    Jump = P("boolean", false),
    PlatformStand = P("boolean", false),
    BreakJointsOnDeath = P("boolean", true),
    RequiresNeck = P("boolean", true),
    DisplayName = P("string", ""),
    NameDisplayDistance = P("number", 100),
    HealthDisplayDistance = P("number", 100),
    DisplayDistanceType = P("Enum.HumanoidDisplayDistanceType", Enum.HumanoidDisplayDistanceType.Viewer),
    RigType = P("Enum.HumanoidRigType", Enum.HumanoidRigType.R15),
    MoveDirection = RO(Vector3.zero),
    FloorMaterial = RO(Enum.Material.Air),
    RootPart = {
      readOnly = true,
      get = function(self)
        local character = characterOf(self)
        if not character then
          return nil
        end
        for _, child in ipairs(character.children) do
          if internals(child).name == "HumanoidRootPart" then
            return child
          end
        end
        return nil
      end,
    },
  },
  events = { "Died", "HealthChanged", "Running", "Jumping", "StateChanged", "Touched", "MoveToFinished", "Seated",
    "FreeFalling", "Climbing" },
  methods = {
    TakeDamage = function(self, amount)
      local character = characterOf(self)
      if character then
        for _, child in ipairs(character.children) do
          if internals(child).class.name == "ForceField" then
            return
          end
        end
      end
      assign(self, "Health", read(self, "Health") - (tonumber(amount) or 0), 3)
    end,
    GetState = function(self)
      return read(self, "Health") <= 0 and Enum.HumanoidStateType.Dead or Enum.HumanoidStateType.Running
    end,
    ChangeState = function(self, stateType)
      if stateType == Enum.HumanoidStateType.Dead then
        assign(self, "Health", 0, 3)
      end
    end,
    SetStateEnabled = function() end,
    GetStateEnabled = function()
      return true
    end,
    EquipTool = function(self, tool)
      local character = characterOf(self)
      if character and internals(tool) then
        assign(internals(tool), "Parent", character.proxy, 3)
      end
    end,
    UnequipTools = function(self)
      local character = characterOf(self)
      local player = character and dry.world.playerFromCharacter(character.proxy)
      local backpack = player and player:FindFirstChild("Backpack")
      if not backpack then
        return
      end
      for _, child in ipairs(table.move(character.children, 1, #character.children, 1, {})) do
        if internals(child).class.name == "Tool" then
          assign(internals(child), "Parent", backpack, 3)
        end
      end
    end,
    AddAccessory = function(self, accessory)
      local character = characterOf(self)
      if character and internals(accessory) then
        assign(internals(accessory), "Parent", character.proxy, 3)
      end
    end,
    GetAccessories = function(self)
      local list = {}
      local character = characterOf(self)
      for _, child in ipairs(character and character.children or {}) do
        if internals(child).class.name == "Accessory" then
          list[#list + 1] = child
        end
      end
      return instances.list(list)
    end,
  },
  unavailable = { "MoveTo", "Move", "LoadAnimation", "GetPlayingAnimationTracks", "ApplyDescription",
    "GetAppliedDescription", "ApplyDescriptionReset", "BuildRigFromAttachments", "GetLimb" },
})

---------------------------------------------------------------------------------------------------
-- Events and functions between scripts

define("BindableEvent", "Instance", {
  creatable = true,
  events = { "Event" },
  methods = {
    Fire = function(self, ...)
      dry.signals.fire(instances.signalOf(self, "Event"), ...)
    end,
  },
})

define("BindableFunction", "Instance", {
  creatable = true,
  properties = { OnInvoke = P("function", nil) },
  methods = {
    Invoke = function(self, ...)
      local callback = self.values.OnInvoke
      if not callback then
        error("BindableFunction:Invoke has no OnInvoke callback to call", 3)
      end
      return callback(...)
    end,
  },
})

local function checkPlayer(player)
  local playerSelf = internals(player)
  if not playerSelf or playerSelf.class.name ~= "Player" then
    error("FireClient: player argument must be a Player object", 4)
  end
end

-- No client runs in a dry run: what a server sends to clients goes nowhere.
local remoteEvent = {
  creatable = true,
  events = { "OnServerEvent", "OnClientEvent" },
  methods = {
    FireClient = function(_, player)
      checkPlayer(player)
    end,
    FireAllClients = function() end,
    FireServer = function()
      error("FireServer can only be called from the client", 3)
    end,
  },
}
define("RemoteEvent", "Instance", remoteEvent)
define("UnreliableRemoteEvent", "Instance", remoteEvent)
define("RemoteFunction", "Instance", {
  creatable = true,
  properties = { OnServerInvoke = P("function", nil), OnClientInvoke = P("function", nil) },
  methods = {
    InvokeServer = function()
      error("InvokeServer can only be called from the client", 3)
    end,
  },
  unavailable = { "InvokeClient" },
})

---------------------------------------------------------------------------------------------------
-- Things in a part: tools, attachments, constraints, effects, sounds, lights, prompts

define("Tool", "Instance", {
  creatable = true,
  properties = {
    CanBeDropped = P("boolean", true),
    Enabled = P("boolean", true),
    RequiresHandle = P("boolean", true),
    ManualActivationOnly = P("boolean", false),
    ToolTip = P("string", ""),
    TextureId = P("string", ""),
    Grip = P("CFrame", CFrame.identity),
  },
  events = { "Activated", "Deactivated", "Equipped", "Unequipped" },
  methods = {
    Activate = function(self)
      instances.fire(self, "Activated")
    end,
    Deactivate = function(self)
      instances.fire(self, "Deactivated")
    end,
  },
})

define("Attachment", "Instance", {
  creatable = true,
  properties = {
    CFrame = P("CFrame", CFrame.identity),
    Position = {
      kind = "Vector3",
      get = function(self)
        return read(self, "CFrame").Position
      end,
      set = function(self, value)
        store(self, "CFrame", datatypes.withPosition(read(self, "CFrame"), value))
      end,
    },
    WorldPosition = {
      readOnly = true,
      get = function(self)
        local parent = self.parent and internals(self.parent)
        local local_ = read(self, "CFrame").Position
        if parent and parent.class.ancestry.BasePart then
          return read(parent, "CFrame") * local_
        end
        return local_
      end,
    },
    Visible = P("boolean", false),
  },
})

for _, className in ipairs({ "Weld", "Motor6D" }) do
  define(className, "Instance", {
    creatable = true,
    properties = {
      Part0 = P("Instance", nil),
      Part1 = P("Instance", nil),
      C0 = P("CFrame", CFrame.identity),
      C1 = P("CFrame", CFrame.identity),
      Enabled = P("boolean", true),
    },
  })
end
define("WeldConstraint", "Instance", {
  creatable = true,
  properties = { Part0 = P("Instance", nil), Part1 = P("Instance", nil), Enabled = P("boolean", true) },
})
for _, className in ipairs({ "Beam", "Trail" }) do
  define(className, "Instance", {
    creatable = true,
    properties = { Attachment0 = P("Instance", nil), Attachment1 = P("Instance", nil), Enabled = P("boolean", true),
      Color = P("any", nil), Transparency = P("any", nil), Texture = P("string", "") },
  })
end

for _, className in ipairs({ "Decal", "Texture" }) do
  define(className, "Instance", {
    creatable = true,
    properties = {
      Texture = P("string", ""),
      Transparency = P("number", 0),
      Color3 = P("Color3", WHITE),
      Face = P("Enum.NormalId", Enum.NormalId.Front),
    },
  })
end

define("Sound", "Instance", {
  creatable = true,
  properties = {
    SoundId = P("string", ""),
    Volume = P("number", 0.5),
    PlaybackSpeed = P("number", 1),
    Looped = P("boolean", false),
    Playing = P("boolean", false),
    TimePosition = P("number", 0),
    RollOffMaxDistance = P("number", 10000),
    RollOffMinDistance = P("number", 10),
    IsPlaying = {
      readOnly = true,
      get = function(self)
        return read(self, "Playing")
      end,
    },
    IsLoaded = RO(true),
    TimeLength = RO(0),
  },
  events = { "Ended", "Played", "Stopped", "Paused", "Resumed", "Loaded", "DidLoop" },
  methods = {
    Play = function(self)
      store(self, "TimePosition", 0)
      store(self, "Playing", true)
      instances.fire(self, "Played", read(self, "SoundId"))
    end,
    Stop = function(self)
      store(self, "Playing", false)
      store(self, "TimePosition", 0)
      instances.fire(self, "Stopped", read(self, "SoundId"))
    end,
    Pause = function(self)
      store(self, "Playing", false)
      instances.fire(self, "Paused", read(self, "SoundId"))
    end,
    Resume = function(self)
      store(self, "Playing", true)
      instances.fire(self, "Resumed", read(self, "SoundId"))
    end,
  },
})

define("Light", "Instance", {
  properties = {
    Brightness = P("number", 1),
    Color = P("Color3", WHITE),
    Enabled = P("boolean", true),
    Shadows = P("boolean", false),
  },
})
define("PointLight", "Light", { creatable = true, properties = { Range = P("number", 8) } })
define("SpotLight", "Light", {
  creatable = true,
  properties = { Range = P("number", 16), Angle = P("number", 90), Face = P("Enum.NormalId", Enum.NormalId.Front) },
})
define("SurfaceLight", "Light", {
  creatable = true,
  properties = { Range = P("number", 16), Angle = P("number", 90), Face = P("Enum.NormalId", Enum.NormalId.Front) },
})

define("ParticleEmitter", "Instance", {
  creatable = true,
  properties = {
    Enabled = P("boolean", true),
    Rate = P("number", 20),
    Texture = P("string", "rbxasset://textures/particles/sparkles_main.dds"),
    Lifetime = P("NumberRange", datatypes.NumberRange.new(5, 10)),
    Speed = P("NumberRange", datatypes.NumberRange.new(5)),
    Color = P("any", nil),
    Size = P("any", nil),
    Transparency = P("any", nil),
    LightEmission = P("number", 0),
  },
  methods = { Emit = function() end, Clear = function() end },
})
define("Fire", "Instance", {
  creatable = true,
  properties = { Enabled = P("boolean", true), Heat = P("number", 9), Size = P("number", 5),
    Color = P("Color3", Color3.fromRGB(236, 139, 70)), SecondaryColor = P("Color3", Color3.fromRGB(139, 80, 55)) },
})
define("Smoke", "Instance", {
  creatable = true,
  properties = { Enabled = P("boolean", true), Opacity = P("number", 0.5), RiseVelocity = P("number", 1),
    Size = P("number", 1), Color = P("Color3", WHITE) },
})
define("Sparkles", "Instance", {
  creatable = true,
  properties = { Enabled = P("boolean", true), SparkleColor = P("Color3", Color3.fromRGB(144, 25, 255)) },
})
define("Highlight", "Instance", {
  creatable = true,
  properties = {
    Adornee = P("Instance", nil),
    Enabled = P("boolean", true),
    FillColor = P("Color3", Color3.fromRGB(255, 0, 0)),
    OutlineColor = P("Color3", WHITE),
    FillTransparency = P("number", 0.5),
    OutlineTransparency = P("number", 0),
  },
})
define("Explosion", "Instance", {
  creatable = true,
  properties = {
    Position = P("Vector3", Vector3.zero),
    BlastRadius = P("number", 4),
    BlastPressure = P("number", 500000),
    DestroyJointRadiusPercent = P("number", 1),
    Visible = P("boolean", true),
  },
  events = { "Hit" },
})

define("ClickDetector", "Instance", {
  creatable = true,
  properties = { MaxActivationDistance = P("number", 32), CursorIcon = P("string", "") },
  events = { "MouseClick", "RightMouseClick", "MouseHoverEnter", "MouseHoverLeave" },
})
define("ProximityPrompt", "Instance", {
  creatable = true,
  properties = {
    ActionText = P("string", "Interact"),
    ObjectText = P("string", ""),
    HoldDuration = P("number", 0),
    MaxActivationDistance = P("number", 10),
    Enabled = P("boolean", true),
    RequiresLineOfSight = P("boolean", true),
    KeyboardKeyCode = P("Enum.KeyCode", Enum.KeyCode.E),
    Style = P("Enum.ProximityPromptStyle", Enum.ProximityPromptStyle.Default),
  },
  events = { "Triggered", "TriggerEnded", "PromptShown", "PromptHidden", "PromptButtonHoldBegan",
    "PromptButtonHoldEnded" },
})

define("Team", "Instance", {
  creatable = true,
  properties = { TeamColor = P("BrickColor", datatypes.BrickColor.White()), AutoAssignable = P("boolean", true) },
  events = { "PlayerAdded", "PlayerRemoved" },
  methods = {
    GetPlayers = function(self)
      local list = {}
      for _, player in ipairs(dry.world.players()) do
        if player.Team == self.proxy then
          list[#list + 1] = player
        end
      end
      return instances.list(list)
    end,
  },
})

---------------------------------------------------------------------------------------------------
-- Interface objects (a server script may build a BillboardGui or a ScreenGui for a player)

define("LayerCollector", "Instance", { properties = { Enabled = P("boolean", true), ResetOnSpawn = P("boolean", true) } })
define("ScreenGui", "LayerCollector", {
  creatable = true,
  properties = {
    DisplayOrder = P("number", 0),
    IgnoreGuiInset = P("boolean", false),
    ZIndexBehavior = P("Enum.ZIndexBehavior", Enum.ZIndexBehavior.Sibling),
  },
})
define("BillboardGui", "LayerCollector", {
  creatable = true,
  properties = {
    Adornee = P("Instance", nil),
    Size = P("UDim2", UDim2.new(0, 0, 0, 0)),
    StudsOffset = P("Vector3", Vector3.zero),
    AlwaysOnTop = P("boolean", false),
    MaxDistance = P("number", math.huge),
  },
})
define("SurfaceGui", "LayerCollector", {
  creatable = true,
  properties = { Adornee = P("Instance", nil), Face = P("Enum.NormalId", Enum.NormalId.Front) },
})

define("GuiObject", "Instance", {
  properties = {
    Size = P("UDim2", UDim2.new(0, 100, 0, 100)),
    Position = P("UDim2", UDim2.new(0, 0, 0, 0)),
    AnchorPoint = P("Vector2", datatypes.Vector2.zero),
    BackgroundColor3 = P("Color3", Color3.fromRGB(163, 162, 165)),
    BackgroundTransparency = P("number", 0),
    BorderSizePixel = P("number", 1),
    Visible = P("boolean", true),
    ZIndex = P("number", 1),
    LayoutOrder = P("number", 0),
    Rotation = P("number", 0),
  },
})
local textProperties = {
  Text = P("string", "Label"),
  TextColor3 = P("Color3", Color3.fromRGB(27, 42, 53)),
  TextSize = P("number", 14),
  TextScaled = P("boolean", false),
  TextWrapped = P("boolean", false),
  TextTransparency = P("number", 0),
  TextStrokeTransparency = P("number", 1),
  RichText = P("boolean", false),
  Font = P("Enum.Font", Enum.Font.Legacy),
  TextXAlignment = P("Enum.TextXAlignment", Enum.TextXAlignment.Center),
  TextYAlignment = P("Enum.TextYAlignment", Enum.TextYAlignment.Center),
}
local imageProperties = {
  Image = P("string", ""),
  ImageColor3 = P("Color3", WHITE),
  ImageTransparency = P("number", 0),
  ScaleType = P("Enum.ScaleType", Enum.ScaleType.Stretch),
}
local buttonEvents = { "Activated", "MouseButton1Click", "MouseButton1Down", "MouseButton1Up", "MouseButton2Click" }
define("Frame", "GuiObject", { creatable = true })
define("ScrollingFrame", "GuiObject", { creatable = true, properties = { CanvasSize = P("UDim2", UDim2.new(0, 0, 2, 0)) } })
define("TextLabel", "GuiObject", { creatable = true, properties = textProperties })
define("TextButton", "GuiObject", { creatable = true, properties = textProperties, events = buttonEvents })
define("TextBox", "GuiObject", {
  creatable = true,
  properties = textProperties,
  events = { "FocusLost", "Focused" },
})
define("ImageLabel", "GuiObject", { creatable = true, properties = imageProperties })
define("ImageButton", "GuiObject", { creatable = true, properties = imageProperties, events = buttonEvents })
define("UICorner", "Instance", { creatable = true, properties = { CornerRadius = P("UDim", datatypes.UDim.new(0, 8)) } })
define("UIStroke", "Instance", {
  creatable = true,
  properties = { Thickness = P("number", 1), Color = P("Color3", BLACK), Transparency = P("number", 0) },
})
define("UIListLayout", "Instance", {
  creatable = true,
  properties = { Padding = P("UDim", datatypes.UDim.new(0, 0)), SortOrder = P("Enum.SortOrder", Enum.SortOrder.LayoutOrder) },
})
define("UIPadding", "Instance", { creatable = true })

---------------------------------------------------------------------------------------------------
-- The player's own containers, made when a player joins

define("Backpack", "Instance", {})
define("PlayerGui", "Instance", {})
define("StarterGear", "Instance", {})

return { announce = announce, scheduler = scheduler }
