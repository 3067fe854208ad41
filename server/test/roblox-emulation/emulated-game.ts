import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { LuaFactory, type LuaEngine } from 'wasmoon';

/**
 * An emulated Roblox game server for tests: real Lua 5.4 (wasmoon) with the Roblox API of
 * roblox-emulation.lua, so Moonrelay's integration scripts run unchanged against a real server.
 *
 * How it runs: every script thread is a Lua coroutine managed by the Lua scheduler
 * (scheduler.lua). A thread that waits yields inside Lua; JavaScript never sees a yield. This
 * driver owns the clock and the network: it calls `step()` whenever the earliest sleeper is due,
 * and when Lua asks for HTTP (`host.http`) it starts a real fetch and, once the answer is in,
 * hands it to `deliver()`, which resumes the waiting thread. Between those calls the event loop is
 * free, so the test, the server under test and the game all run in one process.
 *
 * Time: emulated seconds pass `1 / timeScale` times faster than real ones (timeScale 0.1 runs the
 * integration script's 2 s loop every 0.2 s), the same clock for task.wait, os.clock and tick.
 * Only 127.0.0.1 is reachable by default, so a test cannot touch the outside world.
 */

export interface Position {
  x: number;
  y: number;
  z: number;
}

export interface EmulatedPlayer {
  name: string;
  userId: number;
  displayName?: string;
  /** Player.AccountAge, in days (default 0). */
  accountAge?: number;
  position?: Position;
  health?: number;
  maxHealth?: number;
  walkSpeed?: number;
}

export interface EmulatedGameOptions {
  /** Real seconds per emulated second. Default 1. */
  timeScale?: number;
  /** game.JobId; Studio's is empty. Default "". */
  jobId?: string;
  placeId?: number;
  gameId?: number;
  /** HttpService.HttpEnabled. Default true. */
  httpEnabled?: boolean;
  /** Whether loadstring works (ServerScriptService.LoadStringEnabled). Default true. */
  loadStringEnabled?: boolean;
  /** The one player in the game, or null for none. Default: Builderman at the origin. */
  player?: EmulatedPlayer | null;
  /** Every player in the game, in join order (replaces `player`); the first one's character is `character()`. */
  players?: EmulatedPlayer[];
  /** RunService:IsStudio(): Studio's Play and its Test > Start local servers. Default false. */
  studio?: boolean;
  /** Host names requests may go to. Default ['127.0.0.1']. */
  allowedHosts?: string[];
  /** A request without an answer after this long fails with HttpError: Timedout. Default 10 000. */
  httpTimeoutMs?: number;
  /** Processor seconds a thread may run without waiting before "Script timeout". Default 2. */
  maxRunSeconds?: number;
  /** Also print every output line to the console (for debugging a test). */
  echo?: boolean;
  /** Players.BanningEnabled (a place setting only Studio changes). Default true. */
  banningEnabled?: boolean;
  /** Roblox's error for a player's ban or unban, by user id: a Ban API call with such players fails for them. */
  banFailures?: Record<string, string>;
}

/** Roblox's output: print, warn, an uncaught error, and the blue info lines (an error's stack). */
export type OutputKind = 'print' | 'warn' | 'error' | 'info';

export interface OutputLine {
  kind: OutputKind;
  text: string;
  /** Emulated seconds since the game started. */
  time: number;
}

export interface CharacterState {
  position: Position;
  health: number;
  maxHealth: number;
  walkSpeed: number;
  /** Times the humanoid's health reached 0. */
  deaths: number;
}

export interface HttpExchange {
  method: string;
  url: string;
  body: string;
  /** Emulated seconds since the game started, when the script sent the request. */
  sentAt: number;
  /** Emulated seconds when the game had the answer (or the failure), else null. */
  answeredAt: number | null;
  /** The answer's status once the game has it (the waiting thread has run on), else null. */
  status: number | null;
  /** The answer's headers (names in lower case) and body, once the game has them. */
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  /** Why the request failed (Roblox's HttpError text), once the game has it. */
  error: string | null;
}

/** An HTTP answer as Lua takes it: ok, status, status text, headers (JSON), body; or not ok and the error. */
type Answer =
  [ok: true, status: number, statusText: string, headers: string, body: string] | [ok: false, error: string];

/** The functions roblox-emulation.lua returns (wasmoon turns the Lua table into this object). */
interface Control {
  run(source: string, chunkName: string): string;
  step(): number;
  deliver(id: number, ...answer: Answer): void;
  character(): string;
  setCharacter(changes: string): void;
  removePlayer(name: string): boolean;
  addPlayer(spec: string): void;
  moderation(): string;
  setBanningEnabled(enabled: boolean): void;
}

/** What the game's moderation did: Ban API calls (their configs), kicks, and the text on each player's screen. */
export interface ModerationState {
  bans: {
    UserIds: number[];
    Duration: number;
    DisplayReason: string;
    PrivateReason: string;
    ExcludeAltAccounts: boolean;
  }[];
  unbans: { UserIds: number[] }[];
  kicks: { userId: number; message: string }[];
  screens: Record<string, string[]>;
}

interface Delivery {
  id: number;
  exchange: HttpExchange;
  answer: Answer;
}

type Settings = EmulatedGameOptions &
  Required<Pick<EmulatedGameOptions, 'timeScale' | 'allowedHosts' | 'httpTimeoutMs'>>;

const DEFAULT_PLAYER: EmulatedPlayer = { name: 'Builderman', userId: 156, position: { x: 0, y: 5, z: 0 } };
const LUA_MODULES = ['json', 'scheduler'] as const;
const POLL_MS = 10;

// JSON is the dry run's own module (lua/sandbox/dry-run), so both encode and decode alike.
const MODULE_FILES: Record<string, string> = {
  json: createRequire(import.meta.url).resolve('@moonrelay/lua/sandbox/dry-run/json.lua'),
};
const readModule = (name: string) =>
  readFileSync(MODULE_FILES[name] ?? new URL(`./${name}.lua`, import.meta.url), 'utf8');

let factory: LuaFactory | undefined;

export class EmulatedGame {
  /** Every output line, in order. */
  readonly log: OutputLine[] = [];
  /** Every HTTP request the game made, in order. */
  readonly requests: HttpExchange[] = [];
  /** Real milliseconds spent running Lua (every frame: steps, deliveries, runs), for benchmarks. */
  luaMs = 0;

  private readonly startedAt = performance.now();
  private frameStartedAt: number | null = null;
  private readonly completed: Delivery[] = [];
  private readonly aborts = new Set<AbortController>();
  private stopped = false;
  private failure: Error | undefined;
  private wakeUp: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private loop: Promise<void> = Promise.resolve();

  private constructor(
    private readonly engine: LuaEngine,
    private readonly control: Control,
    private readonly options: Settings,
  ) {}

  /** Creates the Lua state, runs the emulation prelude, and starts the scheduler. */
  static async start(options: EmulatedGameOptions = {}): Promise<EmulatedGame> {
    const settings: Settings = { timeScale: 1, allowedHosts: ['127.0.0.1'], httpTimeoutMs: 10_000, ...options };
    if (!(settings.timeScale > 0)) throw new RangeError('timeScale must be positive');
    factory ??= new LuaFactory();
    const engine = await factory.createEngine({ injectObjects: false, enableProxy: false });
    // The host functions close over `game`, which exists only once the prelude has answered.
    let game: EmulatedGame | undefined;
    const host = {
      now: () => game?.frameTime() ?? 0,
      emit: (kind: OutputKind, text: string) => game?.emit(kind, text),
      epochMs: () => Date.now(),
      http: (id: number, method: string, url: string, headers: string, body: string) =>
        game?.startRequest(id, method, url, headers, body),
      source: (name: string) => {
        if (!(LUA_MODULES as readonly string[]).includes(name)) throw new Error(`No emulation module ${name}`);
        return readModule(name);
      },
    };
    const gameOptions = {
      jobId: settings.jobId ?? '',
      placeId: settings.placeId ?? 0,
      gameId: settings.gameId ?? 0,
      httpEnabled: settings.httpEnabled ?? true,
      loadStringEnabled: settings.loadStringEnabled ?? true,
      maxRunSeconds: settings.maxRunSeconds ?? 2,
      player: settings.player === undefined ? DEFAULT_PLAYER : settings.player,
      players: settings.players,
      studio: settings.studio ?? false,
      banningEnabled: settings.banningEnabled ?? true,
      banFailures: settings.banFailures ?? {},
    };
    try {
      engine.global.loadString(readModule('roblox-emulation'), '@roblox-emulation.lua');
      engine.global.pushValue(host);
      engine.global.pushValue(JSON.stringify(gameOptions));
      const [control] = engine.global.runSync(2) as unknown as [Control];
      game = new EmulatedGame(engine, control, settings);
    } catch (error) {
      engine.global.close();
      throw error;
    }
    game.loop = game.drive();
    return game;
  }

  /** Emulated seconds since the start. */
  now(): number {
    return (performance.now() - this.startedAt) / 1000 / this.options.timeScale;
  }

  /** Starts a script as a Script in ServerScriptService starts: in its own thread, right away. */
  run(source: string, name = 'ServerScriptService.Script'): void {
    this.assertRunning();
    const compileError = this.call(() => this.control.run(source, name));
    if (compileError) throw new Error(`The script does not compile: ${compileError}`);
    this.wake();
  }

  character(): CharacterState | null {
    this.assertRunning();
    return JSON.parse(this.call(() => this.control.character())) as CharacterState | null;
  }

  setCharacter(changes: Partial<Omit<CharacterState, 'deaths'>>): void {
    this.assertRunning();
    this.call(() => this.control.setCharacter(JSON.stringify(changes)));
  }

  /** A player joins the game (PlayerAdded fires). */
  addPlayer(player: EmulatedPlayer): void {
    this.assertRunning();
    this.call(() => this.control.addPlayer(JSON.stringify(player)));
    this.wake();
  }

  /** A player leaves the game (PlayerRemoving fires; their character goes with them). */
  removePlayer(name: string): void {
    this.assertRunning();
    if (!this.call(() => this.control.removePlayer(name))) throw new Error(`No player named ${name}`);
    this.wake();
  }

  /** What the game's moderation did so far. */
  moderation(): ModerationState {
    this.assertRunning();
    return JSON.parse(this.call(() => this.control.moderation())) as ModerationState;
  }

  /** Switches Players.BanningEnabled. */
  setBanningEnabled(enabled: boolean): void {
    this.assertRunning();
    this.call(() => this.control.setBanningEnabled(enabled));
  }

  /** The text of the output lines, optionally of one kind. */
  output(kind?: OutputKind): string[] {
    return this.log.filter((line) => kind === undefined || line.kind === kind).map((line) => line.text);
  }

  /**
   * Resolves with the value of `predicate` once it is truthy (checked every 10 ms; it may be
   * async). Rejects after `timeoutMs` real milliseconds, or as soon as the emulation itself has
   * failed, with the game's output so far for the diagnosis.
   */
  async waitFor<T>(
    predicate: () => T | undefined | null | false | Promise<T | undefined | null | false>,
    what: string,
    timeoutMs = 5_000,
  ): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (this.failure) throw this.failure;
      const value = await predicate();
      if (value) return value;
      if (performance.now() > deadline) {
        throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}. Output:\n${this.describeOutput()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Waits for an output line matching `pattern` (and of `kind`, if given) and answers it. */
  waitForOutput(pattern: RegExp, timeoutMs = 5_000, kind?: OutputKind): Promise<OutputLine> {
    return this.waitFor(
      () => this.log.find((line) => pattern.test(line.text) && (kind === undefined || line.kind === kind)),
      `output matching ${pattern}`,
      timeoutMs,
    );
  }

  describeOutput(): string {
    return this.log.map((line) => `[${line.time.toFixed(2)} ${line.kind}] ${line.text}`).join('\n');
  }

  /** Ends the game: no thread runs again, requests in flight are aborted, the Lua state is closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const controller of this.aborts) controller.abort();
    this.wake();
    await this.loop;
    if (!this.engine.global.isClosed()) this.engine.global.close();
  }

  /** The scheduler loop: deliver finished requests, resume due sleepers, then sleep until needed. */
  private async drive(): Promise<void> {
    while (!this.stopped) {
      try {
        for (const delivery of this.completed.splice(0)) this.deliver(delivery);
        const nextWake = this.call(() => this.control.step());
        await this.idle(nextWake);
      } catch (error) {
        // A failure of the emulation itself (not a script error, which the scheduler prints):
        // the game stops and every waitFor reports it.
        this.failure = error instanceof Error ? error : new Error(String(error));
        this.stopped = true;
      }
    }
    clearTimeout(this.timer);
  }

  private idle(nextWake: number): Promise<void> {
    if (this.stopped || this.completed.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.wakeUp = resolve;
      if (nextWake >= 0) {
        const delayMs = Math.max(0, (nextWake - this.now()) * this.options.timeScale * 1000);
        this.timer = setTimeout(() => this.wake(), delayMs);
      }
    });
  }

  private wake(): void {
    clearTimeout(this.timer);
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    wakeUp?.();
  }

  /**
   * Every entry into Lua (a step, a delivery, a run) is one frame: the game's clock (task.wait,
   * os.clock, tick) reads the time the frame started, however long its Lua code takes in real time,
   * so wake order and measured gaps follow the script's own delays, never how busy the machine was.
   */
  private call<T>(fn: () => T): T {
    if (this.failure) throw this.failure;
    if (this.frameStartedAt !== null) return fn();
    const startedAt = performance.now();
    this.frameStartedAt = this.now();
    try {
      return fn();
    } finally {
      this.frameStartedAt = null;
      this.luaMs += performance.now() - startedAt;
    }
  }

  /** The game's clock: the start of the current frame (or now, outside one). */
  frameTime(): number {
    return this.frameStartedAt ?? this.now();
  }

  private assertRunning(): void {
    if (this.failure) throw this.failure;
    if (this.stopped) throw new Error('The emulated game has stopped');
  }

  private emit(kind: OutputKind, text: string): void {
    this.log.push({ kind, text, time: this.frameTime() });
    if (this.options.echo) console.warn(`[game ${kind}] ${text}`);
  }

  /** Hands an answer to the waiting thread, which runs until it waits again. */
  private deliver({ id, exchange, answer }: Delivery): void {
    exchange.answeredAt = this.now();
    if (answer[0]) {
      exchange.status = answer[1];
      exchange.responseHeaders = JSON.parse(answer[3]) as Record<string, string>;
      exchange.responseBody = answer[4];
    } else {
      exchange.error = answer[1];
    }
    this.call(() => this.control.deliver(id, ...answer));
  }

  private startRequest(id: number, method: string, url: string, headersJson: string, body: string): void {
    const exchange: HttpExchange = {
      method,
      url,
      body,
      sentAt: this.frameTime(),
      answeredAt: null,
      status: null,
      responseHeaders: null,
      responseBody: null,
      error: null,
    };
    this.requests.push(exchange);
    void this.fetchAnswer(exchange, headersJson).then((answer) => {
      if (this.stopped) return;
      this.completed.push({ id, exchange, answer });
      this.wake();
    });
  }

  /** Does the request; answers what deliver() takes after the id. Never rejects. */
  private async fetchAnswer(exchange: HttpExchange, headersJson: string): Promise<Answer> {
    const fail = (message: string): Answer => [false, message];
    let url: URL;
    try {
      url = new URL(exchange.url);
    } catch {
      return fail('HttpError: InvalidUrl');
    }
    if (!this.options.allowedHosts.includes(url.hostname)) {
      return fail(`HttpError: DnsResolve (the emulation reaches only ${this.options.allowedHosts.join(', ')})`);
    }
    const controller = new AbortController();
    this.aborts.add(controller);
    try {
      // Lua encodes an empty header table as [], which has no entries either.
      const headers = Object.fromEntries(Object.entries(JSON.parse(headersJson) as Record<string, string>));
      const response = await fetch(url, {
        method: exchange.method,
        headers,
        body: exchange.method === 'GET' || exchange.method === 'HEAD' ? undefined : exchange.body,
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(this.options.httpTimeoutMs)]),
      });
      const text = await response.text();
      return [true, response.status, response.statusText, JSON.stringify(Object.fromEntries(response.headers)), text];
    } catch (error) {
      return fail(httpErrorMessage(error));
    } finally {
      this.aborts.delete(controller);
    }
  }
}

/** Roblox's names for network failures, as RequestAsync raises them. */
function httpErrorMessage(error: unknown): string {
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError') return 'HttpError: Timedout';
  if (name === 'AbortError') return 'HttpError: Aborted';
  const code = (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED') return 'HttpError: ConnectFail';
  return `HttpError: NetFail (${code ?? (error instanceof Error ? error.message : String(error))})`;
}

export const startEmulatedGame = (options?: EmulatedGameOptions) => EmulatedGame.start(options);
