-- RBXScriptSignal and RBXScriptConnection for a dry run: Connect, Once, Wait, Disconnect and
-- Connected. Firing runs each handler at once in a thread of its own (Roblox's immediate mode), so
-- a handler that waits or fails holds up neither the code that fired nor the other handlers.

local dry = ...
-- The script shares these globals and may replace them; the emulation keeps the originals.
local pairs, ipairs, next, type, tostring, tonumber, select = pairs, ipairs, next, type, tostring, tonumber, select
local error, pcall, setmetatable, getmetatable, rawget = error, pcall, setmetatable, getmetatable, rawget
local table, string, math, coroutine, os = table, string, math, coroutine, os
local scheduler, typeNames = dry.scheduler, dry.typeNames

local SignalMeta, ConnectionMeta = {}, {}
typeNames[SignalMeta] = "RBXScriptSignal"
typeNames[ConnectionMeta] = "RBXScriptConnection"

-- signal -> { name, connections = { connection... }, waiting = { { thread, ticket }... } }
local signals = setmetatable({}, { __mode = "k" })
-- connection -> { signal, fn, connected, once }
local connections = setmetatable({}, { __mode = "k" })

local function disconnect(connection)
  local data = connections[connection]
  if not data.connected then
    return
  end
  data.connected = false
  local list = signals[data.signal].connections
  for index = 1, #list do
    if list[index] == connection then
      table.remove(list, index)
      break
    end
  end
end

ConnectionMeta.__index = function(connection, key)
  if key == "Connected" then
    return connections[connection].connected
  elseif key == "Disconnect" then
    return disconnect
  end
  error(tostring(key) .. " is not a valid member of RBXScriptConnection", 2)
end
ConnectionMeta.__newindex = function(_, key)
  error(tostring(key) .. " cannot be assigned to", 2)
end
ConnectionMeta.__tostring = function()
  return "Connection"
end

local function checkSignal(signal, name)
  if signals[signal] == nil then
    error("Expected ':' not '.' calling member function " .. name, 3)
  end
  return signals[signal]
end

local function connect(signal, fn, once, name)
  local data = checkSignal(signal, name)
  if type(fn) ~= "function" then
    error("Attempt to connect failed: Passed value is not a function", 3)
  end
  local connection = setmetatable({}, ConnectionMeta)
  connections[connection] = { signal = signal, fn = fn, connected = true, once = once }
  data.connections[#data.connections + 1] = connection
  return connection
end

local methods = {
  Connect = function(signal, fn)
    return connect(signal, fn, false, "Connect")
  end,
  Once = function(signal, fn)
    return connect(signal, fn, true, "Once")
  end,
  Wait = function(signal)
    local data = checkSignal(signal, "Wait")
    local thread = scheduler.current()
    local ticket = {}
    data.waiting[#data.waiting + 1] = { thread = thread, ticket = ticket }
    return scheduler.suspend(thread, ticket)
  end,
}

SignalMeta.__index = function(signal, key)
  local method = methods[key]
  if method then
    return method
  end
  error(tostring(key) .. " is not a valid member of RBXScriptSignal", 2)
end
SignalMeta.__newindex = ConnectionMeta.__newindex
SignalMeta.__tostring = function(signal)
  return "Signal " .. signals[signal].name
end

local module = {}

function module.new(name)
  local signal = setmetatable({}, SignalMeta)
  signals[signal] = { name = name, connections = {}, waiting = {} }
  return signal
end

-- Whether anything listens: a connection or a waiting thread.
function module.isListened(signal)
  local data = signals[signal]
  return #data.connections > 0 or #data.waiting > 0
end

function module.fire(signal, ...)
  local data = signals[signal]
  if #data.connections == 0 and #data.waiting == 0 then
    return
  end
  -- Handlers connected or disconnected while firing take effect from the next firing.
  local list = table.move(data.connections, 1, #data.connections, 1, {})
  for _, connection in ipairs(list) do
    local entry = connections[connection]
    if entry.connected then
      if entry.once then
        disconnect(connection)
      end
      scheduler.handler(entry.fn, ...)
    end
  end
  local waiting = data.waiting
  data.waiting = {}
  for _, waiter in ipairs(waiting) do
    scheduler.wake(waiter.thread, waiter.ticket, ...)
  end
end

function module.disconnectAll(signal)
  local data = signals[signal]
  for _, connection in ipairs(table.move(data.connections, 1, #data.connections, 1, {})) do
    disconnect(connection)
  end
end

return module
