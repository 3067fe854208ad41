import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatedGame, type EmulatedGame, type EmulatedGameOptions } from './emulated-game.ts';
import { startFakeMoonrelay, type FakeMoonrelay } from './fake-moonrelay.ts';

// 20 emulated seconds per real second: a task.wait(0.1) takes 5 ms.
const FAST = 0.05;

let fake: FakeMoonrelay;
const games: EmulatedGame[] = [];

beforeAll(async () => {
  fake = await startFakeMoonrelay();
});
afterEach(async () => {
  await Promise.all(games.splice(0).map((game) => game.stop()));
});
afterAll(() => fake.close());

async function start(options: EmulatedGameOptions = {}): Promise<EmulatedGame> {
  const game = await startEmulatedGame({ timeScale: FAST, ...options });
  games.push(game);
  return game;
}

/** Runs `source` and waits for it to print "done". */
async function runToDone(game: EmulatedGame, source: string): Promise<string[]> {
  game.run(`${source}\nprint("done")`);
  await game.waitForOutput(/^done$/, 3_000);
  return game.output();
}

describe('the scheduler', () => {
  it('resumes waiting threads in wake order; task.spawn runs at once, task.delay later', async () => {
    const game = await start();
    const output = await runToDone(
      game,
      `
      task.delay(0.2, function(label) print(label) end, "delay 0.2")
      task.spawn(function(label) print(label) task.wait(0.1) print("spawned woke") end, "spawned")
      print("after spawn")
      task.spawn(function() task.wait(0.3) print("wait 0.3") end)
      local waited = task.wait(0.4)
      print("main waited at least 0.4", waited >= 0.4)
      `,
    );
    expect(output).toEqual([
      'spawned',
      'after spawn',
      'spawned woke',
      'delay 0.2',
      'wait 0.3',
      'main waited at least 0.4 true',
      'done',
    ]);
  });

  it('runs threads due at the same time first-in first-out, task.defer after the current thread yields', async () => {
    const game = await start();
    const output = await runToDone(
      game,
      `
      for i = 1, 3 do task.delay(0.1, print, "same time " .. i) end
      task.defer(print, "deferred")
      print("before yield")
      task.wait(0.2)
      `,
    );
    expect(output).toEqual(['before yield', 'deferred', 'same time 1', 'same time 2', 'same time 3', 'done']);
  });

  it('task.cancel stops a delayed thread', async () => {
    const game = await start();
    const output = await runToDone(game, `local t = task.delay(0.05, print, "never") task.cancel(t) task.wait(0.1)`);
    expect(output).toEqual(['done']);
  });

  it('follows the time scale: a 1 s wait at scale 0.05 takes about 50 ms of real time', async () => {
    const game = await start();
    const startedAt = performance.now();
    await runToDone(game, 'task.wait(1)');
    const elapsed = performance.now() - startedAt;
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(1_000);
  });

  it("prints a thread's error with the script's name and line, and other threads keep running", async () => {
    const game = await start();
    game.run('task.delay(0.1, print, "still running")\nlocal t = nil\nprint(t.x)', 'ServerScriptService.Broken');
    await game.waitForOutput(/still running/);
    expect(game.output('error')[0]).toMatch(/^ServerScriptService\.Broken:3: attempt to index a nil value/);
  });

  it('stops a thread that runs too long without waiting ("Script timeout"), even under pcall', async () => {
    const game = await start({ maxRunSeconds: 0.2 });
    game.run('task.delay(0.1, print, "others still run")\nwhile true do pcall(function() while true do end end) end');
    await game.waitForOutput(/others still run/);
    expect(game.output('error')[0]).toMatch(/^Script timeout: exhausted allowed execution time/);
  });

  it('refuses a script that does not compile', async () => {
    const game = await start();
    expect(() => game.run('local = 1')).toThrow(
      /does not compile: ServerScriptService.Script:1: <name> expected near '='/,
    );
  });

  it('stop() ends it: sleeping threads never run again and a request in flight is dropped', async () => {
    const game = await start();
    // The delay is due 40 emulated seconds (2 s here) after it is set: room for the stop to come
    // first on a loaded machine (4 seconds, 200 ms here, was not). The echo answers 1 s later.
    game.run(`
      task.delay(40, print, "too late")
      print("started")
      game:GetService("HttpService"):GetAsync("${fake.url}/echo?delayMs=3000")
    `);
    await game.waitForOutput(/started/);
    expect(game.output()).toEqual(['started']);
    await game.stop();
    await game.stop();
    // Wait on the game's own clock until the delay was long due and the echo had answered.
    await game.waitFor(() => game.now() > 80, 'the emulated clock to pass 80 s', 30_000);
    expect(game.output()).toEqual(['started']);
    expect(game.requests[0]).toMatchObject({ status: null, error: null });
    expect(() => game.run('print(1)')).toThrow(/stopped/);
  });
});

describe('the output: LogService and ScriptContext', () => {
  // Lines 2-3 connect the listeners; the thread that errors calls boom (line 6) from line 8.
  const LOGS = `local seen = {}
LogService.MessageOut:Connect(function(message, messageType) table.insert(seen, messageType.Name .. " " .. message) end)
ScriptContext.Error:Connect(function(message, trace, origin) table.insert(seen, "Error " .. message .. " | " .. trace .. "| " .. origin:GetFullName()) end)
print("hello", 1.5)
warn("careful")
local function boom() error("boom") end
task.spawn(function()
  boom()
end)
table.insert(seen, "logged")
task.wait(0.1)`;

  it('fires MessageOut for print, warn and an uncaught error (its stack as info lines), and ScriptContext.Error with the trace and the script, after the logging thread yields', async () => {
    const game = await start();
    game.run(
      `local LogService = game:GetService("LogService")
local ScriptContext = game:GetService("ScriptContext")
${LOGS}
for _, entry in ipairs(seen) do print("seen: " .. entry) end`,
      'ServerScriptService.Logs',
    );
    await game.waitForOutput(/^seen: Error /);
    const seen = game
      .output('print')
      .filter((line) => line.startsWith('seen: '))
      .map((line) => line.slice(6));
    expect(seen).toEqual([
      // The handlers are deferred: the thread that logged ran on first.
      'logged',
      'MessageOutput hello 1.5',
      'MessageWarning careful',
      'MessageError ServerScriptService.Logs:8: boom',
      'MessageInfo Stack Begin',
      "MessageInfo Script 'ServerScriptService.Logs', Line 8 - function boom",
      "MessageInfo Script 'ServerScriptService.Logs', Line 10",
      'MessageInfo Stack End',
      'Error ServerScriptService.Logs:8: boom | ServerScriptService.Logs:8 function boom\nServerScriptService.Logs:10\n| ServerScriptService.Logs',
    ]);
    // The output window shows the same, with the stack in blue ("info").
    expect(game.output('error')).toEqual(['ServerScriptService.Logs:8: boom']);
    expect(game.output('info')).toEqual([
      'Stack Begin',
      "Script 'ServerScriptService.Logs', Line 8 - function boom",
      "Script 'ServerScriptService.Logs', Line 10",
      'Stack End',
    ]);
  });

  it('names the script a thread belongs to, also for threads its signal handlers and delays start', async () => {
    const game = await start();
    game.run(
      `game:GetService("ScriptContext").Error:Connect(function(message, _, origin) print(origin:GetFullName() .. " | " .. message) end)`,
      'ServerScriptService.Listener',
    );
    game.run('task.delay(0.05, function() error("late", 0) end)', 'Workspace.Thrower');
    await game.waitForOutput(/\| late$/);
    expect(game.output('print')).toEqual(['Workspace.Thrower | late']);
  });

  it('tells the wall clock with DateTime.now, in Unix milliseconds', async () => {
    const game = await start();
    const before = Date.now();
    const output = await runToDone(
      game,
      'local now = DateTime.now() print(now.UnixTimestampMillis, now.UnixTimestamp)',
    );
    const [millis, seconds] = output[0]!.split(' ').map(Number);
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(Date.now());
    expect(seconds).toBe(Math.floor(millis! / 1000));
  });
});

describe('HttpService', () => {
  it('RequestAsync does a real request and answers Roblox’s response table', async () => {
    const game = await start();
    const output = await runToDone(
      game,
      `
      local HttpService = game:GetService("HttpService")
      local response = HttpService:RequestAsync({
        Url = "${fake.url}/echo/ping",
        Method = "POST",
        Headers = { ["Content-Type"] = "application/json", Authorization = "Bearer k" },
        Body = HttpService:JSONEncode({ key = "k", list = { 1, 2.5, "three" }, empty = {} }),
      })
      print(response.Success, response.StatusCode, response.StatusMessage, typeof(response.Headers))
      local echoed = HttpService:JSONDecode(response.Body)
      print(echoed.method, echoed.path, echoed.contentType, echoed.authorization)
      print(echoed.body)
      `,
    );
    expect(output).toEqual([
      'true 200 OK table',
      'POST /echo/ping application/json Bearer k',
      '{"empty":[],"key":"k","list":[1,2.5,"three"]}',
      'done',
    ]);
    expect(fake.requests).toContain('POST /echo/ping');
  });

  it('answers the response headers; records each exchange with its times and answer; times out as Roblox does', async () => {
    const game = await start({ httpTimeoutMs: 200 });
    const output = await runToDone(
      game,
      `
      local HttpService = game:GetService("HttpService")
      local response = HttpService:RequestAsync({ Url = "${fake.url}/echo?status=503&retryAfter=7" })
      print(response.StatusCode, response.Headers["retry-after"], response.Headers["content-type"])
      print(pcall(HttpService.RequestAsync, HttpService, { Url = "${fake.url}/echo?delayMs=1000" }))
      `,
    );
    expect(output).toEqual(['503 7 application/json', 'false HttpError: Timedout', 'done']);
    const [shed, slow] = game.requests;
    expect(shed).toMatchObject({
      status: 503,
      error: null,
      responseHeaders: expect.objectContaining({ 'retry-after': '7' }),
    });
    expect(JSON.parse(shed!.responseBody!)).toMatchObject({ method: 'GET', path: '/echo' });
    expect(shed!.answeredAt).toBeGreaterThanOrEqual(shed!.sentAt);
    expect(slow).toMatchObject({
      status: null,
      error: 'HttpError: Timedout',
      responseHeaders: null,
      responseBody: null,
    });
    // Given up after the 200 ms of real time, 4 emulated seconds at this scale.
    expect(slow!.answeredAt! - slow!.sentAt).toBeGreaterThanOrEqual(3.5);
  });

  it('an HTTP error status is a response for RequestAsync and an error for GetAsync and PostAsync', async () => {
    const game = await start();
    const output = await runToDone(
      game,
      `
      local HttpService = game:GetService("HttpService")
      local response = HttpService:RequestAsync({ Url = "${fake.url}/echo?status=404" })
      print(response.Success, response.StatusCode)
      print(pcall(HttpService.GetAsync, HttpService, "${fake.url}/echo?status=404"))
      print(pcall(HttpService.PostAsync, HttpService, "${fake.url}/echo?status=500", "{}"))
      print(HttpService:JSONDecode(HttpService:PostAsync("${fake.url}/echo", "a=1", Enum.HttpContentType.TextPlain)).contentType)
      `,
    );
    expect(output).toEqual([
      'false 404',
      'false HTTP 404 (Not Found)',
      'false HTTP 500 (Internal Server Error)',
      'text/plain',
      'done',
    ]);
  });

  it('raises Roblox’s errors: refused connection, unknown host, HTTP off, a GET with a body', async () => {
    const closed = await startFakeMoonrelay();
    await closed.close();
    const game = await start();
    const output = await runToDone(
      game,
      `
      local HttpService = game:GetService("HttpService")
      print(pcall(HttpService.GetAsync, HttpService, "${closed.url}/"))
      print(pcall(HttpService.GetAsync, HttpService, "http://example.com/"))
      print(pcall(HttpService.RequestAsync, HttpService, { Url = "${fake.url}/echo", Body = "x" }))
      print(pcall(HttpService.GetAsync, HttpService, "ftp://127.0.0.1/"))
      print(pcall(function() return HttpService.RequestAsync({ Url = "${fake.url}/echo" }) end))
      `,
    );
    expect(output[0]).toBe('false HttpError: ConnectFail');
    expect(output[1]).toMatch(/^false HttpError: DnsResolve/);
    expect(output[2]).toMatch(/Body cannot be specified for GET/);
    expect(output[3]).toMatch(/Url must be an http/);
    expect(output[4]).toMatch(/Expected ':' not '\.' calling member function RequestAsync/);

    const off = await start({ httpEnabled: false });
    const offOutput = await runToDone(
      off,
      `local HttpService = game:GetService("HttpService")
      print(HttpService.HttpEnabled, pcall(HttpService.GetAsync, HttpService, "${fake.url}/echo"))`,
    );
    expect(offOutput[0]).toMatch(/^false false .*Http requests are not enabled/);
  });

  it('encodes and decodes JSON as Roblox does', async () => {
    const game = await start();
    const output = await runToDone(
      game,
      `
      local HttpService = game:GetService("HttpService")
      print(HttpService:JSONEncode({ 1, 2, 3 }), HttpService:JSONEncode({}), HttpService:JSONEncode({ a = { b = true } }))
      print(HttpService:JSONEncode({ s = 'quote " slash \\\\ line\\n tab\\t bell\\7 é' }))
      print(HttpService:JSONEncode({ whole = 100.0, half = 0.5, third = 1 / 3 }))
      print(pcall(HttpService.JSONEncode, HttpService, { 1, 2, x = 3 }))
      print(pcall(HttpService.JSONEncode, HttpService, { f = print }))
      local decoded = HttpService:JSONDecode('{"a":[1,null,3],"b":null,"c":"\\\\u00e9\\\\ud83d\\\\ude00","d":-2.5e2,"e":100}')
      print(decoded.a[1], decoded.a[2], decoded.a[3], decoded.b, decoded.c, decoded.d, math.type(decoded.e))
      print(pcall(HttpService.JSONDecode, HttpService, '{"a":1'))
      `,
    );
    expect(output).toEqual([
      '[1,2,3] [] {"a":{"b":true}}',
      '{"s":"quote \\" slash \\\\ line\\n tab\\t bell\\u0007 é"}',
      '{"half":0.5,"third":0.3333333333333333,"whole":100}',
      "false Can't convert to JSON: a table mixes array and object keys",
      "false Can't convert to JSON: a function value",
      '1 nil 3 nil é😀 -250 integer',
      expect.stringMatching(/^false Can't parse JSON/),
      'done',
    ]);
  });
});

describe('the player and the character', () => {
  it('exposes the player and moves the character with PivotTo', async () => {
    const game = await start({
      player: { name: 'Ada', userId: 42, position: { x: 1, y: 2, z: 3 }, health: 50, maxHealth: 200, walkSpeed: 20 },
      jobId: 'job-7',
      placeId: 1818,
      gameId: 13058,
    });
    const output = await runToDone(
      game,
      `
      print(game.JobId, game.PlaceId, game.GameId)
      local player = game:GetService("Players"):GetPlayers()[1]
      local character = player.Character
      local humanoid = character:FindFirstChildOfClass("Humanoid")
      print(player.Name, player.UserId, character:FindFirstChild("HumanoidRootPart").Position, humanoid.Health)
      character:PivotTo(CFrame.new(10, 20.5, -30))
      print(character.HumanoidRootPart.Position, character:GetPivot().Y, typeof(character:GetPivot()))
      `,
    );
    expect(output).toEqual(['job-7 1818 13058', 'Ada 42 1, 2, 3 50', '10, 20.5, -30 20.5 CFrame', 'done']);
    expect(game.character()).toEqual({
      position: { x: 10, y: 20.5, z: -30 },
      health: 50,
      maxHealth: 200,
      walkSpeed: 20,
      deaths: 0,
    });
  });

  it('keeps Health within 0..MaxHealth, counts deaths, and the test can change the character', async () => {
    const game = await start();
    game.setCharacter({ health: 30 });
    await runToDone(
      game,
      `
      local humanoid = game:GetService("Players"):GetPlayers()[1].Character.Humanoid
      humanoid.Died:Connect(function() print("died") end)
      humanoid.Health = 500
      print(humanoid.Health)
      humanoid.Health = 0
      humanoid.WalkSpeed = 32
      `,
    );
    expect(game.output()).toEqual(['100', 'died', 'done']);
    expect(game.character()).toMatchObject({ health: 0, walkSpeed: 32, deaths: 1 });
  });

  it('answers Roblox’s messages for members that do not exist, read-only ones and "." calls', async () => {
    const game = await start({ player: null });
    const output = await runToDone(
      game,
      `
      print(#game:GetService("Players"):GetPlayers())
      print(pcall(function() return game.Nope end))
      print(pcall(function() game.JobId = "x" end))
      print(pcall(function() return game.GetService("Players") end))
      print(pcall(function() return game:GetService("MarketplaceService") end))
      `,
    );
    expect(output[0]).toBe('0');
    expect(output[1]).toMatch(/Nope is not a valid member of DataModel "Game"/);
    expect(output[2]).toMatch(/Unable to assign property JobId\. Property is read only/);
    expect(output[3]).toMatch(/Expected ':' not '\.' calling member function GetService/);
    expect(output[4]).toMatch(/'MarketplaceService' is not a valid Service name/);
  });
});

describe('loadstring, setfenv and the Luau globals', () => {
  it('loadstring compiles text; setfenv gives the chunk an environment that captures print', async () => {
    const game = await start();
    const output = await runToDone(
      game,
      `
      local captured = {}
      local chunk = loadstring("print('inside', answer) warn('careful') x = 1 return game.PlaceId")
      local environment = setmetatable({
        print = function(...) table.insert(captured, table.concat({ ... }, " ")) end,
        warn = function(...) table.insert(captured, "warning: " .. table.concat({ ... }, " ")) end,
        answer = 42,
      }, { __index = getfenv(0) })
      setfenv(chunk, environment)
      local ok, placeId = pcall(chunk)
      print(ok, placeId, table.concat(captured, "|"), environment.x, x)
      print(getfenv(chunk) == environment, getfenv(print) == getfenv(0))
      print(loadstring("return +"))
      print(loadstring("error('boom')", "=Named"))
      print(pcall(loadstring("error('boom')", "=Named")))
      `,
    );
    expect(output).toEqual([
      'true 0 inside 42|warning: careful 1 nil',
      'true true',
      expect.stringMatching(/^nil \[string "return \+"\]:1: unexpected symbol/),
      expect.stringMatching(/^function: /),
      'false Named:1: boom',
      'done',
    ]);
  });

  it('loadstring raises when LoadStringEnabled is off', async () => {
    const game = await start({ loadStringEnabled: false });
    const output = await runToDone(game, 'print(pcall(loadstring, "return 1"))');
    expect(output[0]).toBe('false loadstring() is not available');
  });

  it('behaves like Luau where plain Lua differs, and lacks what Luau lacks', async () => {
    const game = await start();
    const output = await runToDone(
      game,
      `
      print(tostring(3.0), 10 / 2, 2 ^ 3, typeof(Vector3.new()), typeof(game), typeof(1), _VERSION)
      print(load, io, require, os.exit, string.dump, debug.getupvalue)
      print(table.find({ "a", "b" }, "b"), table.concat(string.split("a,b,c", ","), "+"), math.clamp(5, 0, 3))
      `,
    );
    expect(output).toEqual(['3 5 8 Vector3 Instance number Luau', 'nil nil nil nil nil nil', '2 a+b+c 3', 'done']);
  });
});
