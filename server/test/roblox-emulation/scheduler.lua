-- The task scheduler of the emulated game: Roblox's model of script threads on Lua coroutines.
--
-- Every script and every task.spawn runs in its own coroutine. A thread that waits (task.wait, an
-- HTTP request, a signal) yields back to whoever resumed it, and the scheduler resumes it later:
-- sleepers when the clock passes their wake time, HTTP waiters when the host delivers the answer.
-- The host (emulated-game.ts) drives it: it calls step() when the next sleeper is due and after
-- each delivery, so Lua never yields across the JavaScript boundary. Time is the host's clock in
-- emulated seconds. As in Roblox, a thread's error is reported (the emulation prints it and fires
-- ScriptContext.Error) and ends that thread only.
--
-- Each thread belongs to a script: the one whose thread created it (task.spawn, task.delay, ...), or
-- the one given to spawnAs (a script starting, a signal handler running for the script that
-- connected it), so an error can name its script as ScriptContext.Error does.
--
-- A run (one resume from the scheduler, with the threads it resumes in turn) that lasts longer than
-- `maxRunSeconds` of os.clock without every thread waiting again is stopped with Roblox's "Script
-- timeout" error, so a script stuck in a loop fails its test instead of hanging the test process
-- (JavaScript cannot interrupt a synchronous call into Lua). A count hook checks every
-- HOOK_INSTRUCTIONS instructions; once tripped it raises at every instruction until the run is
-- over, so a pcall inside the loop cannot swallow the timeout.

-- report(thread, message): a thread ended with an error (its stack is still there to read).
local now, report, maxRunSeconds = ...

-- Captured now: the emulation later narrows the debug and os globals to Roblox's.
local sethook, clock = debug.sethook, os.clock
local HOOK_INSTRUCTIONS = 10000
local TIMEOUT = "Script timeout: exhausted allowed execution time"

local scheduler = {}

-- Roblox resumes a waiting thread at the earliest on the next frame (60 per second).
local MIN_WAIT = 1 / 60

-- { thread, wakeAt, order, args }; `order` keeps threads due at the same time first-in, first-out.
local sleeping = {}
local order = 0

-- The run in progress: when the outermost resume began, and whether it ran out of time. Nested
-- resumes (task.spawn inside a thread) belong to the same run, as they hold up the same frame.
local depth, runStartedAt, tripped = 0, 0, false

-- The script each thread belongs to (weak: a finished thread is forgotten).
local scriptOf = setmetatable({}, { __mode = "k" })

local function timeoutHook()
  if tripped or clock() - runStartedAt > maxRunSeconds then
    tripped = true
    sethook(timeoutHook, "", 1)
    error(TIMEOUT, 0)
  end
end

-- Resumes a suspended thread with the given values; an error ends that thread and is reported.
function scheduler.resume(thread, ...)
  if coroutine.status(thread) ~= "suspended" then
    return
  end
  -- Coroutines the thread creates inherit the hook.
  sethook(thread, timeoutHook, "", HOOK_INSTRUCTIONS)
  if depth == 0 then
    runStartedAt, tripped = clock(), false
  end
  depth = depth + 1
  local ok, message = coroutine.resume(thread, ...)
  depth = depth - 1
  if not ok then
    report(thread, message)
  end
end

-- The script the running thread belongs to (nil on the main thread or for a thread of no script).
function scheduler.currentScript()
  local thread = coroutine.running()
  return scriptOf[thread]
end

function scheduler.scriptOf(thread)
  return scriptOf[thread]
end

-- A new thread for fn, belonging to `script` (by default the running thread's script).
local function newThread(fn, script)
  local thread = fn
  if type(fn) ~= "thread" then
    thread = coroutine.create(fn)
  end
  if scriptOf[thread] == nil then
    scriptOf[thread] = script or scheduler.currentScript()
  end
  return thread
end

-- The running thread; waiting is only possible inside a scheduler thread, never on the main one.
function scheduler.current()
  local thread, isMain = coroutine.running()
  if isMain then
    error("attempt to yield from outside a script thread", 3)
  end
  return thread
end

-- Suspends the running thread until something resumes it; answers what it was resumed with.
function scheduler.suspend()
  scheduler.current()
  return coroutine.yield()
end

function scheduler.resumeAt(thread, wakeAt, ...)
  order = order + 1
  table.insert(sleeping, { thread = thread, wakeAt = wakeAt, order = order, args = table.pack(...) })
end

-- task.wait: answers the seconds actually waited, as Roblox does.
function scheduler.sleep(seconds)
  local thread = scheduler.current()
  local startedAt = now()
  local duration = tonumber(seconds) or 0
  if duration < MIN_WAIT then
    duration = MIN_WAIT
  end
  scheduler.resumeAt(thread, startedAt + duration)
  coroutine.yield()
  return now() - startedAt
end

function scheduler.spawn(fn, ...)
  local thread = newThread(fn)
  scheduler.resume(thread, ...)
  return thread
end

-- Runs fn at once in a new thread that belongs to `script`.
function scheduler.spawnAs(script, fn, ...)
  local thread = newThread(fn, script)
  scheduler.resume(thread, ...)
  return thread
end

function scheduler.delay(seconds, fn, ...)
  local thread = newThread(fn)
  scheduler.resumeAt(thread, now() + math.max(tonumber(seconds) or 0, 0), ...)
  return thread
end

-- Deferred threads run at the next step before any sleeper, whatever the clock says by then: a
-- wake time below every clock reading keeps them first, in the order they were deferred.
function scheduler.defer(fn, ...)
  local thread = newThread(fn)
  scheduler.resumeAt(thread, -math.huge, ...)
  return thread
end

-- task.defer for a thread that belongs to `script` (a deferred signal handler).
function scheduler.deferAs(script, fn, ...)
  local thread = newThread(fn, script)
  scheduler.resumeAt(thread, -math.huge, ...)
  return thread
end

function scheduler.cancel(thread)
  for index = #sleeping, 1, -1 do
    if sleeping[index].thread == thread then
      table.remove(sleeping, index)
    end
  end
  if coroutine.status(thread) == "suspended" then
    coroutine.close(thread)
  end
end

local function earlier(a, b)
  if a.wakeAt ~= b.wakeAt then
    return a.wakeAt < b.wakeAt
  end
  return a.order < b.order
end

-- Resumes every sleeper due now, in wake order. Sleepers added meanwhile (a task.wait(0) in a
-- resumed thread) wait for the next step, so a busy thread cannot starve the host. Answers the
-- next wake time, or -1 when no thread sleeps.
function scheduler.step()
  table.sort(sleeping, earlier)
  local time = now()
  local due = {}
  while sleeping[1] and sleeping[1].wakeAt <= time do
    table.insert(due, table.remove(sleeping, 1))
  end
  for _, entry in ipairs(due) do
    scheduler.resume(entry.thread, table.unpack(entry.args, 1, entry.args.n))
  end
  local nextWake = -1
  for _, entry in ipairs(sleeping) do
    -- A thread deferred during this step is due at once: now, not its placeholder wake time.
    local wakeAt = math.max(entry.wakeAt, time)
    if nextWake < 0 or wakeAt < nextWake then
      nextWake = wakeAt
    end
  end
  return nextWake
end

function scheduler.sleepingCount()
  return #sleeping
end

return scheduler
