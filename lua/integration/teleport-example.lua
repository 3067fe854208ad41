-- Moonrelay Dashboard Teleport Script (example)
--
-- Takes the first player on a tour of named locations, moving the character the same way the
-- dashboard's teleport command does: character:PivotTo(CFrame.new(x, y, z)). Run it from the
-- script executor at {{SERVER_URL}} while your game is connected, or put it in a Script in
-- ServerScriptService. Change LOCATIONS to places in your own map, and ROUTE to the order you want.

local LOCATIONS = {
  spawn = { x = 0, y = 50, z = 0 },
  tower = { x = 120, y = 180, z = -40 },
  arena = { x = -250, y = 25, z = 310 },
  secret = { x = 900, y = 400, z = -900 },
}
local ROUTE = { "spawn", "tower", "arena", "secret", "spawn" }
-- Seconds spent at each stop.
local PAUSE = 3

local Players = game:GetService("Players")

local function teleport(player, name)
  local spot = LOCATIONS[name]
  if not spot then
    warn("Unknown location: " .. tostring(name))
    return false
  end
  local character = player.Character
  if not character then
    warn(player.Name .. " has no character yet")
    return false
  end
  character:PivotTo(CFrame.new(spot.x, spot.y, spot.z))
  print("Teleported " .. player.Name .. " to " .. name .. " (" .. tostring(spot.x) .. ", " .. tostring(spot.y)
    .. ", " .. tostring(spot.z) .. ")")
  return true
end

-- In a Script the server may start before anyone joins: wait for the first player and character.
local player = Players:GetPlayers()[1] or Players.PlayerAdded:Wait()
if not player.Character then
  player.CharacterAdded:Wait()
end

for index, name in ipairs(ROUTE) do
  teleport(player, name)
  if index < #ROUTE then
    task.wait(PAUSE)
  end
end
print("Tour finished")
