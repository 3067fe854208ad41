import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { finishDryRun } from './dry-run.ts';
import { runLua, type SandboxLimits } from './run-lua.ts';
import { warmSandboxBeforeAll } from './sandbox-test-support.ts';

/**
 * Dry runs: scripts written for a Roblox server run against the emulated game of lua/sandbox/dry-run
 * inside the sandbox, on its virtual clock, and answer their output and a summary of what they did.
 * Scripts go through the sandbox's Luau lowering like any other; most here are valid Lua 5.4 as well.
 */

warmSandboxBeforeAll();

const dryRun = (code: string, limits: Partial<SandboxLimits> = {}) => runLua(code, limits, { environment: 'dry-run' });

/** Limits for the scripts meant to hit one: generous time, so the limit under test is the one hit. */
const SLOW_MACHINE_SAFE = { deadlineMs: 120_000 };

const lines = (output: string) => output.split('\n').filter((line) => line !== '');

describe('dry run: scripts written for a game server', () => {
  it('runs a part spawner and counts what it created', async () => {
    const result = await dryRun(`
local folder = Instance.new("Folder")
folder.Name = "Spawned"
folder.Parent = workspace
for i = 1, 5 do
  local part = Instance.new("Part")
  part.Name = "Block" .. i
  part.Anchored = true
  part.Size = Vector3.new(2, 2, 2)
  part.Position = Vector3.new(i * 4, 10, 0)
  part.BrickColor = BrickColor.new("Bright red")
  part.Parent = folder
  task.wait(0.5)
end
print(#folder:GetChildren(), folder.Block3.Position, folder.Block3.Color, folder.Block3.Material)
print(workspace:FindFirstChild("Block5", true):GetFullName(), os.clock())
`);

    expect(result).toMatchObject({ success: true, error: null, limit: null, returns: [] });
    expect(lines(result.output)).toEqual([
      '5 12, 10, 0 0.7686274509803922, 0.1568627450980392, 0.10980392156862745 Enum.Material.Plastic',
      'Workspace.Spawned.Block5 2.5',
    ]);
    expect(result.dryRun).toEqual({
      created: [
        { className: 'Part', count: 5 },
        { className: 'Folder', count: 1 },
      ],
      destroyed: [],
      changed: [],
      changedOmitted: 0,
      propertiesSet: 2 + 5 * 6,
      gameSeconds: 2.5,
      waitingThreads: 0,
      endedBy: 'idle',
    });
  });

  it('runs a leaderstats script: PlayerAdded fires for the player, who gets an IntValue', async () => {
    const result = await dryRun(`
local Players = game:GetService("Players")
print("at start", #Players:GetPlayers(), Players.LocalPlayer)
Players.PlayerAdded:Connect(function(player)
  local leaderstats = Instance.new("Folder")
  leaderstats.Name = "leaderstats"
  leaderstats.Parent = player
  local coins = Instance.new("IntValue")
  coins.Name = "Coins"
  coins.Value = 10
  coins.Parent = leaderstats
  coins.Changed:Connect(function(value)
    print("coins now", value)
  end)
  print(player.Name, "joined with", player.leaderstats.Coins.Value, "coins")
  for _ = 1, 3 do
    task.wait(1)
    coins.Value = coins.Value + 5.7
  end
end)
`);

    expect(result).toMatchObject({ success: true, error: null });
    expect(lines(result.output)).toEqual([
      'at start 0 nil',
      'Player1 joined with 10 coins',
      'coins now 15',
      'coins now 20',
      'coins now 25',
    ]);
    expect(result.dryRun).toMatchObject({
      created: [
        { className: 'Folder', count: 1 },
        { className: 'IntValue', count: 1 },
      ],
      changed: [],
      gameSeconds: 3,
      endedBy: 'idle',
    });
  });

  it('teleports the character without a tween, and the summary shows where it ended', async () => {
    const result = await dryRun(`
local Players = game:GetService("Players")
local player = Players:GetPlayers()[1] or Players.PlayerAdded:Wait()
local character = player.Character or player.CharacterAdded:Wait()
local root = character:WaitForChild("HumanoidRootPart")
print("spawned at", root.Position)
root.CFrame = CFrame.new(10, 20, 30)
print("moved to", root.Position, character:GetPivot().Position)
task.wait(1)
character:PivotTo(CFrame.new(0, 50, 0) * CFrame.Angles(0, math.pi / 2, 0))
print("pivoted to", root.Position, math.round(root.Orientation.Y))
print("head follows", character.Head.Position)
`);

    expect(result).toMatchObject({ success: true, error: null });
    expect(lines(result.output)).toEqual([
      'spawned at 0, 3, 0',
      'moved to 10, 20, 30 10, 20, 30',
      'pivoted to 0, 50, 0 90',
      'head follows 0, 51.5, 0',
    ]);
    const changed = result.dryRun?.changed.map(({ instance, property }) => `${instance}.${property}`);
    expect(changed).toEqual([
      'Workspace.Player1.HumanoidRootPart.CFrame',
      'Workspace.Player1.Head.CFrame',
      'Workspace.Player1.Torso.CFrame',
    ]);
    expect(result.dryRun?.changed[0]?.value).toMatch(/^0, 50, 0, /);
    expect(result.dryRun?.created).toEqual([]);
  });

  it('orders task.wait, task.delay, task.spawn and task.defer on the virtual clock', async () => {
    const result = await dryRun(`
local function say(what)
  print(what, os.clock(), time())
end
task.delay(2, say, "delay 2")
task.delay(1, say, "delay 1")
task.defer(say, "deferred")
task.spawn(function()
  say("spawned")
  local waited = task.wait(0.5)
  say("spawned woke after " .. waited)
end)
local cancelled = task.delay(1.5, say, "never")
task.cancel(cancelled)
say("main")
local waited, elapsed = wait(3)
say("main woke after " .. waited .. " at " .. elapsed)
print("tick", tick() - 1767225600)
`);

    expect(result).toMatchObject({ success: true, error: null });
    expect(lines(result.output)).toEqual([
      'spawned 0 0',
      'main 0 0',
      'deferred 0 0',
      'spawned woke after 0.5 0.5 0.5',
      'delay 1 1 1',
      'delay 2 2 2',
      'main woke after 3 at 3 3 3',
      'tick 3',
    ]);
    expect(result.dryRun).toMatchObject({ gameSeconds: 3, waitingThreads: 0, endedBy: 'idle' });
  });

  it('gives WaitForChild a timeout on the virtual clock, and warns of an infinite yield', async () => {
    const result = await dryRun(`
local holder = Instance.new("Folder", workspace)
task.delay(2, function()
  local late = Instance.new("Part")
  late.Name = "Late"
  late.Parent = holder
end)
print("missing", holder:WaitForChild("Missing", 1.5), os.clock())
print("late", holder:WaitForChild("Late"), os.clock())
print("never", workspace:WaitForChild("Never"))
`);

    expect(result).toMatchObject({ success: true, error: null });
    expect(lines(result.output)).toEqual([
      'missing nil 1.5',
      'late Late 2',
      `warning: Infinite yield possible on 'Workspace:WaitForChild("Never")'`,
    ]);
    // The last WaitForChild still waits when nothing is left that could end it.
    expect(result.dryRun).toMatchObject({ gameSeconds: 7, waitingThreads: 1, endedBy: 'idle' });
  });

  it('has signals: Connect, Once, Wait, Disconnect, Changed and property and child events', async () => {
    const result = await dryRun(`
local event = Instance.new("BindableEvent")
local seen = {}
local connection = event.Event:Connect(function(a, b)
  table.insert(seen, "connect " .. tostring(a) .. " " .. tostring(b))
end)
event.Event:Once(function(a)
  table.insert(seen, "once " .. tostring(a))
end)
event:Fire(1, "x")
event:Fire(2)
connection:Disconnect()
event:Fire(3)
print(table.concat(seen, ", "), connection.Connected)
task.delay(1, function()
  event:Fire("late")
end)
print("waited for", event.Event:Wait(), os.clock())

local part = Instance.new("Part")
part.Changed:Connect(function(property)
  print("changed", property)
end)
part:GetPropertyChangedSignal("Transparency"):Connect(function()
  print("transparency", part.Transparency)
end)
part.Transparency = 0.5
part.Transparency = 0.5
part.Name = "Door"
local folder = Instance.new("Folder")
folder.ChildAdded:Connect(function(child)
  print("added", child.Name)
end)
folder.ChildRemoved:Connect(function(child)
  print("removed", child.Name)
end)
part.Parent = folder
part:Destroy()
print(part.Parent, #folder:GetChildren(), typeof(event.Event), typeof(connection))
`);

    expect(result).toMatchObject({ success: true, error: null });
    expect(lines(result.output)).toEqual([
      'connect 1 x, once 1, connect 2 nil false',
      'waited for late 1',
      'changed Transparency',
      'transparency 0.5',
      'changed Name',
      'added Door',
      'changed Parent',
      'removed Door',
      'changed Parent',
      'nil 0 RBXScriptSignal RBXScriptConnection',
    ]);
    expect(result.dryRun).toMatchObject({
      created: [
        { className: 'BindableEvent', count: 1 },
        { className: 'Folder', count: 1 },
        { className: 'Part', count: 1 },
      ],
      destroyed: [{ className: 'Part', count: 1 }],
    });
  });

  it('ticks Heartbeat every frame until the game-time limit', async () => {
    const result = await dryRun(`
local RunService = game:GetService("RunService")
local frames, elapsed = 0, 0
RunService.Heartbeat:Connect(function(delta)
  frames = frames + 1
  elapsed = elapsed + delta
end)
task.wait(1)
print(frames, math.round(elapsed * 60), RunService:IsServer(), RunService:IsClient())
`);

    expect(result).toMatchObject({ success: true, error: null });
    // Frame 60 wakes the script before its own Heartbeat fires.
    expect(lines(result.output)).toEqual(['59 59 true false']);
    expect(result.dryRun).toMatchObject({ gameSeconds: 60, endedBy: 'game-time-limit', waitingThreads: 0 });
  });

  it('keeps running the other threads after the script fails, and answers the first error with its line', async () => {
    const result = await dryRun(`
task.delay(1, function()
  print("still running")
  error("second failure")
end)
print("before")
local part = Instance.new("Part")
part.Size = 5
`);

    expect(result.success).toBe(false);
    expect(result.error).toBe('script:8: Unable to assign property Size. Vector3 expected, got number');
    expect(lines(result.output)).toEqual(['before', 'still running', 'error: script:4: second failure']);
    expect(result.dryRun).toMatchObject({ created: [{ className: 'Part', count: 1 }], gameSeconds: 1 });
  });
});

describe('dry run: Luau syntax', () => {
  it('runs a script with types, compound assignment, continue, interpolation and if-expressions', async () => {
    const result = await dryRun(`--!strict
local Players = game:GetService("Players")
type Stats = { coins: number }
local stats: { [Player]: Stats } = {}
Players.PlayerAdded:Connect(function(player: Player)
  stats[player] = { coins = 0 }
  for i = 1, 3 do
    task.wait(1)
    stats[player].coins += 5
    if stats[player].coins > 10 then
      continue
    end
    print(\`{player.Name} has {stats[player].coins} coins at {os.clock()}\`)
  end
end)
task.wait(4)
for player, s in pairs(stats) do
  print(player.Name, s.coins, if s.coins > 10 then "rich" else "poor")
end
`);

    expect(result).toMatchObject({ success: true, error: null });
    expect(lines(result.output)).toEqual(['Player1 has 5 coins at 1', 'Player1 has 10 coins at 2', 'Player1 15 rich']);
  });

  it('iterates the lists the API answers the Luau way (for _, child in folder:GetChildren() do)', async () => {
    const result = await dryRun(`
local folder = Instance.new("Folder")
for i = 1, 3 do
  local part = Instance.new("Part")
  part.Name = "P" .. i
  part.Parent = folder
end
folder.P2:SetAttribute("speed", 5)
local names = {}
for _, child in folder:GetChildren() do
  table.insert(names, child.Name)
end
for name, value in folder.P2:GetAttributes() do
  table.insert(names, name .. "=" .. value)
end
task.wait() -- the player joins once the script first waits
for index, player in game:GetService("Players"):GetPlayers() do
  table.insert(names, index .. ":" .. player.Name)
end
print(table.concat(names, " "), #folder:GetDescendants())
`);
    expect(result).toMatchObject({ success: true, output: 'P1 P2 P3 speed=5 1:Player1 3\n' });
  });
});

describe('dry run: what is not emulated says so', () => {
  it.each([
    ['game:GetService("DataStoreService")', 'script:1: DataStoreService is not available in a dry run'],
    ['game:GetService("TweenService")', 'script:1: TweenService is not available in a dry run'],
    [
      'game:GetService("HttpService"):GetAsync("https://example.com")',
      'script:1: HttpService:GetAsync is not available in a dry run',
    ],
    [
      'game:GetService("HttpService"):RequestAsync({ Url = "https://example.com" })',
      'script:1: HttpService:RequestAsync is not available in a dry run',
    ],
    ['workspace:Raycast(Vector3.zero, Vector3.yAxis)', 'script:1: Workspace:Raycast is not available in a dry run'],
    ['Instance.new("Foo")', 'script:1: Instance.new("Foo") is not available in a dry run'],
    ['print(workspace.Foo)', 'script:1: Workspace.Foo is not available in a dry run'],
    ['Instance.new("Part").Foo = 1', 'script:1: Part.Foo is not available in a dry run'],
    ['print(Enum.Foo)', 'script:1: Enum.Foo is not available in a dry run'],
    [
      'require(game:GetService("ReplicatedStorage"))',
      'script:1: require(ReplicatedStorage) is not available in a dry run',
    ],
    [
      'workspace.Parent = nil',
      'script:1: The Parent property of Workspace is locked, current parent: Game, new parent NULL',
    ],
  ])('%s', async (code, message) => {
    const result = await dryRun(code);
    expect(result).toMatchObject({ success: false, error: message, limit: null });
  });

  it('answers HttpService JSON, which needs no network', async () => {
    const result = await dryRun(`
local HttpService = game:GetService("HttpService")
print(HttpService:JSONEncode({ a = 1, list = { 1, 2 } }), HttpService:JSONDecode('{"b":[true]}').b[1])
`);
    expect(result).toMatchObject({ success: true, output: '{"a":1,"list":[1,2]} true\n' });
  });
});

describe('dry run: hostile scripts stop at the sandbox limits', () => {
  it('stops an endless task.wait loop at the game-time limit, not a sandbox limit', async () => {
    const result = await dryRun('local n = 0\nwhile true do\n  n = n + 1\n  task.wait()\nend');
    expect(result).toMatchObject({ success: true, limit: null });
    expect(result.dryRun).toMatchObject({ gameSeconds: 60, waitingThreads: 1, endedBy: 'game-time-limit' });
  });

  it('takes waits of NaN, negative or endless length without stalling the clock', async () => {
    const result = await dryRun(`
local holder = Instance.new("Folder")
print(task.wait(0 / 0), task.wait(-5), holder:WaitForChild("x", 0 / 0), os.clock())
task.delay(math.huge, print, "never")
game:GetService("Debris"):AddItem(holder, 0 / 0)
`);
    expect(result).toMatchObject({ success: true, output: '0.016666666666666666 0.016666666666666666 nil 0.05\n' });
    expect(result.dryRun).toMatchObject({ destroyed: [{ className: 'Folder', count: 1 }], endedBy: 'game-time-limit' });
  });

  it('stops a printing game loop at the output limit', async () => {
    const result = await dryRun('while true do\n  print(string.rep("x", 1000))\n  task.wait()\nend');
    expect(result).toMatchObject({ success: false, limit: 'output', error: 'Output limit exceeded (64 KiB)' });
    expect(result.output.endsWith('... output truncated (64 KiB limit)\n')).toBe(true);
  });

  it('stops a thread storm (every frame doubles the waiting threads) at a sandbox limit', async () => {
    const result = await dryRun(
      'local function grow()\n  while true do\n    task.spawn(grow)\n    task.wait()\n  end\nend\ngrow()',
      { instructionLimit: 5_000_000, memoryBytes: 8 * 1024 * 1024, ...SLOW_MACHINE_SAFE },
    );
    // Whichever comes first: a million waiting threads take both instructions and memory.
    expect(result).toMatchObject({ success: false, limit: expect.stringMatching(/^(instructions|memory)$/) });
    expect(result.dryRun).toBeNull();
  });

  it('stops endless deferral at the instruction limit', async () => {
    const result = await dryRun('local function again()\n  task.defer(again)\nend\nagain()', {
      instructionLimit: 5_000_000,
      ...SLOW_MACHINE_SAFE,
    });
    expect(result).toMatchObject({ success: false, limit: 'instructions', error: 'Instruction limit exceeded' });
  });

  it('stops a very deep tree at the instruction limit', async () => {
    const result = await dryRun(
      'local parent = workspace\nfor i = 1, 1e6 do\n  local folder = Instance.new("Folder")\n  folder.Parent = parent\n  parent = folder\nend',
      { instructionLimit: 20_000_000, ...SLOW_MACHINE_SAFE },
    );
    expect(result).toMatchObject({ success: false, limit: 'instructions' });
  });

  it('walks a deep tree without recursion: GetDescendants, Clone and Destroy of 2000 levels', async () => {
    const result = await dryRun(`
local root = Instance.new("Folder")
local parent = root
for i = 1, 2000 do
  local folder = Instance.new("Folder")
  folder.Parent = parent
  parent = folder
end
local copy = root:Clone()
print(#root:GetDescendants(), #copy:GetDescendants())
root:Destroy()
`);
    expect(result).toMatchObject({ success: true, output: '2000 2000\n' });
    expect(result.dryRun).toMatchObject({
      created: [{ className: 'Folder', count: 4002 }],
      destroyed: [{ className: 'Folder', count: 2001 }],
    });
  });

  it('stops huge Instance.new counts at the memory limit', async () => {
    const result = await dryRun('while true do\n  Instance.new("Part", workspace)\nend', {
      memoryBytes: 8 * 1024 * 1024,
      ...SLOW_MACHINE_SAFE,
    });
    expect(result).toMatchObject({ success: false, limit: 'memory', error: 'Memory limit exceeded (8 MiB)' });
  });

  it('stops signals that fire each other without end with a clean error', async () => {
    const result = await dryRun(`
local event = Instance.new("BindableEvent")
event.Event:Connect(function()
  event:Fire()
end)
event:Fire()
print("the script goes on")
`);
    expect(lines(result.output)).toContain('the script goes on');
    expect(result.error).toMatch(/stack overflow/);
    expect(result.limit).toBeNull();
  });

  it('cannot catch a sandbox limit inside a spawned thread', async () => {
    const result = await dryRun('task.spawn(function()\n  pcall(function() while true do end end)\nend)', {
      instructionLimit: 5_000_000,
      ...SLOW_MACHINE_SAFE,
    });
    expect(result).toMatchObject({ success: false, limit: 'instructions' });
  });
});

describe('dry run: a script that sabotages the globals', () => {
  it('cannot break the emulation or its summary by replacing the globals it shares', async () => {
    const result = await dryRun(`
local Players = game:GetService("Players")
pairs, ipairs, next, type, tostring, tonumber, select = nil, nil, nil, nil, nil, nil, nil
error, pcall, setmetatable, getmetatable, rawget = nil, nil, nil, nil, nil
table, string, math, coroutine, os = {}, {}, {}, {}, {}
local part = Instance.new("Part", workspace)
part.Position = Vector3.new(1, 2, 3)
task.wait(1)
print(part.Position, #Players:GetPlayers())
`);
    expect(result).toMatchObject({ success: true, output: '1, 2, 3 1\n' });
    expect(result.dryRun).toMatchObject({ created: [{ className: 'Part', count: 1 }], gameSeconds: 1 });
  });

  it('answers a report it cannot read as a failed run without a summary', () => {
    const result = { success: true, error: null, returns: ['{"error":null,"summary":{"created":"lots"}}'] };
    expect(finishDryRun(result)).toEqual({
      success: false,
      error: 'The dry run failed: its report could not be read',
      returns: [],
      dryRun: null,
    });
  });
});

describe("dry run: Moonrelay's own game integration script", () => {
  it('gets through its start-up: HTTP is not available, so it reports failed pings and retries', async () => {
    const code = readFileSync(
      createRequire(import.meta.url).resolve('@moonrelay/lua/integration/game-integration.lua'),
      'utf8',
    );
    const result = await dryRun(code);

    expect(result).toMatchObject({ success: true, error: null, limit: null });
    const output = lines(result.output);
    expect(output[0]).toBe('[Moonrelay] Starting (server studio, {{SERVER_URL}})');
    const unavailable = 'Ping failed (HttpService:RequestAsync is not available in a dry run)';
    expect(output.slice(1)).toEqual(
      [2, 4, 8, 16, 32].map((delay) => `warning: [Moonrelay] ${unavailable}; retrying in ${delay} s`),
    );
    // Its ping loop and script sync loop still wait when the dry run's game time is up.
    expect(result.dryRun).toMatchObject({ created: [], endedBy: 'game-time-limit', waitingThreads: 2 });
  });
});

describe('the plain sandbox is unchanged', () => {
  it('has no game, and answers no summary', async () => {
    const result = await runLua('return typeof(game), typeof(Instance), task.wait(5)');
    expect(result).toMatchObject({ success: true, returns: ['nil', 'nil', '1'] });
    expect(result.dryRun).toBeUndefined();
  });
});
