-- Roblox's Enum for a dry run: the enums server scripts use most, each item with Name, Value and
-- EnumType, shown as "Enum.Material.Neon". An enum or item that is not here raises "... is not
-- available in a dry run" rather than answering nil.

local dry = ...
-- The script shares these globals and may replace them; the emulation keeps the originals.
local pairs, ipairs, next, type, tostring, tonumber, select = pairs, ipairs, next, type, tostring, tonumber, select
local error, pcall, setmetatable, getmetatable, rawget = error, pcall, setmetatable, getmetatable, rawget
local table, string, math, coroutine, os = table, string, math, coroutine, os
local typeNames = dry.typeNames

local ENUMS = {
  Material = {
    "Plastic", "SmoothPlastic", "Neon", "Wood", "WoodPlanks", "Marble", "Slate", "Concrete", "Granite", "Brick",
    "Pebble", "Cobblestone", "CorrodedMetal", "DiamondPlate", "Foil", "Metal", "Grass", "Sand", "Fabric", "Ice",
    "Glass", "ForceField", "Air", "Water", "Rock", "Snow",
  },
  PartType = { "Ball", "Block", "Cylinder", "Wedge", "CornerWedge" },
  SurfaceType = { "Smooth", "Glue", "Weld", "Studs", "Inlet", "Universal", "Hinge", "Motor", "SteppingMotor" },
  NormalId = { "Right", "Top", "Back", "Left", "Bottom", "Front" },
  HumanoidStateType = {
    "FallingDown", "Running", "RunningNoPhysics", "Climbing", "StrafingNoPhysics", "Ragdoll", "GettingUp",
    "Jumping", "Landed", "Flying", "Freefall", "Seated", "PlatformStanding", "Dead", "Swimming", "Physics", "None",
  },
  HumanoidRigType = { "R6", "R15" },
  HumanoidDisplayDistanceType = { "Viewer", "Subject", "None" },
  EasingStyle = { "Linear", "Sine", "Back", "Quad", "Quart", "Quint", "Bounce", "Elastic", "Exponential", "Circular",
    "Cubic" },
  EasingDirection = { "In", "Out", "InOut" },
  HttpContentType = { "ApplicationJson", "ApplicationXml", "ApplicationUrlEncoded", "TextPlain", "TextXml" },
  SortOrder = { "Name", "Custom", "LayoutOrder" },
  Font = { "Legacy", "Arial", "ArialBold", "SourceSans", "SourceSansBold", "SourceSansLight", "SourceSansItalic",
    "Bodoni", "Garamond", "Cartoon", "Code", "Highway", "SciFi", "Arcade", "Fantasy", "Antique", "Gotham",
    "GothamMedium", "GothamBold", "GothamBlack" },
  TextXAlignment = { "Left", "Right", "Center" },
  TextYAlignment = { "Top", "Center", "Bottom" },
  KeyCode = { "Unknown", "Space", "E", "F", "Q", "R", "LeftShift", "Return" },
  UserInputType = { "MouseButton1", "MouseButton2", "Touch", "Keyboard", "Gamepad1" },
  RaycastFilterType = { "Exclude", "Include" },
  ZIndexBehavior = { "Global", "Sibling" },
  ScaleType = { "Stretch", "Slice", "Tile", "Fit", "Crop" },
  MembershipType = { "None", "BuildersClub", "TurboBuildersClub", "OutrageousBuildersClub", "Premium" },
  ActuatorType = { "None", "Motor", "Servo" },
  AnimationPriority = { "Idle", "Movement", "Action", "Core" },
  PoseEasingStyle = { "Linear", "Constant", "Elastic", "Cubic", "Bounce" },
  ProximityPromptStyle = { "Default", "Custom" },
  ParticleOrientation = { "FacingCamera", "FacingCameraWorldUp", "VelocityParallel", "VelocityPerpendicular" },
  RollOffMode = { "Inverse", "Linear", "LinearSquare", "InverseTapered" },
}

local EnumItemMeta, EnumMeta, EnumsMeta = {}, {}, {}
typeNames[EnumItemMeta] = "EnumItem"
typeNames[EnumMeta] = "Enum"
typeNames[EnumsMeta] = "Enums"

local itemData = setmetatable({}, { __mode = "k" })
local enumData = setmetatable({}, { __mode = "k" })

EnumItemMeta.__index = function(item, key)
  local data = itemData[item]
  if key == "Name" then
    return data.name
  elseif key == "Value" then
    return data.value
  elseif key == "EnumType" then
    return data.enum
  elseif key == "IsA" then
    return function(_, enumName)
      return enumData[data.enum].name == enumName
    end
  end
  error(tostring(key) .. " is not a valid member of \"Enum." .. enumData[data.enum].name .. "." .. data.name .. '"', 2)
end
EnumItemMeta.__newindex = function(_, key)
  error(tostring(key) .. " cannot be assigned to", 2)
end
EnumItemMeta.__tostring = function(item)
  local data = itemData[item]
  return "Enum." .. enumData[data.enum].name .. "." .. data.name
end

EnumMeta.__index = function(enum, key)
  local data = enumData[enum]
  local item = data.items[key]
  if item then
    return item
  elseif key == "GetEnumItems" then
    return function()
      return table.move(data.list, 1, #data.list, 1, {})
    end
  elseif key == "FromName" then
    return function(_, name)
      return data.items[name]
    end
  elseif key == "FromValue" then
    return function(_, value)
      for _, candidate in ipairs(data.list) do
        if itemData[candidate].value == value then
          return candidate
        end
      end
      return nil
    end
  end
  dry.notAvailable("Enum." .. data.name .. "." .. tostring(key), 2)
end
EnumMeta.__newindex = EnumItemMeta.__newindex
EnumMeta.__tostring = function(enum)
  return enumData[enum].name
end

local Enum = setmetatable({}, EnumsMeta)
local enums = {}
for name, itemNames in pairs(ENUMS) do
  local enum = setmetatable({}, EnumMeta)
  local data = { name = name, items = {}, list = {} }
  enumData[enum] = data
  for index, itemName in ipairs(itemNames) do
    local item = setmetatable({}, EnumItemMeta)
    itemData[item] = { name = itemName, value = index - 1, enum = enum }
    data.items[itemName] = item
    data.list[index] = item
  end
  enums[name] = enum
end

EnumsMeta.__index = function(_, key)
  local enum = enums[key]
  if enum then
    return enum
  elseif key == "GetEnums" then
    return function()
      local list = {}
      for _, value in pairs(enums) do
        list[#list + 1] = value
      end
      return list
    end
  end
  dry.notAvailable("Enum." .. tostring(key), 2)
end
EnumsMeta.__newindex = EnumItemMeta.__newindex
EnumsMeta.__tostring = function()
  return "Enum"
end

-- Whether value is an item of the named enum (property assignment checks it).
local function isItemOf(value, enumName)
  local data = itemData[value]
  return data ~= nil and enumData[data.enum].name == enumName
end

-- An item of the named enum from an item, its name or its number (Roblox accepts all three).
local function coerce(value, enumName)
  if isItemOf(value, enumName) then
    return value
  end
  local enum = enums[enumName]
  if type(value) == "string" then
    return enumData[enum].items[value]
  elseif type(value) == "number" then
    return enumData[enum].list[value + 1]
  end
  return nil
end

return { Enum = Enum, isItemOf = isItemOf, coerce = coerce }
