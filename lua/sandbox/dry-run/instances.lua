-- Instances for a dry run: the parent/child tree, properties with per-class defaults and type
-- checks, the Instance methods scripts use, their events, and the record of what the script did
-- (dry.record) that the summary reads.
--
-- An instance is an empty table whose locked metatable reads and writes its state (kept in
-- `internals`, out of the script's reach). Reading a member looks for a property, a method, an
-- event, then a child of that name, as Roblox does; a member that is none of these raises
-- "Part.Foo is not available in a dry run". Tree walks (GetDescendants, Destroy, Clone, the circular
-- parent check) are loops, not recursion, so a deep tree costs instructions, not stack.

local dry = ...
-- The script shares these globals and may replace them; the emulation keeps the originals.
local pairs, ipairs, next, type, tostring, tonumber, select = pairs, ipairs, next, type, tostring, tonumber, select
local error, pcall, setmetatable, getmetatable, rawget = error, pcall, setmetatable, getmetatable, rawget
local table, string, math, coroutine, os = table, string, math, coroutine, os
local scheduler, signals, datatypes, enums = dry.scheduler, dry.signals, dry.datatypes, dry.enums
local format = string.format

local LOCKED = "The metatable is locked"

local instances = {}
local internals = setmetatable({}, { __mode = "k" })
local classes = {}
local InstanceMeta = { __metatable = LOCKED }
dry.typeNames[InstanceMeta] = "Instance"

-- What the script did: instances it created and destroyed (by class), and the properties it set.
local record = { created = {}, destroyed = {}, changes = {}, changeOrder = {}, propertiesSet = 0 }
dry.record = record
local function count(map, key)
  map[key] = (map[key] or 0) + 1
end

local function state(instance)
  return internals[instance]
end
instances.state = state

function instances.is(value)
  return internals[value] ~= nil
end

-- Lists and dictionaries the API answers can be iterated the Luau way, `for _, child in
-- folder:GetChildren() do`, which the sandbox's Luau lowering does not do for tables yet: a
-- generic for calls its table, and __call answers the next entry as ipairs (or next) would.
local ListMeta = {
  __call = function(list, _, index)
    index = (index or 0) + 1
    local value = list[index]
    if value ~= nil then
      return index, value
    end
  end,
}
local DictionaryMeta = {
  __call = function(dictionary, _, key)
    return next(dictionary, key)
  end,
}

function instances.list(list)
  return setmetatable(list, ListMeta)
end

function instances.dictionary(dictionary)
  return setmetatable(dictionary, DictionaryMeta)
end

---------------------------------------------------------------------------------------------------
-- Classes

-- Property kinds: "number", "int", "string", "boolean", "function", "any", a data type name
-- ("Vector3", "CFrame", "Color3", "BrickColor", "UDim2", "Vector2"), "Instance", or "Enum.<Name>".
local function checkValue(kind, value, key, level)
  local actual = dry.typeof(value)
  if kind == "any" then
    return value
  elseif kind == "number" or kind == "int" then
    local number = tonumber(value)
    if number ~= nil and (actual == "number" or actual == "string") then
      if kind == "int" then
        return number >= 0 and math.floor(number) or math.ceil(number)
      end
      return number
    end
  elseif kind == "string" then
    if actual == "string" or actual == "number" then
      return tostring(value)
    end
  elseif kind == "boolean" then
    if actual == "boolean" then
      return value
    end
  elseif kind == "function" then
    if value == nil or actual == "function" then
      return value
    end
  elseif kind == "Instance" then
    if value == nil or internals[value] then
      return value
    end
  elseif string.sub(kind, 1, 5) == "Enum." then
    local item = enums.coerce(value, string.sub(kind, 6))
    if item then
      return item
    end
  elseif actual == kind then
    return value
  end
  error(format("Unable to assign property %s. %s expected, got %s", key, kind, actual), level + 1)
end

-- Answers its arguments: `return pass(fn(...))` keeps fn's caller frame, so errors raised at level
-- 3 inside a method point at the script's line (a tail call would drop the method's frame).
local function pass(...)
  return ...
end

-- define(name, super, { properties = { Name = { kind, default, readOnly, get, set } },
--   methods = { Name = fn(self, ...) }, events = { "Name"... }, unavailable = { "Name"... },
--   creatable = bool, service = bool, valueChanged = bool, init = fn(self) })
function instances.define(name, superName, spec)
  local super = superName and classes[superName]
  if superName and not super then
    error("unknown superclass " .. superName)
  end
  local class = {
    name = name,
    super = super,
    properties = setmetatable(spec.properties or {}, { __index = super and super.properties }),
    methods = setmetatable({}, { __index = super and super.methods }),
    events = setmetatable({}, { __index = super and super.events }),
    unavailable = setmetatable({}, { __index = super and super.unavailable }),
    creatable = spec.creatable,
    service = spec.service,
    valueChanged = spec.valueChanged or (super and super.valueChanged),
    init = spec.init,
    ancestry = setmetatable({ [name] = true }, { __index = super and super.ancestry }),
  }
  for methodName, fn in pairs(spec.methods or {}) do
    class.methods[methodName] = function(instance, ...)
      local self = internals[instance]
      if self == nil then
        error("Expected ':' not '.' calling member function " .. methodName, 2)
      end
      return pass(fn(self, ...))
    end
  end
  for _, eventName in ipairs(spec.events or {}) do
    class.events[eventName] = true
  end
  for _, methodName in ipairs(spec.unavailable or {}) do
    class.unavailable[methodName] = function()
      dry.notAvailable(name .. ":" .. methodName, 2)
    end
  end
  classes[name] = class
  return class
end

function instances.class(name)
  return classes[name]
end

---------------------------------------------------------------------------------------------------
-- Reading and writing members

local function fullName(self)
  local parts = {}
  local node = self
  while node and node.class.name ~= "DataModel" do
    parts[#parts + 1] = node.name
    node = node.parent and internals[node.parent]
  end
  -- Collected leaf first; reversed in place (inserting at the front would be quadratic in depth).
  local count = #parts
  for index = 1, count // 2 do
    parts[index], parts[count - index + 1] = parts[count - index + 1], parts[index]
  end
  return table.concat(parts, ".")
end
instances.fullName = fullName

local function findChild(self, name)
  for _, child in ipairs(self.children) do
    if internals[child].name == name then
      return child
    end
  end
  return nil
end

local function signalOf(self, eventName)
  self.signals = self.signals or {}
  local signal = self.signals[eventName]
  if signal == nil then
    signal = signals.new(eventName)
    self.signals[eventName] = signal
  end
  return signal
end
instances.signalOf = signalOf

-- Fires an event only if the script ever asked for it (most never are).
local function fire(self, eventName, ...)
  local signal = self.signals and self.signals[eventName]
  if signal then
    signals.fire(signal, ...)
  end
end
instances.fire = fire

local function read(self, key)
  local property = self.class.properties[key]
  if property.get then
    return property.get(self)
  end
  local value = self.values[key]
  if value == nil then
    local default = property.default
    if type(default) == "function" then
      value = default(self)
      self.values[key] = value
    else
      value = default
    end
  end
  return value
end
instances.read = read

-- Stores a value, firing Changed and the property's signal when it changed.
local function store(self, key, value)
  local old = read(self, key)
  self.values[key] = value
  if old ~= value then
    if self.class.valueChanged then
      if key == "Value" then
        fire(self, "Changed", value)
      end
    else
      fire(self, "Changed", key)
    end
    local propertySignals = self.propertySignals
    if propertySignals and propertySignals[key] then
      signals.fire(propertySignals[key])
    end
  end
end
instances.store = store

-- A property the script set (the emulation's own writes go through store, not here).
local function noteChange(self, key)
  record.propertiesSet = record.propertiesSet + 1
  if self.byScript then
    return
  end
  local keys = record.changes[self]
  if keys == nil then
    keys = {}
    record.changes[self] = keys
  end
  if not keys[key] then
    keys[key] = true
    record.changeOrder[#record.changeOrder + 1] = { self = self, key = key }
  end
end

InstanceMeta.__index = function(instance, key)
  local self = internals[instance]
  local class = self.class
  if class.properties[key] then
    return read(self, key)
  end
  local method = class.methods[key]
  if method then
    return method
  end
  if class.events[key] then
    return signalOf(self, key)
  end
  local child = findChild(self, key)
  if child then
    return child
  end
  local unavailable = class.unavailable[key]
  if unavailable then
    return unavailable
  end
  dry.notAvailable(class.name .. "." .. tostring(key), 2)
end

-- Writes a property as the script does: checked, converted, stored, and recorded.
local function assign(self, key, value, level)
  local property = self.class.properties[key]
  if property == nil then
    if self.class.methods[key] or self.class.events[key] then
      error(format("Unable to assign property %s. Property is read only", tostring(key)), level + 1)
    end
    dry.notAvailable(self.class.name .. "." .. tostring(key), level + 1)
  elseif property.readOnly then
    error(format("Unable to assign property %s. Property is read only", key), level + 1)
  end
  value = checkValue(property.kind, value, key, level + 1)
  if property.set then
    -- From inside the setter, the script sits two frames further than from here.
    property.set(self, value, level + 2)
  else
    store(self, key, value)
  end
  noteChange(self, key)
end
instances.assign = assign

InstanceMeta.__newindex = function(instance, key, value)
  assign(internals[instance], key, value, 2)
end

InstanceMeta.__tostring = function(instance)
  return internals[instance].name
end

---------------------------------------------------------------------------------------------------
-- The tree

local function wakeChildWaiters(parentSelf, child)
  local waiters = parentSelf.childWaiters
  local name = internals[child].name
  local list = waiters and waiters[name]
  if list then
    waiters[name] = nil
    for _, waiter in ipairs(list) do
      scheduler.wake(waiter.thread, waiter.ticket, child)
    end
  end
end

local function isAncestor(candidate, self)
  local node = self.parent
  while node do
    if node == candidate then
      return true
    end
    node = internals[node].parent
  end
  return false
end

-- `level`: where the script is, seen from here, for the position in errors (3 by default).
function instances.setParent(self, parent, level)
  level = level or 3
  if self.parentLocked then
    error(format("The Parent property of %s is locked, current parent: %s, new parent %s", self.name,
      self.parent and internals[self.parent].name or "NULL", parent and internals[parent].name or "NULL"), level)
  end
  if parent ~= nil and internals[parent] == nil then
    error("Unable to assign property Parent. Instance expected, got " .. dry.typeof(parent), level)
  end
  if parent == self.proxy then
    error(format("Attempt to set %s as its own parent", fullName(self)), level)
  end
  local parentSelf = parent and internals[parent]
  if parentSelf and isAncestor(self.proxy, parentSelf) then
    error(format("Attempt to set parent of %s to %s would result in circular reference", fullName(self),
      fullName(parentSelf)), level)
  end
  local old = self.parent
  if old == parent then
    return
  end
  if old then
    local oldSelf = internals[old]
    local siblings = oldSelf.children
    for index = #siblings, 1, -1 do
      if siblings[index] == self.proxy then
        table.remove(siblings, index)
        break
      end
    end
    self.parent = nil
    fire(oldSelf, "ChildRemoved", self.proxy)
    local node = oldSelf
    while node do
      fire(node, "DescendantRemoving", self.proxy)
      node = node.parent and internals[node.parent]
    end
  end
  self.parent = parent
  if parentSelf then
    parentSelf.children[#parentSelf.children + 1] = self.proxy
    fire(parentSelf, "ChildAdded", self.proxy)
    local node = parentSelf
    while node do
      fire(node, "DescendantAdded", self.proxy)
      node = node.parent and internals[node.parent]
    end
    wakeChildWaiters(parentSelf, self.proxy)
  end
  fire(self, "AncestryChanged", self.proxy, parent)
  fire(self, "Changed", "Parent")
  if self.propertySignals and self.propertySignals.Parent then
    signals.fire(self.propertySignals.Parent)
  end
end

local function rename(self, name)
  if self.name == name then
    return
  end
  self.name = name
  fire(self, "Changed", "Name")
  if self.propertySignals and self.propertySignals.Name then
    signals.fire(self.propertySignals.Name)
  end
  if self.parent then
    wakeChildWaiters(internals[self.parent], self.proxy)
  end
end

-- Every descendant, depth first, in child order.
local function descendants(self)
  local list = {}
  local stack = {}
  for index = #self.children, 1, -1 do
    stack[#stack + 1] = self.children[index]
  end
  while #stack > 0 do
    local node = stack[#stack]
    stack[#stack] = nil
    list[#list + 1] = node
    local children = internals[node].children
    for index = #children, 1, -1 do
      stack[#stack + 1] = children[index]
    end
  end
  return list
end
instances.descendants = descendants

---------------------------------------------------------------------------------------------------
-- Creating

-- A new instance of a class; `byScript` says whether the script made it (the summary counts those;
-- the emulation's own, such as the player's character, are not).
function instances.new(className, byScript)
  local class = classes[className]
  local instance = setmetatable({}, InstanceMeta)
  local self = {
    proxy = instance,
    class = class,
    name = className,
    children = {},
    values = {},
    byScript = byScript == true,
  }
  internals[instance] = self
  if class.init then
    class.init(self)
  end
  if self.byScript then
    count(record.created, className)
  end
  return instance, self
end

-- Instance.new itself: the script calls it directly, so its errors are raised at level 2.
local function createInstance(className, parent)
  if type(className) ~= "string" then
    error("invalid argument #1 to 'new' (string expected, got " .. dry.typeof(className) .. ")", 2)
  end
  local class = classes[className]
  if class == nil or not class.creatable then
    if class and class.service then
      error(format("Unable to create an Instance of type \"%s\"", className), 2)
    end
    dry.notAvailable('Instance.new("' .. className .. '")', 2)
  end
  local instance, self = instances.new(className, true)
  if parent ~= nil then
    if internals[parent] == nil then
      error("invalid argument #2 to 'new' (Instance expected, got " .. dry.typeof(parent) .. ")", 2)
    end
    instances.setParent(self, parent, 3)
    noteChange(self, "Parent")
  end
  return instance
end

instances.Instance = setmetatable({
  new = createInstance,
}, {
  __index = function(_, key)
    dry.notAvailable("Instance." .. tostring(key), 2)
  end,
  __newindex = function(_, key)
    error(tostring(key) .. " cannot be assigned to", 2)
  end,
  __metatable = LOCKED,
})

local function clone(self)
  if self.archivable == false then
    return nil
  end
  local copies = {}
  local function copyOne(source)
    local copy, copySelf = instances.new(source.class.name, true)
    copySelf.name = source.name
    for key, value in pairs(source.values) do
      copySelf.values[key] = value
    end
    if source.attributes then
      copySelf.attributes = {}
      for key, value in pairs(source.attributes) do
        copySelf.attributes[key] = value
      end
    end
    copies[source.proxy] = copy
    return copySelf
  end
  local root = copyOne(self)
  local stack = { { self, root } }
  while #stack > 0 do
    local pair = stack[#stack]
    stack[#stack] = nil
    for _, child in ipairs(pair[1].children) do
      local childSelf = internals[child]
      if childSelf.archivable ~= false then
        local copySelf = copyOne(childSelf)
        copySelf.parent = pair[2].proxy
        pair[2].children[#pair[2].children + 1] = copySelf.proxy
        stack[#stack + 1] = { childSelf, copySelf }
      end
    end
  end
  -- References inside the copied tree (a Model's PrimaryPart, an ObjectValue) point into the copy.
  for _, copy in pairs(copies) do
    local copySelf = internals[copy]
    for key, value in pairs(copySelf.values) do
      if internals[value] and copies[value] then
        copySelf.values[key] = copies[value]
      end
    end
  end
  return root.proxy
end

local function destroy(self, byScript)
  if self.destroyed then
    return
  end
  fire(self, "Destroying")
  if self.parent and not self.parentLocked then
    instances.setParent(self, nil)
  end
  local all = descendants(self)
  all[#all + 1] = self.proxy
  for _, node in ipairs(all) do
    local nodeSelf = internals[node]
    if not nodeSelf.destroyed then
      nodeSelf.destroyed = true
      nodeSelf.parentLocked = true
      if byScript then
        count(record.destroyed, nodeSelf.class.name)
      end
      if nodeSelf ~= self then
        nodeSelf.parent = nil
      end
      nodeSelf.children = {}
      for _, signal in pairs(nodeSelf.signals or {}) do
        signals.disconnectAll(signal)
      end
    end
  end
end
instances.destroy = destroy

---------------------------------------------------------------------------------------------------
-- The Instance class

local function checkString(value, position, fn)
  if type(value) ~= "string" then
    error(format("invalid argument #%d to '%s' (string expected, got %s)", position, fn, dry.typeof(value)), 4)
  end
  return value
end

local function isA(self, className)
  return self.class.ancestry[className] == true
end

local function waitForChild(self, name, timeout)
  checkString(name, 1, "WaitForChild")
  local child = findChild(self, name)
  if child then
    return child
  end
  local thread = scheduler.current()
  local ticket = {}
  self.childWaiters = self.childWaiters or {}
  local list = self.childWaiters[name] or {}
  self.childWaiters[name] = list
  list[#list + 1] = { thread = thread, ticket = ticket }
  if timeout ~= nil then
    scheduler.after(tonumber(timeout) or 0, function()
      scheduler.wake(thread, ticket, nil)
    end)
  else
    -- Roblox's own warning after 5 s of waiting without a timeout.
    scheduler.after(5, function()
      if scheduler.isWaiting(thread, ticket) then
        dry.emit(1, format("Infinite yield possible on '%s:WaitForChild(\"%s\")'", fullName(self), name))
      end
    end)
  end
  return scheduler.suspend(thread, ticket)
end

local ATTRIBUTE_TYPES = {
  ["nil"] = true, boolean = true, number = true, string = true, Vector3 = true, Vector2 = true, Color3 = true,
  CFrame = true, UDim = true, UDim2 = true, BrickColor = true, EnumItem = true, NumberRange = true,
}

instances.define("Instance", nil, {
  properties = {
    Name = {
      kind = "string",
      get = function(self)
        return self.name
      end,
      set = rename,
    },
    ClassName = {
      readOnly = true,
      get = function(self)
        return self.class.name
      end,
    },
    Parent = {
      kind = "Instance",
      get = function(self)
        return self.parent
      end,
      set = function(self, value, level)
        instances.setParent(self, value, level + 1)
      end,
    },
    Archivable = {
      kind = "boolean",
      get = function(self)
        return self.archivable ~= false
      end,
      set = function(self, value)
        self.archivable = value
      end,
    },
  },
  events = { "Changed", "ChildAdded", "ChildRemoved", "DescendantAdded", "DescendantRemoving", "AncestryChanged",
    "Destroying", "AttributeChanged" },
  methods = {
    FindFirstChild = function(self, name, recursive)
      checkString(name, 1, "FindFirstChild")
      if not recursive then
        return findChild(self, name)
      end
      for _, node in ipairs(descendants(self)) do
        if internals[node].name == name then
          return node
        end
      end
      return nil
    end,
    FindFirstChildOfClass = function(self, className)
      checkString(className, 1, "FindFirstChildOfClass")
      for _, child in ipairs(self.children) do
        if internals[child].class.name == className then
          return child
        end
      end
      return nil
    end,
    FindFirstChildWhichIsA = function(self, className, recursive)
      checkString(className, 1, "FindFirstChildWhichIsA")
      for _, child in ipairs(recursive and descendants(self) or self.children) do
        if isA(internals[child], className) then
          return child
        end
      end
      return nil
    end,
    FindFirstAncestor = function(self, name)
      local node = self.parent
      while node do
        if internals[node].name == name then
          return node
        end
        node = internals[node].parent
      end
      return nil
    end,
    FindFirstAncestorOfClass = function(self, className)
      local node = self.parent
      while node do
        if internals[node].class.name == className then
          return node
        end
        node = internals[node].parent
      end
      return nil
    end,
    FindFirstAncestorWhichIsA = function(self, className)
      local node = self.parent
      while node do
        if isA(internals[node], className) then
          return node
        end
        node = internals[node].parent
      end
      return nil
    end,
    GetChildren = function(self)
      return instances.list(table.move(self.children, 1, #self.children, 1, {}))
    end,
    GetDescendants = function(self)
      return instances.list(descendants(self))
    end,
    IsA = function(self, className)
      return isA(self, className)
    end,
    IsDescendantOf = function(self, other)
      return other ~= nil and isAncestor(other, self)
    end,
    IsAncestorOf = function(self, other)
      return internals[other] ~= nil and isAncestor(self.proxy, internals[other])
    end,
    GetFullName = fullName,
    WaitForChild = waitForChild,
    Destroy = function(self)
      destroy(self, true)
    end,
    Remove = function(self)
      instances.setParent(self, nil)
    end,
    ClearAllChildren = function(self)
      for _, child in ipairs(table.move(self.children, 1, #self.children, 1, {})) do
        destroy(internals[child], true)
      end
    end,
    Clone = clone,
    GetPropertyChangedSignal = function(self, name)
      if type(name) ~= "string" or self.class.properties[name] == nil then
        error(tostring(name) .. " is not a valid property name.", 3)
      end
      self.propertySignals = self.propertySignals or {}
      local signal = self.propertySignals[name]
      if signal == nil then
        signal = signals.new(name)
        self.propertySignals[name] = signal
      end
      return signal
    end,
    GetAttribute = function(self, name)
      checkString(name, 1, "GetAttribute")
      return self.attributes and self.attributes[name]
    end,
    SetAttribute = function(self, name, value)
      checkString(name, 1, "SetAttribute")
      if not ATTRIBUTE_TYPES[dry.typeof(value)] then
        error(dry.typeof(value) .. " is not a supported attribute type", 3)
      end
      self.attributes = self.attributes or {}
      if self.attributes[name] ~= value then
        self.attributes[name] = value
        fire(self, "AttributeChanged", name)
        local attributeSignals = self.attributeSignals
        if attributeSignals and attributeSignals[name] then
          signals.fire(attributeSignals[name])
        end
      end
    end,
    GetAttributes = function(self)
      local copy = {}
      for key, value in pairs(self.attributes or {}) do
        copy[key] = value
      end
      return instances.dictionary(copy)
    end,
    GetAttributeChangedSignal = function(self, name)
      checkString(name, 1, "GetAttributeChangedSignal")
      self.attributeSignals = self.attributeSignals or {}
      local signal = self.attributeSignals[name] or signals.new(name)
      self.attributeSignals[name] = signal
      return signal
    end,
    AddTag = function(self, tag)
      dry.tags.add(self.proxy, checkString(tag, 1, "AddTag"))
    end,
    RemoveTag = function(self, tag)
      dry.tags.remove(self.proxy, checkString(tag, 1, "RemoveTag"))
    end,
    HasTag = function(self, tag)
      return dry.tags.has(self.proxy, checkString(tag, 1, "HasTag"))
    end,
    GetTags = function(self)
      return instances.list(dry.tags.of(self.proxy))
    end,
  },
})

return instances
