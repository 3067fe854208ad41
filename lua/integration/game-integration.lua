-- Moonrelay Game Integration Script
--
-- Put this in a Script in ServerScriptService. It links this game server to your Moonrelay
-- dashboard: about every 2 seconds it reports the player's data, it takes the commands you send
-- (teleport, heal, speed, reset, code to run, and the kicks, warnings and bans of Players) the
-- moment you send them, it runs your
-- auto-execute scripts once, and what this server's scripts print, warn and throw shows in the
-- dashboard's Console.
--
-- Needs Game Settings > Security > Allow HTTP Requests. Running code from the dashboard also needs
-- LoadStringEnabled, ticked on ServerScriptService in Studio's Properties window; without it
-- everything else still works.
--
-- Keep the API key below secret: anyone holding it can control your game through Moonrelay. If it
-- leaks, regenerate it in Settings and copy this script again.
--
-- Written in the part of the language that Luau and Lua 5.4 share (no type annotations, +=,
-- continue or backtick strings), so Moonrelay's tests run this very file in an emulated game.

local CONFIG = {
  serverUrl = "{{SERVER_URL}}",
  apiKey = "{{API_KEY}}",
  -- Seconds between pings. A live server may send 500 HTTP requests a minute; this spends 30.
  pingInterval = 2,
  -- Long-poll: each ping asks Moonrelay to hold its answer until a command for this server comes
  -- or pingInterval passes, so a command arrives within milliseconds for the same 30 requests a
  -- minute. false: plain pings every pingInterval, and a command waits for the next one.
  longPoll = true,
  -- After a failed ping the wait doubles (2, 4, 8, ... s) up to this many seconds.
  maxBackoff = 60,
  -- Seconds between two fetches of your scripts, to run the auto-execute ones.
  scriptSyncInterval = 10,
  -- Seconds between two auto-execute scripts.
  autoExecutePause = 0.5,
  -- The player the dashboard shows and commands act on: a player's name, or nil for the first player.
  playerName = nil,
  -- Send this server's output (prints, warnings, errors with their stack) to the dashboard's Console,
  -- with the pings: it never costs a request of its own. false keeps the output here.
  console = true,
}

-- The script's budgets (the table in docs/protocol.md, checked against Moonrelay's limits by its
-- tests). A ping's JSON is never larger than PING_MAX_BYTES (Moonrelay takes 1 MiB); the results in
-- it at most RESULTS_PER_PING of them and RESULTS_BYTES_PER_PING of JSON, each result at most
-- RESULT_MAX_BYTES (its output and error cut further, with a note, if its JSON would be larger:
-- control characters take six bytes each in JSON); an output or error at most MAX_TEXT_BYTES before
-- that. At most RESULT_QUEUE_MAX results wait to be sent.
local PING_MAX_BYTES = 768 * 1024
local MAX_RESULTS_PER_PING = 20
local RESULTS_BYTES_PER_PING = 512 * 1024
local RESULT_MAX_BYTES = 128 * 1024
local MAX_TEXT_BYTES = 60000
local RESULT_QUEUE_MAX = 100
-- A player's name is sent up to this many bytes (Roblox's names are at most 20).
local PLAYER_NAME_MAX_BYTES = 100
-- The roster: at most this many players (Roblox's largest server holds 700), each name and display
-- name cut to this many bytes (Roblox allows 20 characters of each).
local ROSTER_MAX_PLAYERS = 700
local ROSTER_NAME_MAX_BYTES = 60
-- Moderation: Roblox's error for one player of a ban or unban is sent up to this many bytes (its
-- control characters made spaces), so a report on the 50 players of one BanAsync call stays well
-- inside MAX_TEXT_BYTES. A warning shows on the player's screen this many seconds.
local BAN_ERROR_MAX_BYTES = 500
local WARNING_SECONDS = 10
-- Command ids remembered to skip a repeated delivery (delivery is at least once).
local REMEMBERED_COMMANDS = 500
local BASE_WALK_SPEED = 16
-- A long-poll is held at most this many seconds, however long pingInterval is: the server reads a
-- ping's player data when it arrives and counts a game connected for 10 s after its last ping
-- arrived, so a longer hold would show this server as gone. It also keeps every request far inside
-- RequestAsync's own timeout and the idle timeouts of proxies in front of Moonrelay.
local LONG_POLL_MAX_WAIT = 8
-- Least time between the starts of two pings, even when answers bring commands back to back (their
-- results go up on the next ping at once): at most 240 pings a minute in a burst, under Moonrelay's
-- budget of 300 per game server and Roblox's 500, even against a server that misbehaves.
local MIN_PING_GAP = 0.25
-- The longest Retry-After honoured: a broken header must not silence a game for a day.
local MAX_RETRY_AFTER = 600
-- The Console's limits (docs/protocol.md): lines and bytes (of text, stack and script name, plus a
-- little for each line's other fields) a ping carries at most; lines waiting at most, past which the
-- oldest plain output is dropped and counted (warnings and errors only once nothing else is left);
-- and the bytes kept of a line's text and of an error's stack, so that with the "... (truncated)"
-- note they stay within the 2,000 and 4,000 characters Moonrelay keeps.
local CONSOLE_LINES_PER_PING = 200
local CONSOLE_BYTES_PER_PING = 32 * 1024
local CONSOLE_LINE_OVERHEAD = 100
local CONSOLE_BUFFER_LINES = 1000
local CONSOLE_TEXT_BYTES = 1980
local CONSOLE_STACK_BYTES = 3980
local CONSOLE_SCRIPT_BYTES = 200
-- Errors remembered to pair ScriptContext.Error with the MessageOut line of the same error.
local CONSOLE_RECENT_ERRORS = 10
-- The start of this script's own lines.
local OWN_PREFIX = "[Moonrelay] "

local HttpService = game:GetService("HttpService")
local Players = game:GetService("Players")

local serverId = (game.JobId ~= "" and game.JobId) or "studio"
-- Code from the dashboard sees the same globals as this script, with print and warn captured.
local scriptEnvironment = getfenv(0)

local function log(message)
  print(OWN_PREFIX .. message)
end

local function warnLog(message)
  warn(OWN_PREFIX .. message)
end

local httpReadable, httpEnabled = pcall(function()
  return HttpService.HttpEnabled
end)
if httpReadable and httpEnabled == false then
  warnLog("HTTP requests are off, so Moonrelay cannot connect. Turn on Game Settings > Security >"
    .. " Allow HTTP Requests, then start the server again.")
  return
end

local loadstringWorks, probe = pcall(loadstring, "return true")
local canRunCode = loadstringWorks and type(probe) == "function"
if not canRunCode then
  warnLog("loadstring is off: code from the dashboard and auto-execute scripts cannot run here. Tick"
    .. " LoadStringEnabled on ServerScriptService in Studio to allow it. Teleport, heal, speed and reset still work.")
end
local CODE_DISABLED = "loadstring is disabled in this game (tick ServerScriptService.LoadStringEnabled in Studio)"

local running = true

-- Valid UTF-8 (a byte that is not becomes "?", as JSON needs text), in one pass: each utf8.len
-- call reads on from the last bad byte, and the pieces are joined once at the end, so a text full
-- of bad bytes (binary output) costs the same per byte as a clean one.
local function validText(text)
  local valid, bad = utf8.len(text)
  if valid then
    return text
  end
  -- Bytes that never occur in UTF-8 (0xC0, 0xC1, 0xF5-0xFF) are replaced in one C-speed pass first:
  -- binary output is mostly such bytes, and each one left would cost a call below.
  text = string.gsub(text, "[\192\193\245-\255]", "?")
  -- So are runs of continuation bytes (0x80-0xBF) with no lead byte before them: one call a run.
  local function questionMarks(before, run)
    return before .. string.rep("?", #run)
  end
  text = string.gsub(text, "^()([\128-\191]+)", function(_, run)
    return string.rep("?", #run)
  end)
  text = string.gsub(text, "([\1-\127])([\128-\191]+)", questionMarks)
  valid, bad = utf8.len(text)
  if valid then
    return text
  end
  local pieces = {}
  local start = 1
  while bad do
    pieces[#pieces + 1] = string.sub(text, start, bad - 1)
    pieces[#pieces + 1] = "?"
    start = bad + 1
    valid, bad = utf8.len(text, start)
  end
  pieces[#pieces + 1] = string.sub(text, start)
  return table.concat(pieces)
end

-- At most maxBytes of the text, cut first (so a huge text costs only what is kept) and then made
-- valid UTF-8; a cut text ends with the note. The cut steps back over at most three continuation
-- bytes (0x80-0xBF), so a character is not cut in half.
local function safeText(text, maxBytes, note)
  if #text <= maxBytes then
    return validText(text)
  end
  local cut = maxBytes
  for _ = 1, 3 do
    local byte = string.byte(text, cut + 1)
    if cut > 0 and byte >= 128 and byte < 192 then
      cut = cut - 1
    end
  end
  return validText(string.sub(text, 1, cut)) .. (note or "\n... (truncated)")
end

local function outputTruncated(totalBytes)
  return "\n... (output truncated: " .. tostring(totalBytes) .. " bytes, the rest was not sent)"
end

-- A number the server accepts, or nil: a NaN, an infinity (math.huge health) or a value out of
-- range would make the whole ping invalid, so such a field is left out instead.
local function finiteNumber(value, limit)
  if type(value) ~= "number" or value ~= value or value > limit or value < -limit then
    return nil
  end
  return value
end

---------------------------------------------------------------------------------------------------
-- The player

local function choosePlayer()
  local players = Players:GetPlayers()
  if CONFIG.playerName == nil then
    return players[1]
  end
  for _, player in ipairs(players) do
    if player.Name == CONFIG.playerName then
      return player
    end
  end
  return nil
end

local function collectPlayerData()
  local data = { placeId = game.PlaceId, gameId = game.GameId, universeId = game.GameId }
  local player = choosePlayer()
  if not player then
    return data
  end
  data.playerName = safeText(tostring(player.Name), PLAYER_NAME_MAX_BYTES)
  -- Negative for Studio's test players (Player1 is -1); Moonrelay shows the server as Studio.
  data.userId = player.UserId
  local character = player.Character
  if not character then
    return data
  end
  local root = character:FindFirstChild("HumanoidRootPart")
  if root then
    local position = root.Position
    local x, y, z = finiteNumber(position.X, 1e7), finiteNumber(position.Y, 1e7), finiteNumber(position.Z, 1e7)
    if x and y and z then
      data.position = { x = x, y = y, z = z }
    end
  end
  local humanoid = character:FindFirstChildOfClass("Humanoid")
  if humanoid then
    data.health = finiteNumber(humanoid.Health, 1e9)
    data.maxHealth = finiteNumber(humanoid.MaxHealth, 1e9)
    data.walkSpeed = finiteNumber(humanoid.WalkSpeed, 1e6)
  end
  return data
end

-- The roster (docs/protocol.md, "Roster"): the players Moonrelay has for this server, as of the last
-- accepted ping. A ping carries only what changed since (joined, left), worked out from
-- Players:GetPlayers() rather than from join and leave events, so nothing is missed or sent twice
-- whatever order those come in. The whole roster goes on the first ping and whenever Moonrelay asks
-- for it (it restarted, or counted this server gone).
local rosterSent = {}
local rosterWanted = true

local function rosterEntry(player)
  local displayName = player.DisplayName
  return {
    userId = player.UserId,
    name = safeText(tostring(player.Name), ROSTER_NAME_MAX_BYTES, ""),
    displayName = type(displayName) == "string" and safeText(displayName, ROSTER_NAME_MAX_BYTES, "") or nil,
    accountAgeDays = finiteNumber(player.AccountAge, 100000),
  }
end

-- This ping's roster report and the roster Moonrelay has once it is accepted.
local function rosterReport()
  local present, players = {}, {}
  for _, player in ipairs(Players:GetPlayers()) do
    local id = player.UserId
    if #players < ROSTER_MAX_PLAYERS and type(id) == "number" and not present[id] then
      present[id] = true
      table.insert(players, player)
    end
  end
  local joined, left = {}, {}
  for _, player in ipairs(players) do
    if rosterWanted or not rosterSent[player.UserId] then
      table.insert(joined, rosterEntry(player))
    end
  end
  -- count goes on every ping: it tells Moonrelay this script keeps a roster it can ask for.
  if rosterWanted then
    return { count = #players, players = joined }, present
  end
  for id in pairs(rosterSent) do
    if not present[id] then
      table.insert(left, id)
    end
  end
  return { count = #players, joined = #joined > 0 and joined or nil, left = #left > 0 and left or nil }, present
end

-- The chosen player's character and humanoid, or nil and why not.
local function characterParts()
  local player = choosePlayer()
  if not player then
    return nil, nil, "No player is in the game"
  end
  local character = player.Character
  if not character then
    return nil, nil, player.Name .. " has no character yet"
  end
  local humanoid = character:FindFirstChildOfClass("Humanoid")
  if not humanoid then
    return nil, nil, player.Name .. "'s character has no Humanoid"
  end
  return character, humanoid, nil
end

---------------------------------------------------------------------------------------------------
-- Results of commands, carried by the next pings

local pendingResults = {}
local queuedIds = {}
local finishedResults = {}
local seenIds = {}
local seenOrder = {}
-- The size of each result's JSON, measured once when it is made.
local resultBytes = setmetatable({}, { __mode = "k" })

local function encodedSize(value)
  local encoded, body = pcall(HttpService.JSONEncode, HttpService, value)
  return encoded and #body or math.huge
end

local function queueResult(result)
  if not queuedIds[result.id] then
    queuedIds[result.id] = true
    table.insert(pendingResults, result)
    if #pendingResults > RESULT_QUEUE_MAX then
      -- Bounded whatever happens; a command whose result is lost here is delivered again after its
      -- lease, and its remembered result then goes again.
      queuedIds[table.remove(pendingResults, 1).id] = nil
    end
  end
end

-- The result of a run, within RESULT_MAX_BYTES of JSON: its output and error are cut to
-- MAX_TEXT_BYTES, and halved again while the JSON is still too large.
local function makeResult(id, success, output, errorText, durationMs)
  local limit = MAX_TEXT_BYTES
  while true do
    local result = {
      id = id,
      success = success,
      output = safeText(output, limit, outputTruncated(#output)),
      error = errorText and safeText(errorText, limit, outputTruncated(#errorText)) or nil,
      durationMs = durationMs,
    }
    local size = encodedSize(result)
    if size <= RESULT_MAX_BYTES or limit < 64 then
      resultBytes[result] = size
      return result
    end
    limit = math.floor(limit / 2)
  end
end

local function finish(id, success, output, errorText, startedAt)
  local durationMs = math.floor((os.clock() - startedAt) * 1000 + 0.5)
  local result = makeResult(id, success, output or "", errorText, math.max(0, math.min(durationMs, 3600000)))
  finishedResults[id] = result
  queueResult(result)
end

-- Remembers an id; the oldest are forgotten so a server running for days does not grow without end.
local function remember(id)
  seenIds[id] = true
  table.insert(seenOrder, id)
  if #seenOrder > REMEMBERED_COMMANDS then
    local oldest = table.remove(seenOrder, 1)
    seenIds[oldest] = nil
    finishedResults[oldest] = nil
  end
end

-- The first results waiting to be sent: at most MAX_RESULTS_PER_PING of them and
-- RESULTS_BYTES_PER_PING of JSON (the first always fits: it is at most RESULT_MAX_BYTES); the rest
-- go with the next pings.
local function nextBatch()
  local batch = {}
  local bytes = 0
  for index = 1, math.min(#pendingResults, MAX_RESULTS_PER_PING) do
    local result = pendingResults[index]
    local size = resultBytes[result] or encodedSize(result)
    if index > 1 and bytes + size > RESULTS_BYTES_PER_PING then
      break
    end
    bytes = bytes + size
    batch[index] = result
  end
  return batch
end

-- A batch the server refused as too large (413, from a proxy with a lower limit than Moonrelay's)
-- is never sent again as it was: each of its results goes again without its output, saying why,
-- so the commands still complete.
local function shrinkRefused(count)
  for index = 1, count do
    local result = pendingResults[index]
    local stub = {
      id = result.id,
      success = result.success,
      output = "",
      error = "The result was too large to send (HTTP 413); its output was dropped.",
      durationMs = result.durationMs,
    }
    resultBytes[stub] = encodedSize(stub)
    pendingResults[index] = stub
    finishedResults[result.id] = finishedResults[result.id] and stub
  end
end

local function markSent(count)
  for _ = 1, count do
    local sent = table.remove(pendingResults, 1)
    queuedIds[sent.id] = nil
  end
end

---------------------------------------------------------------------------------------------------
-- The console: this server's output, carried by the next pings
--
-- LogService.MessageOut hears every print, warning and error of every script here (its messages
-- are the lines); ScriptContext.Error adds an error's stack and script. Lines wait in a queue that
-- the pings empty, CONSOLE_LINES_PER_PING at a time; a game that logs faster than that loses its
-- oldest plain output first, so the warning or error that started a flood still reaches the console,
-- and the next ping says how many were lost. Nothing here prints or warns, and each listener
-- swallows its own failures: a line about a line would log another line, for ever.

-- The waiting lines by position, oldest at consoleFirst: a line dropped to make room leaves a hole.
local consoleQueue = {}
local consoleFirst, consoleLast = 1, 0
local consoleDropped = 0
-- The positions of the waiting lines of each kind, oldest first: plain output (output and info),
-- and the warnings and errors kept in preference to it. Dropping the oldest of a kind is then as
-- cheap as dropping the oldest line was, however many of the other kind wait before it.
local plainAt, plainFirst, plainLast = {}, 1, 0
local keptAt, keptFirst, keptLast = {}, 1, 0
-- Lines handed to a ping that has not been answered yet (they no longer take part in pairing).
local consoleSent = setmetatable({}, { __mode = "k" })
-- The last errors seen from one signal and not yet from the other: { line, from }.
local recentErrors = {}
-- Between MessageOut's "Stack Begin" and "Stack End" (an error's stack, which the error line carries).
local inStack = false
-- Commands whose code is running, the newest last: a line logged meanwhile names the newest.
local runningCommands = {}

-- Every Roblox server has Enum.MessageType; where it is missing (Moonrelay's dry run emulates only
-- part of Roblox) the console is simply not captured, and the rest of the script runs.
local LEVELS = {}
pcall(function()
  LEVELS[Enum.MessageType.MessageOutput] = "output"
  LEVELS[Enum.MessageType.MessageInfo] = "info"
  LEVELS[Enum.MessageType.MessageWarning] = "warning"
  LEVELS[Enum.MessageType.MessageError] = "error"
end)

local function nowMillis()
  if DateTime then
    return DateTime.now().UnixTimestampMillis
  end
  return os.time() * 1000
end

-- At most maxBytes of the text, as valid UTF-8; cut before it is checked, so a huge line costs little.
local function consoleText(text, maxBytes)
  return safeText(tostring(text), maxBytes)
end

local function queuedLines()
  return (plainLast - plainFirst + 1) + (keptLast - keptFirst + 1)
end

local function isKept(line)
  return line.level == "warning" or line.level == "error"
end

-- Past CONSOLE_BUFFER_LINES lines go, counted for the next ping to report: the oldest plain output,
-- or, when only warnings and errors wait, the oldest of those.
local function trimQueue()
  while queuedLines() > CONSOLE_BUFFER_LINES do
    local slot
    if plainFirst <= plainLast then
      slot = plainAt[plainFirst]
      plainAt[plainFirst] = nil
      plainFirst = plainFirst + 1
    else
      slot = keptAt[keptFirst]
      keptAt[keptFirst] = nil
      keptFirst = keptFirst + 1
    end
    consoleQueue[slot] = nil
    consoleDropped = consoleDropped + 1
  end
end

-- Files the line at position `slot` under its kind: at the newest end, or (a line put back) the oldest.
local function fileLine(line, slot, asOldest)
  if isKept(line) then
    if asOldest then
      keptFirst = keptFirst - 1
      keptAt[keptFirst] = slot
    else
      keptLast = keptLast + 1
      keptAt[keptLast] = slot
    end
  elseif asOldest then
    plainFirst = plainFirst - 1
    plainAt[plainFirst] = slot
  else
    plainLast = plainLast + 1
    plainAt[plainLast] = slot
  end
end

local function queueLine(level, message)
  local line = { time = nowMillis(), level = level, text = consoleText(message, CONSOLE_TEXT_BYTES) }
  if string.sub(line.text, 1, #OWN_PREFIX) == OWN_PREFIX then
    line.own = true
  end
  if #runningCommands > 0 then
    line.commandId = runningCommands[#runningCommands]
  end
  consoleLast = consoleLast + 1
  consoleQueue[consoleLast] = line
  fileLine(line, consoleLast, false)
  trimQueue()
  return line
end

-- The other signal's line for the same error, still waiting to be sent, taken out of the pairing.
local function pairedError(message, from)
  for index, entry in ipairs(recentErrors) do
    if entry.from == from and entry.line.text == consoleText(message, CONSOLE_TEXT_BYTES) then
      table.remove(recentErrors, index)
      if not consoleSent[entry.line] then
        return entry.line
      end
      return nil
    end
  end
  return nil
end

local function rememberError(line, from)
  table.insert(recentErrors, { line = line, from = from })
  if #recentErrors > CONSOLE_RECENT_ERRORS then
    table.remove(recentErrors, 1)
  end
end

local function onMessageOut(message, messageType)
  local level = LEVELS[messageType] or "output"
  if level == "info" and (inStack or message == "Stack Begin") then
    inStack = message ~= "Stack End"
    return
  end
  inStack = false
  if level == "error" then
    -- ScriptContext.Error may have told of this error already (with its stack): one line, not two.
    if not pairedError(message, "context") then
      rememberError(queueLine("error", message), "out")
    end
    return
  end
  queueLine(level, message)
end

local function onScriptError(message, stackTrace, origin)
  local line = pairedError(message, "out")
  if not line then
    line = queueLine("error", message)
    rememberError(line, "context")
  end
  if type(stackTrace) == "string" and stackTrace ~= "" then
    line.stack = consoleText(stackTrace, CONSOLE_STACK_BYTES)
  end
  local named, fullName = pcall(function()
    return origin:GetFullName()
  end)
  if named and type(fullName) == "string" then
    line.script = consoleText(fullName, CONSOLE_SCRIPT_BYTES)
  end
end

local function listenToOutput()
  local LogService = game:GetService("LogService")
  local ScriptContext = game:GetService("ScriptContext")
  LogService.MessageOut:Connect(function(message, messageType)
    pcall(onMessageOut, message, messageType)
  end)
  ScriptContext.Error:Connect(function(message, stackTrace, origin)
    pcall(onScriptError, message, stackTrace, origin)
  end)
end

local function lineBytes(line)
  return #line.text + #(line.stack or "") + #(line.script or "") + CONSOLE_LINE_OVERHEAD
end

-- The oldest lines waiting, within a ping's limits, and the count of lines dropped before them;
-- both leave the queue until the ping's fate is known (consoleReturned puts them back).
local function takeConsoleBatch()
  local lines = {}
  local bytes = 0
  while consoleFirst <= consoleLast and #lines < CONSOLE_LINES_PER_PING do
    local line = consoleQueue[consoleFirst]
    if line == nil then
      -- The hole of a dropped line: passed once, as the line would have been.
      consoleFirst = consoleFirst + 1
    else
      local size = lineBytes(line)
      if #lines > 0 and bytes + size > CONSOLE_BYTES_PER_PING then
        break
      end
      consoleQueue[consoleFirst] = nil
      consoleFirst = consoleFirst + 1
      -- The oldest waiting line is the oldest of its kind too.
      if isKept(line) then
        keptAt[keptFirst] = nil
        keptFirst = keptFirst + 1
      else
        plainAt[plainFirst] = nil
        plainFirst = plainFirst + 1
      end
      consoleSent[line] = true
      bytes = bytes + size
      table.insert(lines, line)
    end
  end
  local dropped = consoleDropped
  consoleDropped = 0
  return lines, dropped
end

-- A ping that failed on the way: its lines go back in front (dropped again past the cap, plain first).
local function consoleReturned(lines, dropped)
  for index = #lines, 1, -1 do
    local line = lines[index]
    consoleFirst = consoleFirst - 1
    consoleQueue[consoleFirst] = line
    fileLine(line, consoleFirst, true)
    consoleSent[line] = nil
  end
  consoleDropped = consoleDropped + dropped
  trimQueue()
end

-- A ping refused for what it carried: its lines cannot be sent again, and are counted as dropped.
local function consoleRefused(lines, dropped)
  consoleDropped = consoleDropped + dropped + #lines
end

local function commandStarted(id)
  table.insert(runningCommands, id)
end

-- Forgotten on the next resumption, not now: with deferred signals (Roblox's default in new places)
-- the listeners hear of a line only after the thread that logged it yields, and a line logged while
-- the command ran must still find it running.
local function commandEnded(id)
  task.defer(function()
    for index = #runningCommands, 1, -1 do
      if runningCommands[index] == id then
        table.remove(runningCommands, index)
        return
      end
    end
  end)
end

---------------------------------------------------------------------------------------------------
-- Running code

local function captureInto(lines, prefix)
  return function(...)
    local parts = {}
    for index = 1, select("#", ...) do
      parts[index] = tostring((select(index, ...)))
    end
    table.insert(lines, prefix .. table.concat(parts, " "))
  end
end

-- Runs code in its own thread with print and warn captured; calls done(success, output, error).
-- Its own thread, so code that waits (task.wait) does not hold up the pings.
local function runCapturedCode(code, chunkName, done)
  if not canRunCode then
    done(false, "", CODE_DISABLED)
    return
  end
  local chunk, compileError = loadstring(code, chunkName)
  if not chunk then
    done(false, "", tostring(compileError))
    return
  end
  local lines = {}
  local environment
  environment = setmetatable({
    print = captureInto(lines, ""),
    warn = captureInto(lines, "warning: "),
    -- Code it loads itself (the catalogue's one-line loader for long scripts) prints here too.
    loadstring = function(source, name)
      local loaded, loadError = loadstring(source, name)
      if loaded then
        setfenv(loaded, environment)
      end
      return loaded, loadError
    end,
  }, { __index = scriptEnvironment })
  setfenv(chunk, environment)
  task.spawn(function()
    local ok, failure = pcall(chunk)
    local output = ""
    if #lines > 0 then
      output = table.concat(lines, "\n") .. "\n"
    end
    if ok then
      done(true, output, nil)
    else
      done(false, output, tostring(failure))
    end
  end)
end

---------------------------------------------------------------------------------------------------
-- Commands

local function numberField(data, name)
  local value = tonumber(data[name])
  if value == nil or value ~= value then
    error(name .. " must be a number", 0)
  end
  return value
end

local handlers = {}

function handlers.teleport(data)
  local x, y, z = numberField(data, "x"), numberField(data, "y"), numberField(data, "z")
  local character, _, problem = characterParts()
  if not character then
    error(problem, 0)
  end
  character:PivotTo(CFrame.new(x, y, z))
  return "Teleported to " .. tostring(x) .. ", " .. tostring(y) .. ", " .. tostring(z)
end

function handlers.heal()
  local _, humanoid, problem = characterParts()
  if not humanoid then
    error(problem, 0)
  end
  humanoid.Health = humanoid.MaxHealth
  return "Healed to " .. tostring(humanoid.Health)
end

function handlers.speed(data)
  local _, humanoid, problem = characterParts()
  if not humanoid then
    error(problem, 0)
  end
  if data.speed ~= nil then
    humanoid.WalkSpeed = numberField(data, "speed")
  else
    humanoid.WalkSpeed = BASE_WALK_SPEED * numberField(data, "multiplier")
  end
  return "Walk speed set to " .. tostring(humanoid.WalkSpeed)
end

function handlers.reset()
  local _, humanoid, problem = characterParts()
  if not humanoid then
    error(problem, 0)
  end
  humanoid.Health = 0
  return "Character reset"
end

-- Moderation (docs/protocol.md, "Moderation"): kicks and warnings for a player on this server, and
-- bans and unbans through Roblox's Ban API.

local BANNING_OFF = "Players.BanningEnabled is off in this place: turn it on in Studio (select Players,"
  .. " tick BanningEnabled in Properties) and publish the place, then ban again"

local function playerById(data)
  local userId = numberField(data, "userId")
  local player = Players:GetPlayerByUserId(userId)
  if not player then
    error("Player " .. tostring(userId) .. " is not on this server", 0)
  end
  return player
end

function handlers.kick(data)
  local player = playerById(data)
  local name = player.Name
  player:Kick(tostring(data.message or ""))
  return "Kicked " .. name
end

-- A warning is a banner across the top of the player's screen: a ScreenGui in their PlayerGui
-- (only they see it), removed after WARNING_SECONDS.
function handlers.warn(data)
  local player = playerById(data)
  local playerGui = player:FindFirstChildOfClass("PlayerGui")
  if not playerGui then
    error(player.Name .. " has no PlayerGui to show the warning in", 0)
  end
  local gui = Instance.new("ScreenGui")
  gui.Name = "MoonrelayWarning"
  gui.ResetOnSpawn = false
  gui.DisplayOrder = 1000
  local label = Instance.new("TextLabel")
  label.Name = "Message"
  label.Size = UDim2.fromScale(1, 0.15)
  label.BackgroundColor3 = Color3.fromRGB(120, 20, 20)
  label.TextColor3 = Color3.fromRGB(255, 255, 255)
  label.TextScaled = true
  label.TextWrapped = true
  label.Text = "Warning: " .. tostring(data.message or "")
  label.Parent = gui
  gui.Parent = playerGui
  task.delay(WARNING_SECONDS, function()
    gui:Destroy()
  end)
  return "Warned " .. player.Name
end

local function userIdList(data)
  local ids = {}
  if type(data.userIds) == "table" then
    for _, userId in ipairs(data.userIds) do
      if type(userId) == "number" then
        table.insert(ids, userId)
      end
    end
  end
  return ids
end

local function banError(text)
  return safeText((string.gsub(text, "%c", " ")), BAN_ERROR_MAX_BYTES)
end

-- Which players a failed BanAsync or UnbanAsync failed for. With several UserIds Roblox joins one
-- message per player into the error: a line that names a player's id is that player's error, and a
-- player no line names was applied. A text that names none of them (banning off, Roblox's service
-- down) failed them all.
local function failuresOf(ids, text)
  local failed = {}
  local named = false
  for line in string.gmatch(text, "[^\n]+") do
    for _, userId in ipairs(ids) do
      if string.find(line, "%f[%d]" .. tostring(userId) .. "%f[%D]") then
        failed[tostring(userId)] = banError(line)
        named = true
      end
    end
  end
  if not named then
    for _, userId in ipairs(ids) do
      failed[tostring(userId)] = banError(text)
    end
  end
  return failed
end

-- A ban or unban: one BanAsync / UnbanAsync call (at most 50 ids), in its own thread as it yields.
-- Reported as JSON, "applied": [ids] and "failed": { "id": "Roblox's error" }; with banning off, as a failed
-- command (its error says so) rather than a call that could hang or fail per player.
local function runModeration(id, command, data, startedAt)
  local ids = userIdList(data)
  if #ids == 0 then
    finish(id, false, "", "No players to " .. command.type, startedAt)
    return
  end
  local readable, enabled = pcall(function()
    return Players.BanningEnabled
  end)
  if readable and enabled == false then
    finish(id, false, "", BANNING_OFF, startedAt)
    return
  end
  task.spawn(function()
    local ok, failure = pcall(function()
      if command.type == "ban" then
        Players:BanAsync({
          UserIds = ids,
          Duration = tonumber(data.durationSeconds) or -1,
          DisplayReason = tostring(data.displayReason or ""),
          PrivateReason = tostring(data.privateReason or ""),
          ExcludeAltAccounts = data.excludeAltAccounts == true,
          ApplyToUniverse = true,
        })
      else
        Players:UnbanAsync({ UserIds = ids, ApplyToUniverse = true })
      end
    end)
    local failed = {}
    if not ok then
      failed = failuresOf(ids, tostring(failure))
    end
    local applied = {}
    for _, userId in ipairs(ids) do
      if not failed[tostring(userId)] then
        table.insert(applied, userId)
      end
    end
    finish(id, true, HttpService:JSONEncode({ applied = applied, failed = failed }), nil, startedAt)
  end)
end

local function runCommand(command)
  local id = command.id
  if type(id) ~= "string" then
    return
  end
  if seenIds[id] then
    -- Delivered again (the server did not get the result in time): report it again, do not rerun.
    if finishedResults[id] then
      queueResult(finishedResults[id])
    end
    return
  end
  remember(id)
  local startedAt = os.clock()
  local data = type(command.data) == "table" and command.data or {}
  if command.type == "execute" or command.type == "script" then
    if type(data.code) ~= "string" then
      finish(id, false, "", "No code to run", startedAt)
      return
    end
    commandStarted(id)
    runCapturedCode(data.code, "=Moonrelay", function(success, output, errorText)
      commandEnded(id)
      finish(id, success, output, errorText, startedAt)
    end)
    return
  end
  if command.type == "ban" or command.type == "unban" then
    runModeration(id, command, data, startedAt)
    return
  end
  local handler = handlers[command.type]
  if not handler then
    finish(id, false, "", "Unknown command type: " .. tostring(command.type), startedAt)
    return
  end
  local ok, outcome = pcall(handler, data)
  if ok then
    finish(id, true, outcome .. "\n", nil, startedAt)
  else
    finish(id, false, "", tostring(outcome), startedAt)
  end
end

-- Runs the commands of a ping's answer; answers how many it held.
local function runCommands(answer)
  local commands = answer.commands
  if type(commands) ~= "table" then
    -- Servers that answer only the original single `command` field.
    commands = { answer.command }
  end
  local count = 0
  for _, command in ipairs(commands) do
    if type(command) == "table" then
      count = count + 1
      runCommand(command)
    end
  end
  return count
end

---------------------------------------------------------------------------------------------------
-- Talking to Moonrelay

local stopReported = false
-- Whether the last ping worked: the script fetches wait for it, so while Moonrelay is away (or
-- shedding load) the failing pings are the only requests.
local linkUp = false

local function stopRefused()
  running = false
  if not stopReported then
    stopReported = true
    warnLog("The API key was refused (401 Invalid API key): it was probably regenerated. Copy the"
      .. " integration script again from the Moonrelay dashboard and restart the server. Stopped.")
  end
end

-- The `error` of a JSON answer, or the HTTP status.
local function describeFailure(response)
  local ok, body = pcall(HttpService.JSONDecode, HttpService, response.Body)
  if ok and type(body) == "table" and type(body.error) == "string" then
    return "HTTP " .. tostring(response.StatusCode) .. ": " .. body.error
  end
  return "HTTP " .. tostring(response.StatusCode) .. " " .. tostring(response.StatusMessage)
end

-- The seconds a 503 (Moonrelay shedding load) or 429 (rate limit) answer asks to wait before the
-- next try, from its Retry-After header, or nil. Only the delta-seconds form is read (Moonrelay sends
-- no other); an HTTP date, or no header, leaves the plain backoff in charge. Header names are
-- matched in any case, as proxies differ in how they spell them.
local function retryAfter(response)
  if (response.StatusCode ~= 503 and response.StatusCode ~= 429) or type(response.Headers) ~= "table" then
    return nil
  end
  for name, value in pairs(response.Headers) do
    if type(name) == "string" and string.lower(name) == "retry-after" then
      local seconds = tonumber(string.match(tostring(value), "^%s*(%d+)%s*$"))
      return seconds and math.min(seconds, MAX_RETRY_AFTER)
    end
  end
  return nil
end

-- Sends one request; answers "ok" and the decoded JSON, "refused" (401), or "failed", why, and the
-- Retry-After seconds of a 503 or 429 (or nil).
local function request(options)
  local ok, response = pcall(HttpService.RequestAsync, HttpService, options)
  if not ok then
    -- Also a request cut off in the middle of a long-poll (a proxy, a restart, a timeout): the
    -- loop backs off and tries again; a command the lost answer carried is delivered again by the
    -- server once its lease runs out, and results not yet acknowledged are sent again.
    return "failed", tostring(response)
  end
  if response.StatusCode == 401 then
    return "refused", nil
  end
  if not response.Success then
    return "failed", describeFailure(response), retryAfter(response)
  end
  local decoded, answer = pcall(HttpService.JSONDecode, HttpService, response.Body)
  if not decoded or type(answer) ~= "table" then
    return "failed", "the answer was not JSON"
  end
  return "ok", answer
end

-- The status of a failed ping's answer ("400"), or nil when there was none.
local function failedStatus(why)
  return string.match(tostring(why), "^HTTP (%d+)")
end

local function ping()
  local batch = nextBatch()
  local lines, dropped = takeConsoleBatch()
  local roster, rosterAfter = rosterReport()
  local fields = {
    key = CONFIG.apiKey,
    serverId = serverId,
    playerData = collectPlayerData(),
    results = batch,
    roster = roster,
  }
  if CONFIG.longPoll then
    fields.wait = math.max(0, math.min(CONFIG.pingInterval, LONG_POLL_MAX_WAIT))
  end
  -- The lines ride on this ping, whatever its wait: they never shorten a hold nor add a request.
  if #lines > 0 or dropped > 0 then
    fields.console = { lines = lines, dropped = dropped > 0 and dropped or nil }
  end
  local encoded, body = pcall(HttpService.JSONEncode, HttpService, fields)
  if encoded and #body > PING_MAX_BYTES then
    -- The budgets above keep a ping far below this; should a ping still be too large, it goes
    -- without its lines and with one result, which always fits.
    consoleReturned(lines, dropped)
    lines, dropped = {}, 0
    fields.console = nil
    batch = { batch[1] }
    fields.results = batch
    encoded, body = pcall(HttpService.JSONEncode, HttpService, fields)
  end
  if not encoded then
    -- Should not happen (the fields are checked); if it does, drop these results and lines rather
    -- than failing every ping from now on.
    markSent(#batch)
    consoleRefused(lines, dropped)
    return "failed", "could not encode the ping: " .. tostring(body)
  end
  local status, answer, retryAfterSeconds = request({
    Url = CONFIG.serverUrl .. "/api/game/ping",
    Method = "POST",
    Headers = { ["Content-Type"] = "application/json" },
    Body = body,
  })
  local refusedStatus = status == "failed" and failedStatus(answer)
  if status == "ok" then
    markSent(#batch)
    rosterSent = rosterAfter
    rosterWanted = type(answer) == "table" and answer.rosterWanted == true
  elseif refusedStatus == "400" then
    -- The server refused what was sent: the same results and lines would be refused forever, and
    -- would keep the game disconnected. The roster went unread: the next ping sends all of it.
    markSent(#batch)
    consoleRefused(lines, dropped)
    rosterWanted = true
  elseif refusedStatus == "413" then
    -- Too large for a proxy in front of Moonrelay: the results go again without their output.
    shrinkRefused(#batch)
    consoleRefused(lines, dropped)
  else
    consoleReturned(lines, dropped)
  end
  return status, answer, retryAfterSeconds
end

local function shouldAutoExecute(script)
  if script.isAutoExecute ~= true then
    return false
  end
  local games = script.autoExecuteGames
  if type(games) ~= "table" or next(games) == nil then
    return true
  end
  local function enabled(key)
    local entry = games[key]
    return type(entry) == "table" and entry.enabled == true
  end
  return enabled("all") or enabled(tostring(game.GameId)) or enabled(tostring(game.PlaceId))
end

local autoExecuted = {}

local function runAutoExecute(script)
  local name = string.sub(string.gsub(tostring(script.name or script.id), "%c", " "), 1, 100)
  if not canRunCode then
    warnLog("Auto-execute skipped (" .. name .. "): " .. CODE_DISABLED)
    return
  end
  local chunk, compileError = loadstring(tostring(script.code), "=" .. name)
  if not chunk then
    warnLog("Auto-execute failed (" .. name .. "): " .. tostring(compileError))
    return
  end
  log("Auto-executing " .. name)
  -- Its own thread, so a script that keeps running does not stop the others or the pings.
  task.spawn(function()
    local ok, failure = pcall(chunk)
    if not ok then
      warnLog("Auto-execute failed (" .. name .. "): " .. tostring(failure))
    end
  end)
end

local function syncScripts()
  local status, scripts = request({
    Url = CONFIG.serverUrl .. "/api/scripts",
    Method = "GET",
    Headers = { Authorization = "Bearer " .. CONFIG.apiKey },
  })
  if status == "refused" then
    stopRefused()
  elseif status == "failed" then
    warnLog("Could not fetch your scripts: " .. tostring(scripts))
  else
    local first = true
    for _, script in ipairs(scripts) do
      -- Marked before it runs: once per script id for the life of this server, even if it fails.
      if running and type(script) == "table" and script.id ~= nil and not autoExecuted[script.id] then
        if shouldAutoExecute(script) then
          autoExecuted[script.id] = true
          if not first then
            task.wait(CONFIG.autoExecutePause)
          end
          first = false
          runAutoExecute(script)
        end
      end
    end
  end
end

local function backoff(failures)
  local delay = CONFIG.pingInterval
  for _ = 2, failures do
    delay = delay * 2
  end
  return math.min(delay, CONFIG.maxBackoff)
end

-- How long to wait after a 503 or 429 with Retry-After: that long (at least pingInterval) plus a
-- random 0-100 % of it. When Moonrelay sheds load it answers many game servers at once with the
-- same Retry-After; coming back after exactly that long, they would all arrive in the same second
-- and overload it again. With the jitter they return spread evenly over the next Retry-After
-- seconds instead, and never sooner than asked.
local function retryDelay(seconds)
  local base = math.max(seconds, CONFIG.pingInterval)
  return base + base * math.random()
end

local function formatSeconds(value)
  if value == math.floor(value) then
    return tostring(value)
  end
  return string.format("%.1f", value)
end

local function syncLoop()
  while running do
    task.wait(CONFIG.scriptSyncInterval)
    if running and linkUp then
      syncScripts()
    end
  end
end

local function mainLoop()
  local failures = 0
  local everConnected = false
  log("Starting (server " .. serverId .. ", " .. CONFIG.serverUrl .. ")")
  while running do
    local startedAt = os.clock()
    local status, answer, retryAfterSeconds = ping()
    if not running then
      -- The key was refused to the script fetch while this ping was held: run nothing more.
      break
    end
    local delay
    if status == "refused" then
      stopRefused()
      break
    elseif status == "ok" then
      if not everConnected then
        log("Connected")
      elseif failures > 0 then
        log("Reconnected after " .. tostring(failures) .. " failed pings")
      end
      everConnected = true
      linkUp = true
      failures = 0
      if runCommands(answer) > 0 then
        -- Commands came (a held ping answers the moment one is sent): the next ping goes at once,
        -- carrying their results, and is held for the next commands.
        delay = MIN_PING_GAP - (os.clock() - startedAt)
      else
        -- The hold ran out, or the answer came at once (a plain ping, an older server, a server
        -- shutting down, another Studio session sharing the id "studio" took the command): no
        -- sooner than pingInterval after this ping started either way, so the loop never spins.
        delay = CONFIG.pingInterval - (os.clock() - startedAt)
      end
    else
      linkUp = false
      failures = failures + 1
      if retryAfterSeconds then
        delay = retryDelay(retryAfterSeconds)
        warnLog("Ping failed (" .. tostring(answer) .. "); the server asked for " .. formatSeconds(retryAfterSeconds)
          .. " s, retrying in " .. formatSeconds(delay) .. " s")
      else
        delay = backoff(failures)
        warnLog("Ping failed (" .. tostring(answer) .. "); retrying in " .. formatSeconds(delay) .. " s")
      end
    end
    if running and delay > 0 then
      task.wait(delay)
    end
  end
end

if CONFIG.console then
  -- A place without LogService or ScriptContext (the dry run) keeps running without its console.
  pcall(listenToOutput)
end
task.spawn(mainLoop)
task.spawn(syncLoop)
