import type { CommandResult, DeliveredCommand, GamePingResponse, PlayerData, Position } from '@moonrelay/contract/game';
import { BASE_WALK_SPEED } from '@moonrelay/contract/constants';
import { runLua } from '@moonrelay/sandbox/sandbox/run-lua';

/**
 * A game server speaking the game link protocol over real HTTP, for tests and benchmarks: it pings
 * with its player's data, applies the commands it receives to that player, runs execute/script
 * code in a real Lua state (the sandbox's), and reports results on its next ping, skipping ids it
 * has already run (docs/protocol.md). Nothing here knows the server's internals.
 */
export interface SimulatedGameOptions {
  url: string;
  key: string;
  serverId?: string;
  playerName?: string;
  userId?: number;
  gameId?: number;
  /** Long-poll seconds sent with every ping (0: plain pings). */
  wait?: number;
}

export interface PingOutcome {
  status: number;
  body: GamePingResponse | { error: string };
  commands: DeliveredCommand[];
  /** A refusal's Retry-After, in seconds (a connect shed while Moonrelay is busy). */
  retryAfterSeconds?: number;
}

export class SimulatedGame {
  readonly options: Required<Omit<SimulatedGameOptions, 'wait'>> & { wait: number };
  position: Position = { x: 0, y: 5, z: 0 };
  health = 100;
  maxHealth = 100;
  walkSpeed = BASE_WALK_SPEED;
  /** Every command received, in order, including repeats. */
  readonly received: DeliveredCommand[] = [];
  /** Ids run at least once, with the result reported for them. */
  readonly ran = new Map<string, CommandResult>();
  /** Results waiting for the next ping. */
  private outbox: CommandResult[] = [];
  private loop: { stop: boolean; done: Promise<void> } | undefined;
  /** Each BanAsync call this game made (user ids), in order: a Roblox ban applied once per entry. */
  readonly banCalls: number[][] = [];
  readonly unbanCalls: number[][] = [];
  /** Kick and warning messages, with the player they went to. */
  readonly told: { type: 'kick' | 'warn'; userId: number; message: string }[] = [];
  /** The last error the loop met (a refused key, the server gone). */
  lastError: string | undefined;

  constructor(options: SimulatedGameOptions) {
    this.options = {
      serverId: 'sim-server-1',
      playerName: 'SimPlayer',
      userId: 1,
      gameId: 4242,
      wait: 0,
      ...options,
    };
  }

  playerData(): PlayerData {
    return {
      playerName: this.options.playerName,
      userId: this.options.userId,
      placeId: this.options.gameId,
      gameId: this.options.gameId,
      universeId: this.options.gameId,
      position: { ...this.position },
      health: this.health,
      maxHealth: this.maxHealth,
      walkSpeed: this.walkSpeed,
    };
  }

  /**
   * The first ping as the shipped script makes it: a connect Moonrelay sheds while it is busy (503
   * with Retry-After, docs/protocol.md) is made again once that time has passed.
   */
  async connect(options: { wait?: number } = {}): Promise<PingOutcome> {
    for (;;) {
      const outcome = await this.ping(options);
      if (outcome.status !== 503 || outcome.retryAfterSeconds === undefined) return outcome;
      await new Promise((resolve) => setTimeout(resolve, outcome.retryAfterSeconds! * 1000));
    }
  }

  /** One ping: reports pending results, then runs what came back (unless `run` is false: a "crash"). */
  async ping(options: { wait?: number; run?: boolean; signal?: AbortSignal } = {}): Promise<PingOutcome> {
    const results = this.outbox;
    this.outbox = [];
    const wait = options.wait ?? this.options.wait;
    let response: Response;
    let body: PingOutcome['body'];
    try {
      response = await fetch(`${this.options.url}/api/game/ping`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          key: this.options.key,
          serverId: this.options.serverId,
          playerData: this.playerData(),
          ...(results.length ? { results } : {}),
          ...(wait ? { wait } : {}),
        }),
        signal: options.signal,
      });
      body = (await response.json()) as PingOutcome['body'];
    } catch (error) {
      // No answer (the instance went away mid-request): the results go again with the next ping.
      this.outbox.unshift(...results);
      throw error;
    }
    if (!response.ok) {
      this.outbox.unshift(...results);
      const retryAfter = Number(response.headers.get('retry-after'));
      return {
        status: response.status,
        body,
        commands: [],
        ...(retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
      };
    }
    const commands = (body as GamePingResponse).commands;
    this.received.push(...commands);
    if (options.run !== false) for (const command of commands) await this.run(command);
    return { status: response.status, body, commands };
  }

  /** Runs a command once; a repeat is not run again, but its result is reported again. */
  async run(command: DeliveredCommand): Promise<void> {
    const earlier = this.ran.get(command.id);
    if (earlier) {
      this.outbox.push(earlier);
      return;
    }
    const started = performance.now();
    let result: CommandResult;
    try {
      const output = await this.apply(command);
      result = { id: command.id, success: true, output, error: null };
    } catch (error) {
      result = {
        id: command.id,
        success: false,
        output: '',
        error: error instanceof Error ? error.message : String(error),
      };
    }
    result.durationMs = Math.round(performance.now() - started);
    this.ran.set(command.id, result);
    this.outbox.push(result);
  }

  private async apply(command: DeliveredCommand): Promise<string> {
    const data = command.data;
    switch (command.type) {
      case 'teleport':
        this.position = { x: Number(data.x), y: Number(data.y), z: Number(data.z) };
        return '';
      case 'heal':
        this.health = this.maxHealth;
        return '';
      case 'speed':
        this.walkSpeed = typeof data.speed === 'number' ? data.speed : BASE_WALK_SPEED * Number(data.multiplier);
        return '';
      case 'reset':
        this.health = 0;
        return '';
      case 'execute':
      case 'script': {
        const outcome = await runLua(String(data.code));
        if (!outcome.success) throw new Error(outcome.error ?? 'the script failed');
        return outcome.output;
      }
      // Moderation (docs/protocol.md, "Moderation"): every player applied, reported as the script does.
      case 'ban':
      case 'unban': {
        const userIds = (data.userIds as number[]).slice();
        (command.type === 'ban' ? this.banCalls : this.unbanCalls).push(userIds);
        return JSON.stringify({ applied: userIds, failed: {} });
      }
      case 'kick':
      case 'warn':
        this.told.push({ type: command.type, userId: Number(data.userId), message: String(data.message) });
        return '';
    }
  }

  /** Pings in a loop until stopped (every `intervalMs`, or back to back when long-polling). */
  start(intervalMs = 2_000): void {
    if (this.loop) return;
    const loop = { stop: false, done: Promise.resolve() };
    const controller = new AbortController();
    loop.done = (async () => {
      while (!loop.stop) {
        try {
          const outcome = await this.ping({ signal: controller.signal });
          this.lastError = outcome.status === 200 ? undefined : (outcome.body as { error: string }).error;
        } catch (error) {
          if (loop.stop) break;
          this.lastError = error instanceof Error ? error.message : String(error);
        }
        if (!this.options.wait) await sleep(intervalMs, () => loop.stop);
      }
    })();
    this.stopController = controller;
    this.loop = loop;
  }

  private stopController: AbortController | undefined;

  async stop(): Promise<void> {
    if (!this.loop) return;
    this.loop.stop = true;
    this.stopController?.abort();
    await this.loop.done;
    this.loop = undefined;
  }
}

/** Sleeps in short steps so a stop is noticed quickly. */
async function sleep(ms: number, stopped: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  while (!stopped() && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, until - Date.now())));
  }
}
