import { printableText } from '@moonrelay/contract/common';
import type { ConsoleLevel, ConsoleLineIn } from '@moonrelay/contract/console';
import {
  BASE_WALK_SPEED,
  CONSOLE_BATCH_MAX_BYTES,
  CONSOLE_BATCH_MAX_LINES,
  GAME_PING_MAX_RESULTS,
} from '@moonrelay/contract/constants';
import type { DryRunSummary } from '@moonrelay/contract/executions';
import type {
  CommandResult,
  DeliveredCommand,
  GamePingRequest,
  GamePingResponse,
  PlayerData,
  Position,
} from '@moonrelay/contract/game';
import type { RosterReport } from '@moonrelay/contract/players';
import { SIMULATED_PLAYER, SIMULATOR_ERRORS, type SimulatorStopReason } from '@moonrelay/contract/simulator';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import type { SandboxOutcome, SandboxRunner } from '../executions/executions.service.ts';
import { NO_RESULT_ERROR } from '../game/commands.service.ts';

/**
 * One simulated game server: a client of the game link protocol (docs/protocol.md) that Moonrelay
 * runs for a user, pinging its own ping route over HTTP with the user's game key, as the shipped
 * integration script does from Roblox (lua/integration/game-integration.lua): long-polls of 2 s,
 * the next ping at once after commands, backoff after failures, Retry-After with jitter when busy.
 * It reports one player, runs the code it is sent in the sandbox's dry-run emulation (a fresh
 * emulated game per run, docs/decisions/019) and answers the built-in commands as the script would
 * from a game with one player in it. docs/decisions/045 says what it is and is not.
 */

export interface SimulatedServerStop {
  reason: SimulatorStopReason;
  atMs: number;
  error: string | null;
}

export interface SimulatedServerOptions {
  /** The ping route of this Moonrelay, over loopback: http://127.0.0.1:<port>/api/game/ping. */
  pingUrl: string;
  /** The user's game key (the integration key). */
  key: string;
  userId: string;
  serverId: string;
  durationMs: number;
  sandbox: SandboxRunner;
  logger: Logger;
  /** Long-poll seconds each ping asks for: the shipped script's pingInterval. */
  waitSeconds?: number;
  /** A ping starts at least this long after the previous one, unless commands came (the script's 2 s). */
  pingIntervalMs?: number;
  /** Called once, after its last ping. */
  onStopped(stop: SimulatedServerStop): void;
}

export interface SimulatedServer {
  readonly startedAtMs: number;
  readonly endsAtMs: number;
  /** Resolves once its first ping is accepted; rejects with why the route refused it. */
  readonly connected: Promise<void>;
  /** Resolves after its last ping. */
  readonly done: Promise<SimulatedServerStop>;
  /** Asks it to stop: it finishes the ping in flight, sends a last one and resolves with how it stopped. */
  stop(reason: SimulatorStopReason): Promise<SimulatedServerStop>;
  /** Pings the route accepted so far. */
  pings(): number;
  /** Resolves once the route has accepted `count` of its pings, or it stopped: with the number accepted. */
  whenPinged(count: number): Promise<number>;
}

const SPAWN: Position = { x: 0, y: 5, z: 0 };
const MAX_HEALTH = 100;
/** It joins hurt, so that Heal shows: 75 of 100 becomes 100 of 100. */
const START_HEALTH = 75;
/** Roblox's Players.RespawnTime: a reset character comes back this long after. */
const RESPAWN_MS = 5_000;
/** The script's quickest pace: pings start at least this far apart, commands or not. */
const MIN_PING_GAP_MS = 250;
const BACKOFF_MAX_MS = 60_000;
/** The script's numbers: text kept of an output or error, console lines it holds, a line's text. */
const MAX_TEXT_CHARS = 60_000;
const CONSOLE_BUFFER_LINES = 1_000;
const CONSOLE_TEXT_CHARS = 1_980;
/** Lines of one run's output also printed to the console (all of it is in the run's result). */
const RUN_LINES_TO_CONSOLE = 50;
/** A ping's results' JSON, as the script budgets it (RESULTS_BYTES_PER_PING). */
const RESULTS_BYTES_PER_PING = 512 * 1024;
/** Command ids remembered so a command delivered again is answered, not run again. */
const REMEMBERED_IDS = 500;
/** Its first ping (the start's answer waits for it) and its last one wait no longer than these. */
const FIRST_PING_TIMEOUT_MS = 10_000;
const LAST_PING_TIMEOUT_MS = 3_000;
const OWN = '[Moonrelay] ';

const STOPPING: Record<SimulatorStopReason, string> = {
  'time-up': 'its time is up',
  stopped: 'stopped from the dashboard',
  shutdown: 'Moonrelay is shutting down',
  refused: 'its pings are refused',
};

type PingOutcome =
  | { kind: 'ok'; commands: DeliveredCommand[] }
  | { kind: 'refused' | 'busy' | 'failed'; status: number; error: string; retryAfterSeconds?: number };

/** A command's outcome before its duration is known. */
type Outcome = Omit<CommandResult, 'id' | 'durationMs'>;

const minutes = (ms: number) => Math.max(1, Math.round(ms / 60_000));
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}... (cut)` : text);

export function startSimulatedServer(options: SimulatedServerOptions): SimulatedServer {
  const { pingUrl, key, userId, serverId, sandbox, logger } = options;
  const waitSeconds = options.waitSeconds ?? 2;
  const intervalMs = options.pingIntervalMs ?? 2_000;
  const startedAtMs = Date.now();
  const endsAtMs = startedAtMs + options.durationMs;
  const log = logger.child({ userId, serverId, simulated: true });

  const player = {
    present: true,
    position: { ...SPAWN },
    health: START_HEALTH,
    maxHealth: MAX_HEALTH,
    walkSpeed: BASE_WALK_SPEED,
  };
  const outbox: CommandResult[] = [];
  const ran = new Map<string, CommandResult>();
  let lines: ConsoleLineIn[] = [];
  let dropped = 0;
  /** Whether the roster Moonrelay holds has the player; null: send it whole (first ping, or asked). */
  let rosterHeld: boolean | null = null;
  let accepted = 0;
  let pingWaiters: { count: number; resolve: (accepted: number) => void }[] = [];
  const tellPings = (all = false) => {
    const due = pingWaiters.filter((waiter) => all || waiter.count <= accepted);
    pingWaiters = pingWaiters.filter((waiter) => !due.includes(waiter));
    for (const waiter of due) waiter.resolve(accepted);
  };
  let stopRequest: { reason: SimulatorStopReason; error: string | null } | undefined;
  let inFlight: AbortController | undefined;
  let stopped = false;
  let wake: (() => void) | undefined;
  const timers = new Set<NodeJS.Timeout>();
  const cancel = (timer: NodeJS.Timeout) => {
    clearTimeout(timer);
    timers.delete(timer);
  };
  /** A timer that never holds the process open, and is cleared when the server stops. */
  const later = (ms: number, work: () => void, repeat = false) => {
    const timer: NodeJS.Timeout = repeat
      ? setInterval(work, ms)
      : setTimeout(() => {
          timers.delete(timer);
          work();
        }, ms);
    timer.unref();
    timers.add(timer);
    return timer;
  };

  function print(level: ConsoleLevel, text: string, extra: Pick<ConsoleLineIn, 'own' | 'commandId'> = {}): void {
    lines.push({ time: Date.now(), level, text: cut(printableText(text), CONSOLE_TEXT_CHARS), ...extra });
    // As the script does past its buffer: the oldest line goes and is counted as dropped.
    if (lines.length > CONSOLE_BUFFER_LINES) {
      lines.shift();
      dropped += 1;
    }
  }
  const say = (text: string, commandId?: string) =>
    print('info', OWN + text, { own: true, ...(commandId ? { commandId } : {}) });

  function playerData(): PlayerData | undefined {
    if (!player.present) return undefined;
    return {
      playerName: SIMULATED_PLAYER.name,
      userId: SIMULATED_PLAYER.userId,
      position: { ...player.position },
      health: player.health,
      maxHealth: player.maxHealth,
      walkSpeed: player.walkSpeed,
    };
  }

  function roster(): RosterReport {
    const me = {
      userId: SIMULATED_PLAYER.userId,
      name: SIMULATED_PLAYER.name,
      displayName: SIMULATED_PLAYER.displayName,
    };
    const count = player.present ? 1 : 0;
    if (rosterHeld === null) return { count, players: player.present ? [me] : [] };
    if (rosterHeld === player.present) return { count };
    return player.present ? { count, joined: [me] } : { count, left: [me.userId] };
  }

  /** Results oldest first while they fit the ping's budget (at least one). */
  function takeResults(): CommandResult[] {
    const taken: CommandResult[] = [];
    let bytes = 0;
    while (outbox.length && taken.length < GAME_PING_MAX_RESULTS) {
      const size = Buffer.byteLength(JSON.stringify(outbox[0]));
      if (taken.length && bytes + size > RESULTS_BYTES_PER_PING) break;
      bytes += size;
      taken.push(outbox.shift()!);
    }
    return taken;
  }

  function takeLines(): ConsoleLineIn[] {
    let bytes = 0;
    let count = 0;
    for (const line of lines) {
      const size = Buffer.byteLength(line.text) + 100;
      if (count === CONSOLE_BATCH_MAX_LINES || bytes + size > CONSOLE_BATCH_MAX_BYTES) break;
      bytes += size;
      count += 1;
    }
    const taken = lines.slice(0, count);
    lines = lines.slice(count);
    return taken;
  }

  async function ping(wait: number, timeoutMs?: number): Promise<PingOutcome> {
    const results = takeResults();
    const sentLines = takeLines();
    const sentDropped = dropped;
    dropped = 0;
    const presentWhenSent = player.present;
    const data = playerData();
    const body: GamePingRequest = {
      key,
      serverId,
      ...(data ? { playerData: data } : {}),
      ...(results.length ? { results } : {}),
      ...(wait ? { wait } : {}),
      ...(sentLines.length || sentDropped
        ? { console: { lines: sentLines, ...(sentDropped ? { dropped: sentDropped } : {}) } }
        : {}),
      roster: roster(),
    };
    const giveBack = () => {
      outbox.unshift(...results);
      lines.unshift(...sentLines);
      dropped += sentDropped;
    };
    const controller = new AbortController();
    inFlight = controller;
    const timeout = timeoutMs === undefined ? undefined : setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    let answer: Partial<GamePingResponse> & { error?: unknown };
    try {
      response = await fetch(pingUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      answer = (await response.json().catch(() => ({}))) as typeof answer;
    } catch (error) {
      giveBack();
      return { kind: 'failed', status: 0, error: error instanceof Error ? error.message : String(error) };
    } finally {
      inFlight = undefined;
      clearTimeout(timeout);
    }
    if (response.ok) {
      accepted += 1;
      tellPings();
      rosterHeld = answer.rosterWanted ? null : presentWhenSent;
      return { kind: 'ok', commands: answer.commands ?? [] };
    }
    const error = typeof answer.error === 'string' ? answer.error : `HTTP ${response.status}`;
    const status = response.status;
    if (status === 400 || status === 413) {
      // Refused for what it carried: as the script does, those results and lines are not sent again.
      dropped += sentLines.length + sentDropped;
      rosterHeld = null;
      return { kind: 'failed', status, error };
    }
    giveBack();
    if (status === 401 || status === 403) return { kind: 'refused', status, error };
    const retryAfter = Number(response.headers.get('retry-after'));
    if (status === 429 || status === 503) {
      return { kind: 'busy', status, error, ...(retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}) };
    }
    return { kind: 'failed', status, error };
  }

  function characterProblem(): string | null {
    if (!player.present) return 'No player is in the game';
    return null;
  }

  function numberField(data: Record<string, unknown>, name: string): number {
    const value = Number(data[name]);
    if (data[name] === null || data[name] === undefined || !Number.isFinite(value)) {
      throw new Error(`${name} must be a number`);
    }
    return value;
  }

  /** The integration script's handlers (game-integration.lua), on this server's one player. */
  function builtIn(command: DeliveredCommand): string {
    const { data } = command;
    switch (command.type) {
      case 'teleport': {
        const [x, y, z] = [numberField(data, 'x'), numberField(data, 'y'), numberField(data, 'z')];
        const problem = characterProblem();
        if (problem) throw new Error(problem);
        player.position = { x, y, z };
        return `Teleported to ${x}, ${y}, ${z}`;
      }
      case 'heal': {
        const problem = characterProblem();
        if (problem) throw new Error(problem);
        player.health = player.maxHealth;
        return `Healed to ${player.health}`;
      }
      case 'speed': {
        const problem = characterProblem();
        if (problem) throw new Error(problem);
        player.walkSpeed =
          data.speed !== undefined ? numberField(data, 'speed') : BASE_WALK_SPEED * numberField(data, 'multiplier');
        return `Walk speed set to ${player.walkSpeed}`;
      }
      case 'reset': {
        const problem = characterProblem();
        if (problem) throw new Error(problem);
        player.health = 0;
        // As in Roblox, a new character spawns after the respawn time: full health, default speed.
        later(RESPAWN_MS, () => {
          if (!player.present || player.health !== 0) return;
          Object.assign(player, { position: { ...SPAWN }, health: player.maxHealth, walkSpeed: BASE_WALK_SPEED });
        });
        return 'Character reset';
      }
      case 'kick':
      case 'warn': {
        const target = numberField(data, 'userId');
        if (!player.present || target !== SIMULATED_PLAYER.userId) {
          throw new Error(`Player ${target} is not on this server`);
        }
        if (command.type === 'warn') return `Warned ${SIMULATED_PLAYER.name}`;
        player.present = false;
        say(`${SIMULATED_PLAYER.name} was kicked and left the simulated game server.`);
        return `Kicked ${SIMULATED_PLAYER.name}`;
      }
      default:
        throw new Error(`Unknown command type: ${command.type}`);
    }
  }

  /** Code runs in a fresh dry run; its output is the result, and is printed to the console too. */
  async function runCode(command: DeliveredCommand): Promise<Outcome> {
    let outcome: SandboxOutcome;
    try {
      outcome = await sandbox.run(userId, String(command.data.code ?? ''), 'dry-run');
    } catch (error) {
      // A full sandbox answers busy (503): the run fails saying so, as a game's error would.
      const message = error instanceof Error ? error.message : String(error);
      print('error', message, { commandId: command.id });
      return { success: false, output: '', error: message };
    }
    const output = cut(printableText(outcome.output), MAX_TEXT_CHARS);
    const error = outcome.success ? null : cut(printableText(outcome.error ?? 'The script failed'), MAX_TEXT_CHARS);
    const outputLines = output.split('\n');
    if (outputLines.at(-1) === '') outputLines.pop();
    for (const line of outputLines.slice(0, RUN_LINES_TO_CONSOLE)) {
      const warning = line.startsWith('warning: ');
      print(warning ? 'warning' : 'output', warning ? line.slice('warning: '.length) : line, { commandId: command.id });
    }
    if (outputLines.length > RUN_LINES_TO_CONSOLE) {
      say(`${outputLines.length - RUN_LINES_TO_CONSOLE} more lines of that run are in its output (Runs).`, command.id);
    }
    if (error) print('error', error, { commandId: command.id });
    say(dryRunNote(outcome), command.id);
    return { success: outcome.success, output, error };
  }

  async function run(command: DeliveredCommand): Promise<void> {
    const earlier = ran.get(command.id);
    if (earlier) {
      // Delivered again (its result was lost): answered again, not run again.
      outbox.push(earlier);
      return;
    }
    const started = performance.now();
    let outcome: Outcome;
    if (command.type === 'execute' || command.type === 'script') {
      outcome = await runCode(command);
    } else if (command.type === 'ban' || command.type === 'unban') {
      // Roblox's ban API is not here to call. Answered as a game that never reported: moderation
      // puts its players back to waiting, for a real game server (or Open Cloud) to apply.
      outcome = { success: false, output: '', error: NO_RESULT_ERROR };
    } else {
      try {
        outcome = { success: true, output: builtIn(command), error: null };
      } catch (error) {
        outcome = { success: false, output: '', error: error instanceof Error ? error.message : String(error) };
      }
    }
    const result: CommandResult = { id: command.id, ...outcome, durationMs: Math.round(performance.now() - started) };
    ran.set(command.id, result);
    if (ran.size > REMEMBERED_IDS) ran.delete(ran.keys().next().value!);
    outbox.push(result);
  }

  /** Built-in commands apply at once, in order; code runs side by side, each run in its own dry run. */
  const runAll = (commands: DeliveredCommand[]) => Promise.all(commands.map(run));

  function sleepUntil(ms: number): Promise<void> {
    const wait = ms - Date.now();
    if (wait <= 0 || stopRequest) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = later(wait, () => {
        wake = undefined;
        resolve();
      });
      wake = () => {
        cancel(timer);
        wake = undefined;
        resolve();
      };
    });
  }

  function requestStop(reason: SimulatorStopReason, error: string | null = null): void {
    stopRequest ??= { reason, error };
    wake?.();
    // Shutting down: the ping in flight is not waited for (the instance is closing its sockets).
    if (reason === 'shutdown') inFlight?.abort();
  }

  /** The first ping, plain (answered at once): the commands it brought, or why it was refused. */
  const firstPing = (async () => {
    print('output', `Hello from a simulated game server! ${SIMULATED_PLAYER.name} joined.`);
    say(
      `This is a simulated game server, not Roblox: code sent to it runs in Moonrelay's dry-run emulation, a fresh emulated game each run. It stops by itself in ${plural(minutes(options.durationMs), 'minute', 'minutes')}.`,
    );
    const first = await ping(0, FIRST_PING_TIMEOUT_MS);
    if (first.kind === 'ok') {
      log.info('simulated game server connected');
      return first.commands;
    }
    // Answered to the person who pressed the button: a 429 (the key's budget) as it is, with when to
    // try again; anything else is Moonrelay's own trouble, 503 (never a 401, which would sign them out).
    if (first.status === 0) throw new AppError(503, SIMULATOR_ERRORS.unavailable);
    const retryAfter = first.kind === 'busy' ? { 'Retry-After': String(first.retryAfterSeconds ?? 5) } : undefined;
    throw new AppError(first.status === 429 ? 429 : 503, `${SIMULATOR_ERRORS.refused}: ${first.error}`, {
      ...(retryAfter ? { headers: retryAfter } : {}),
    });
  })();
  const connected = firstPing.then(() => undefined);

  const done = (async (): Promise<SimulatedServerStop> => {
    let commands: DeliveredCommand[];
    try {
      commands = await firstPing;
    } catch (error) {
      return { reason: 'refused', atMs: Date.now(), error: error instanceof Error ? error.message : String(error) };
    }
    later(Math.max(0, endsAtMs - Date.now()), () => requestStop('time-up'));
    await runAll(commands);
    later(
      60_000,
      () => {
        const left = endsAtMs - Date.now();
        if (left >= 30_000) say(`Simulated game server: ${plural(minutes(left), 'minute', 'minutes')} left.`);
      },
      true,
    );
    let lastStartMs = startedAtMs;
    let hurry = outbox.length > 0;
    let failures = 0;
    let retryAtMs = 0;
    while (!stopRequest) {
      await sleepUntil(retryAtMs || lastStartMs + (hurry ? MIN_PING_GAP_MS : intervalMs));
      if (stopRequest) break;
      lastStartMs = Date.now();
      retryAtMs = 0;
      const outcome = await ping(waitSeconds);
      if (outcome.kind === 'ok') {
        failures = 0;
        await runAll(outcome.commands);
        // Results go at once on the next ping, which is held for the next commands.
        hurry = outcome.commands.length > 0 || outbox.length > 0;
        continue;
      }
      if (outcome.kind === 'refused') {
        requestStop('refused', outcome.error);
        break;
      }
      failures += 1;
      hurry = false;
      const busyFor = outcome.kind === 'busy' ? outcome.retryAfterSeconds : undefined;
      retryAtMs =
        busyFor !== undefined
          ? Date.now() + Math.max(busyFor * 1000, intervalMs) * (1 + Math.random())
          : Date.now() + Math.min(BACKOFF_MAX_MS, intervalMs * 2 ** (failures - 1));
      log.debug({ status: outcome.status, error: outcome.error }, 'simulated game server ping failed');
    }
    const { reason, error } = stopRequest!;
    if (reason !== 'refused') {
      // Its player leaves with it, so Players shows them gone at once; presence sees the server go
      // once its last ping is 10 s old, as for any game server that shuts down.
      player.present = false;
      say(`Simulated game server stopping: ${STOPPING[reason]}. ${SIMULATED_PLAYER.name} left.`);
      await ping(0, LAST_PING_TIMEOUT_MS);
    }
    return { reason, atMs: Date.now(), error };
  })().then((stop) => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    log.info({ reason: stop.reason, pings: accepted, error: stop.error }, 'simulated game server stopped');
    options.onStopped(stop);
    tellPings(true);
    return stop;
  });
  // A refused first ping is answered by `connected`; nobody else need hear of it.
  connected.catch(() => undefined);

  return {
    startedAtMs,
    endsAtMs,
    connected,
    done,
    stop(reason) {
      requestStop(reason);
      return done;
    },
    pings: () => accepted,
    whenPinged(count) {
      if (accepted >= count || stopped) return Promise.resolve(accepted);
      return new Promise((resolve) => pingWaiters.push({ count, resolve }));
    },
  };
}

/** "That run was a dry run ...": what the emulated game saw it do. */
function dryRunNote(outcome: SandboxOutcome): string {
  const took = `${Math.round(outcome.durationMs)} ms`;
  if (outcome.limit) return `That run was a dry run, stopped by the sandbox's ${outcome.limit} limit after ${took}.`;
  const summary: DryRunSummary | null | undefined = outcome.dryRun;
  if (!summary) return `That run was a dry run in the emulated game (${took}).`;
  const counts = (list: DryRunSummary['created']) => list.map((item) => `${item.className} ×${item.count}`).join(', ');
  const parts = [
    ...(summary.created.length ? [`created ${counts(summary.created)}`] : []),
    ...(summary.destroyed.length ? [`destroyed ${counts(summary.destroyed)}`] : []),
    ...(summary.propertiesSet ? [`set ${plural(summary.propertiesSet, 'property', 'properties')}`] : []),
  ];
  const seconds = summary.gameSeconds
    ? `, ${plural(Math.round(summary.gameSeconds * 10) / 10, 'game second', 'game seconds')}`
    : '';
  return `That run was a dry run in the emulated game (${took}${seconds}): ${parts.length ? parts.join('; ') : 'it changed nothing in the game'}.`;
}
