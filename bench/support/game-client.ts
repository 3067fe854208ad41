/**
 * A lean game-link client for the game benchmark: JSON POSTs over a keep-alive node:http Agent, and
 * a game server that speaks the protocol (docs/protocol.md) like server/test/simulated-game.ts does
 * (player data up, commands down, results on the next ping, repeats skipped), but records exactly
 * when each command arrived and never loads the Lua sandbox, so thousands of them stay cheap.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandResult, DeliveredCommand, GamePingResponse, PlayerData } from '@moonrelay/contract/game';

export interface HttpAnswer {
  status: number;
  text: string;
}

export interface PostOptions {
  timeoutMs: number;
  token?: string;
  signal?: AbortSignal;
}

/** One POST of a JSON body; rejects on a network error, a timeout or an abort (any status resolves). */
export function postJson(agent: http.Agent, url: URL, payload: string, options: PostOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        signal: options.signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(payload);
  });
}

/**
 * A keep-alive agent that never makes a request wait for a socket (up to `maxSockets` at once).
 * Idle sockets are closed after 4 s, before the server's 5 s keep-alive timeout, so a request is
 * never written to a socket the server is closing (ECONNRESET). Node's agent would honour the
 * server's Keep-Alive hint only with a `timeout` set; on a request in flight it merely emits
 * 'timeout', which nothing here acts on (long-polls are held for 20 s).
 */
export function keepAliveAgent(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, timeout: 4_000 });
}

/** What a Roblox game reports about its first player (the shape of the integration script's ping). */
export function playerData(playerName: string, robloxUserId: number, gameId: number, step: number): PlayerData {
  return {
    playerName,
    userId: robloxUserId,
    placeId: gameId,
    gameId,
    universeId: gameId,
    position: { x: Math.round(Math.sin(step / 7) * 1000) / 10, y: 5, z: Math.round(Math.cos(step / 7) * 1000) / 10 },
    health: 100,
    maxHealth: 100,
    walkSpeed: 16,
  };
}

/** The body of one ping, as the integration script sends it. */
export function pingBody(
  key: string,
  serverId: string,
  data: PlayerData,
  results: CommandResult[] = [],
  wait = 0,
): string {
  return JSON.stringify({
    key,
    serverId,
    playerData: data,
    ...(results.length ? { results } : {}),
    ...(wait ? { wait } : {}),
  });
}

const PING_TIMEOUT_MS = 10_000;

/**
 * One game server. `startLoop()` pings like the shipped script (ping, then wait `intervalMs`), or,
 * with `wait` > 0, long-polls (a new ping as soon as the previous one answers). Each command's
 * arrival time (performance.now()) is kept, so a caller can measure send-to-game latency.
 */
export class BenchGame {
  private readonly url: URL;
  private outbox: CommandResult[] = [];
  private readonly arrivals = new Map<string, number>();
  private readonly waiters = new Map<string, (at: number) => void>();
  private step = 0;
  private loop: { controller: AbortController; done: Promise<void> } | undefined;
  /** Pings answered with something other than 200, or that failed; the loops keep going. */
  errors = 0;
  lastError: string | undefined;

  constructor(
    private readonly agent: http.Agent,
    base: string,
    readonly key: string,
    readonly serverId: string = crypto.randomUUID(),
    private readonly wait = 0,
  ) {
    this.url = new URL('/api/game/ping', base);
  }

  /** One ping (`wait` 0: a plain one, whatever the game's mode); what it brings is taken. */
  async ping(signal?: AbortSignal, wait = this.wait): Promise<HttpAnswer> {
    const results = this.outbox;
    this.outbox = [];
    const body = pingBody(this.key, this.serverId, playerData('BenchPlayer', 156, 1818, this.step++), results, wait);
    let answer: HttpAnswer;
    try {
      answer = await postJson(this.agent, this.url, body, {
        timeoutMs: PING_TIMEOUT_MS + wait * 1000,
        signal,
      });
    } catch (error) {
      this.outbox.unshift(...results);
      throw error;
    }
    const arrivedAt = performance.now();
    if (answer.status !== 200) {
      this.outbox.unshift(...results);
      return answer;
    }
    for (const command of (JSON.parse(answer.text) as GamePingResponse).commands) this.take(command, arrivedAt);
    return answer;
  }

  /** Runs a command once (heal and friends are instant here); a repeat is only reported again, on the next ping. */
  private take(command: DeliveredCommand, arrivedAt: number): void {
    if (!this.arrivals.has(command.id)) {
      this.arrivals.set(command.id, arrivedAt);
      this.waiters.get(command.id)?.(arrivedAt);
      this.waiters.delete(command.id);
    }
    this.outbox.push({ id: command.id, success: true, output: '', error: null, durationMs: 0 });
  }

  /** When the command reached this game (performance.now()); rejects after `timeoutMs`. */
  arrivalOf(id: string, timeoutMs: number): Promise<number> {
    const known = this.arrivals.get(id);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        reject(new Error(`command ${id} did not reach game ${this.serverId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.set(id, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }

  /**
   * Starts the ping loop in the background: a plain game waits `intervalMs`, then pings, and so on
   * (as the shipped script does); a long-polling game pings again as soon as an answer arrives.
   */
  startLoop(intervalMs = 2_000): void {
    if (this.loop) return;
    const controller = new AbortController();
    const done = (async () => {
      while (!controller.signal.aborted) {
        if (!this.wait) await sleep(intervalMs, undefined, { signal: controller.signal }).catch(() => undefined);
        if (controller.signal.aborted) break;
        try {
          const answer = await this.ping(controller.signal);
          if (answer.status !== 200) throw new Error(`ping answered ${answer.status}: ${answer.text}`);
        } catch (error) {
          if (controller.signal.aborted) break;
          this.errors++;
          this.lastError = error instanceof Error ? error.message : String(error);
          // Like the shipped script, back off after a failure instead of hammering a struggling server.
          await sleep(intervalMs, undefined, { signal: controller.signal }).catch(() => undefined);
        }
      }
    })();
    this.loop = { controller, done };
  }

  async stop(): Promise<void> {
    if (!this.loop) return;
    this.loop.controller.abort();
    await this.loop.done;
    this.loop = undefined;
  }
}
