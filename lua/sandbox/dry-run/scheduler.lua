-- The virtual clock and the threads of a dry run.
--
-- Roblox runs every script, spawned function and signal handler in its own thread and resumes
-- waiting threads on later frames (60 a second). Here every such thread is a coroutine, and time is
-- a frame counter: nothing sleeps. When every thread waits, the run jumps straight to the frame of
-- the earliest wake-up (or to the next frame, while something listens to Heartbeat), so a script
-- that waits 30 s of game time costs what its own code costs. The run ends when no thread has
-- anything left to wake it, or when the clock passes the game-time limit.
--
-- A waiting thread holds a ticket: whoever resumes it (the clock, a signal, a WaitForChild) must
-- show the same ticket, so a thread is never resumed twice for one wait, nor after it was woken
-- some other way (a script resuming its own coroutine, task.cancel).
--
-- Errors: a thread's error ends that thread only, as in Roblox. The run keeps the first one; those
-- of threads other than the script's own are also written to the output when they happen.
-- The prelude's coroutine.resume passes sandbox limits on, so a limit in any thread ends the run.

local dry = ...
-- The script shares these globals and may replace them; the emulation keeps the originals.
local pairs, ipairs, next, type, tostring, tonumber, select = pairs, ipairs, next, type, tostring, tonumber, select
local error, pcall, setmetatable, getmetatable, rawget = error, pcall, setmetatable, getmetatable, rawget
local table, string, math, coroutine, os = table, string, math, coroutine, os
local emit, luauTostring = dry.emit, dry.tostring
local create, resume, status, running, yield, close = coroutine.create, coroutine.resume, coroutine.status,
  coroutine.running, coroutine.yield, coroutine.close

local FRAMES_PER_SECOND = 60

local scheduler = {}

local frame = 0
local order = 0
-- Binary heap of { frame, order, thread, ticket, args } or { frame, order, callback }.
local heap = {}
local deferred, deferredFirst, deferredLast = {}, 1, 0
-- thread -> its current ticket, while it waits on the emulation.
local tickets = setmetatable({}, { __mode = "k" })
local mainThread
local firstError
-- Called every frame while it answers true (RunService's Heartbeat and Stepped).
local frameListener

local function earlier(a, b)
  if a.frame ~= b.frame then
    return a.frame < b.frame
  end
  return a.order < b.order
end

local function push(entry)
  order = order + 1
  entry.order = order
  local index = #heap + 1
  heap[index] = entry
  while index > 1 do
    local parent = index // 2
    if earlier(heap[index], heap[parent]) then
      heap[index], heap[parent] = heap[parent], heap[index]
      index = parent
    else
      break
    end
  end
end

local function pop()
  local top = heap[1]
  local last = heap[#heap]
  heap[#heap] = nil
  if #heap > 0 then
    heap[1] = last
    local index, size = 1, #heap
    while true do
      local left, smallest = index * 2, index
      if left <= size and earlier(heap[left], heap[smallest]) then
        smallest = left
      end
      if left + 1 <= size and earlier(heap[left + 1], heap[smallest]) then
        smallest = left + 1
      end
      if smallest == index then
        break
      end
      heap[index], heap[smallest] = heap[smallest], heap[index]
      index = smallest
    end
  end
  return top
end

function scheduler.now()
  return frame / FRAMES_PER_SECOND
end

local function describe(message)
  if type(message) == "string" then
    return message
  end
  local ok, text = pcall(luauTostring, message)
  return ok and text or "(error object is not a string)"
end

local function failed(thread, message)
  local text = describe(message)
  firstError = firstError or text
  if thread ~= mainThread then
    emit(2, text)
  end
end

-- Resumes a suspended thread; its error is reported and ends that thread only.
local function resumeThread(thread, ...)
  if status(thread) ~= "suspended" then
    return
  end
  local ok, message = resume(thread, ...)
  if not ok then
    failed(thread, message)
  end
end

-- The running thread, which is about to wait; a wait outside any script thread cannot happen here
-- (the script itself runs in one), but a coroutine.wrap iterator's caller may be C.
local function current()
  local thread, isMain = running()
  if isMain then
    error("attempt to yield from outside a script thread", 3)
  end
  return thread
end

-- Suspends the running thread until wake(thread, ticket, ...) resumes it; answers those values.
function scheduler.suspend(thread, ticket)
  tickets[thread] = ticket
  local results = table.pack(yield())
  if tickets[thread] == ticket then
    tickets[thread] = nil
  end
  return table.unpack(results, 1, results.n)
end

-- Resumes thread if it still waits with this ticket; answers whether it did.
function scheduler.wake(thread, ticket, ...)
  if tickets[thread] ~= ticket or status(thread) ~= "suspended" then
    return false
  end
  tickets[thread] = nil
  resumeThread(thread, ...)
  return true
end

function scheduler.isWaiting(thread, ticket)
  return tickets[thread] == ticket and status(thread) == "suspended"
end

function scheduler.current()
  return current()
end

-- The frame a wait of `seconds` ends on: never this frame, as Roblox resumes on a later one.
local function frameAfter(seconds)
  if seconds ~= seconds or seconds < 0 then
    seconds = 0 -- NaN or a negative wait: the next frame
  end
  local frames = math.ceil(seconds * FRAMES_PER_SECOND - 1e-9)
  return frame + math.max(frames, 1)
end

-- Calls callback(...) on the frame `seconds` from now (in the scheduler, not in a script thread).
function scheduler.after(seconds, callback)
  push({ frame = frameAfter(seconds), callback = callback })
end

local function seconds(value, position, fn)
  if value == nil then
    return 0
  end
  local number = tonumber(value)
  if number == nil then
    error(string.format("invalid argument #%d to '%s' (number expected, got %s)", position, fn, dry.typeof(value)), 3)
  elseif number ~= number or number < 0 then
    return 0
  end
  return number
end

-- task.wait: answers the game seconds actually waited.
function scheduler.wait(duration)
  duration = seconds(duration, 1, "wait")
  local thread = current()
  local startedAt = scheduler.now()
  local ticket = {}
  push({ frame = frameAfter(duration), thread = thread, ticket = ticket })
  scheduler.suspend(thread, ticket)
  return scheduler.now() - startedAt
end

local function threadOf(fn, name)
  if type(fn) == "function" then
    return create(fn)
  elseif type(fn) == "thread" then
    return fn
  end
  error(string.format("invalid argument #1 to '%s' (function or thread expected, got %s)", name, dry.typeof(fn)), 3)
end

function scheduler.spawn(fn, ...)
  local thread = threadOf(fn, "spawn")
  tickets[thread] = nil
  resumeThread(thread, ...)
  return thread
end

-- Runs fn(...) in a new thread now, for a signal's handler (no argument checks: fn is known good).
function scheduler.handler(fn, ...)
  resumeThread(create(fn), ...)
end

function scheduler.delay(duration, fn, ...)
  duration = seconds(duration, 1, "delay")
  local thread = threadOf(fn, "delay")
  local ticket = {}
  tickets[thread] = ticket
  push({ frame = frameAfter(duration), thread = thread, ticket = ticket, args = table.pack(...) })
  return thread
end

function scheduler.defer(fn, ...)
  local thread = threadOf(fn, "defer")
  local ticket = {}
  tickets[thread] = ticket
  deferredLast = deferredLast + 1
  deferred[deferredLast] = { thread = thread, ticket = ticket, args = table.pack(...) }
  return thread
end

-- Calls callback() once the threads running now have waited or ended, on this same frame.
function scheduler.soon(callback)
  deferredLast = deferredLast + 1
  deferred[deferredLast] = { callback = callback }
end

function scheduler.cancel(thread)
  if type(thread) ~= "thread" then
    error("invalid argument #1 to 'cancel' (thread expected, got " .. dry.typeof(thread) .. ")", 2)
  end
  tickets[thread] = nil
  if status(thread) == "suspended" then
    close(thread)
  end
end

local function runEntry(entry)
  if entry.callback then
    entry.callback()
  elseif entry.args then
    if tickets[entry.thread] == entry.ticket then
      tickets[entry.thread] = nil
      resumeThread(entry.thread, table.unpack(entry.args, 1, entry.args.n))
    end
  else
    scheduler.wake(entry.thread, entry.ticket)
  end
end

local function runDeferred()
  while deferredFirst <= deferredLast do
    local entry = deferred[deferredFirst]
    deferred[deferredFirst] = nil
    deferredFirst = deferredFirst + 1
    runEntry(entry)
  end
end

-- listener(deltaSeconds) is called every frame while wanted() answers true.
function scheduler.setFrameListener(listener, wanted)
  frameListener = { call = listener, wanted = wanted }
end

-- Threads that still wait on something (the clock, a signal, a child) when the run ends.
function scheduler.waitingCount()
  local count = 0
  for thread in pairs(tickets) do
    if status(thread) == "suspended" then
      count = count + 1
    end
  end
  return count
end

-- Runs the script's chunk as the game's one Script, then `afterStart` (the player joining), then the
-- clock until nothing is left to run or `limitSeconds` of game time have passed.
function scheduler.run(chunk, afterStart, limitSeconds)
  local lastFrame = math.floor(limitSeconds * FRAMES_PER_SECOND)
  mainThread = create(chunk)
  resumeThread(mainThread)
  runDeferred()
  afterStart()
  local endedBy = "idle"
  while true do
    runDeferred()
    local everyFrame = frameListener and frameListener.wanted()
    local nextFrame
    if everyFrame then
      nextFrame = frame + 1
    elseif heap[1] then
      nextFrame = heap[1].frame
    else
      break
    end
    if nextFrame > lastFrame then
      endedBy = "game-time-limit"
      frame = math.max(frame, lastFrame)
      break
    end
    local previous = frame
    frame = nextFrame
    while heap[1] and heap[1].frame <= frame do
      runEntry(pop())
      runDeferred()
    end
    if everyFrame then
      frameListener.call((frame - previous) / FRAMES_PER_SECOND)
    end
  end
  return { error = firstError, endedBy = endedBy }
end

return scheduler
