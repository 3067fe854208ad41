import crypto from 'node:crypto';
import type http from 'node:http';
import {
  SIMULATED_PLAYER,
  SIMULATED_SERVER_ID_PREFIX,
  SIMULATOR_ERRORS,
  SIMULATOR_MINUTES,
  SIMULATORS_PER_INSTANCE,
  type SimulatorStatus,
  type SimulatorStopReason,
} from '@moonrelay/contract/simulator';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import type { Presence } from '../../platform/presence.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { SandboxRunner } from '../executions/executions.service.ts';
import { isLive } from '../../platform/presence.ts';
import { startSimulatedServer, type SimulatedServer, type SimulatedServerStop } from './simulated-server.ts';

/** How long how the last simulated server of a user stopped is remembered (the status's lastStop). */
const LAST_STOP_KEPT_MS = 10 * 60 * 1000;

/**
 * The account's simulated server id: `simulated-` and 8 hex digits of a digest of the user id. The
 * same every time, so starting again takes no new place among the key's game servers and spends the
 * key's budget of new servers at most once per connection, never a pile of ids.
 */
export const simulatedServerId = (userId: string) =>
  SIMULATED_SERVER_ID_PREFIX + crypto.createHash('sha256').update(userId).digest('hex').slice(0, 8);

export interface SimulatorOptions {
  /** How long a simulated server runs (default SIMULATOR_MINUTES); tests pass a short one. */
  durationMs?: number;
  /** Long-poll seconds and least gap between pings (default: the shipped script's 2 and 2 s). */
  waitSeconds?: number;
  pingIntervalMs?: number;
}

interface Running {
  server: SimulatedServer | undefined;
  /** Until its first ping is answered. */
  starting: Promise<SimulatorStatus>;
}

/**
 * Simulated game servers (docs/decisions/045): at most one per user, at most `maxRunning` on this
 * instance, each running in the instance that started it and pinging that instance's own listening
 * address. Stops (from the dashboard, on any instance) travel on the bus; every instance notes how
 * each one stopped.
 */
export function createSimulator(deps: {
  apiKeys: Pick<ApiKeysService, 'integrationKey'>;
  sandbox: SandboxRunner;
  presence: Presence;
  bus: EventBus;
  logger: Logger;
  /** Whether other instances may run some (the scale-out mode): presence then tells of theirs. */
  otherInstances: boolean;
  maxRunning?: number;
  defaults?: SimulatorOptions;
}) {
  const { apiKeys, sandbox, presence, bus, logger } = deps;
  const maxRunning = deps.maxRunning ?? SIMULATORS_PER_INSTANCE;
  const running = new Map<string, Running>();
  const lastStops = new Map<string, SimulatedServerStop & { forget: NodeJS.Timeout }>();
  let listening: http.Server | undefined;
  let closing = false;

  const unsubscribe = bus.subscribe((event) => {
    if (event.type === 'simulator:stop') {
      void running.get(event.userId)?.server?.stop('stopped');
    } else if (event.type === 'simulator:stopped') {
      noteStop(event.userId, { reason: event.reason, atMs: event.atMs, error: event.error });
    }
  });

  function noteStop(userId: string, stop: SimulatedServerStop): void {
    const previous = lastStops.get(userId);
    if (previous && previous.atMs > stop.atMs) return;
    if (previous) clearTimeout(previous.forget);
    const forget = setTimeout(() => lastStops.delete(userId), LAST_STOP_KEPT_MS);
    forget.unref();
    lastStops.set(userId, { ...stop, forget });
  }

  /** This instance's ping route, over loopback to the address it listens on. */
  function pingUrl(): string | undefined {
    const address = listening?.address();
    if (!address || typeof address === 'string') return undefined;
    const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/api/game/ping`;
  }

  function base(userId: string): SimulatorStatus {
    const stop = lastStops.get(userId);
    return {
      running: false,
      serverId: simulatedServerId(userId),
      playerName: SIMULATED_PLAYER.name,
      startedAt: null,
      endsAt: null,
      lastStop: stop ? { reason: stop.reason, at: new Date(stop.atMs).toISOString(), error: stop.error } : null,
    };
  }

  const iso = (ms: number) => new Date(ms).toISOString();
  const runningStatus = (userId: string, server: SimulatedServer): SimulatorStatus => ({
    ...base(userId),
    running: true,
    startedAt: iso(server.startedAtMs),
    endsAt: iso(server.endsAtMs),
  });

  /**
   * One another instance runs: its pings are live in the shared presence, newer than any stop heard
   * of. Its end is reckoned from when it connected and the usual run time.
   */
  async function elsewhere(userId: string): Promise<SimulatorStatus | undefined> {
    if (!deps.otherInstances) return undefined;
    const nowMs = Date.now();
    const seen = await presence.get(userId, simulatedServerId(userId));
    if (!seen || !isLive(seen, nowMs)) return undefined;
    const stop = lastStops.get(userId);
    if (stop && stop.atMs >= seen.lastPingMs) return undefined;
    const durationMs = deps.defaults?.durationMs ?? SIMULATOR_MINUTES * 60_000;
    return {
      ...base(userId),
      running: true,
      startedAt: iso(seen.connectedAtMs),
      endsAt: iso(seen.connectedAtMs + durationMs),
    };
  }

  async function status(userId: string): Promise<SimulatorStatus> {
    const here = running.get(userId);
    if (here) return here.server ? runningStatus(userId, here.server) : here.starting;
    return (await elsewhere(userId)) ?? base(userId);
  }

  function start(userId: string, options: SimulatorOptions = {}): Promise<SimulatorStatus> {
    const here = running.get(userId);
    if (here) return here.server ? Promise.resolve(runningStatus(userId, here.server)) : here.starting;
    if (closing) return Promise.reject(new AppError(503, SIMULATOR_ERRORS.unavailable));
    // Counted from the moment it is asked for, so presses at once cannot pass the limit together.
    if (running.size >= maxRunning) {
      return Promise.reject(new AppError(429, SIMULATOR_ERRORS.full, { headers: { 'Retry-After': '60' } }));
    }
    const entry: Running = { server: undefined, starting: Promise.resolve(base(userId)) };
    entry.starting = (async () => {
      try {
        const remote = await elsewhere(userId);
        if (remote) {
          running.delete(userId);
          return remote;
        }
        const url = pingUrl();
        if (!url) throw new AppError(503, SIMULATOR_ERRORS.unavailable);
        const key = await apiKeys.integrationKey(userId);
        const settings = { ...deps.defaults, ...options };
        const server = startSimulatedServer({
          pingUrl: url,
          key,
          userId,
          serverId: simulatedServerId(userId),
          durationMs: settings.durationMs ?? SIMULATOR_MINUTES * 60_000,
          waitSeconds: settings.waitSeconds,
          pingIntervalMs: settings.pingIntervalMs,
          sandbox,
          logger,
          onStopped: (stop) => {
            if (running.get(userId)?.server === server) running.delete(userId);
            noteStop(userId, stop);
            bus.publish({ type: 'simulator:stopped', userId, ...stop });
          },
        });
        entry.server = server;
        await server.connected;
        // Stopped while connecting (a press of Stop, a shutdown): the answer says how it ended.
        return running.get(userId) === entry ? runningStatus(userId, server) : base(userId);
      } catch (error) {
        if (running.get(userId) === entry) running.delete(userId);
        throw error;
      }
    })();
    running.set(userId, entry);
    return entry.starting;
  }

  async function stop(userId: string): Promise<SimulatorStatus> {
    const here = running.get(userId);
    if (here) {
      await here.starting.catch(() => undefined);
      await here.server?.stop('stopped');
      return base(userId);
    }
    const remote = await elsewhere(userId);
    if (!remote) return base(userId);
    // Another instance runs it: it stops there within its ping in flight (2 s at most).
    bus.publish({ type: 'simulator:stop', userId });
    return { ...base(userId), lastStop: { reason: 'stopped', at: new Date().toISOString(), error: null } };
  }

  /** Every simulated server of this instance stops (shutdown); each sends its last ping if it can. */
  function stopAll(reason: SimulatorStopReason = 'shutdown'): Promise<unknown> {
    closing = true;
    return Promise.all(
      [...running.values()].map(async (entry) => {
        await entry.starting.catch(() => undefined);
        await entry.server?.stop(reason);
      }),
    );
  }

  return {
    /** The HTTP server this app is served from: simulated servers ping its address. */
    serveFrom(server: http.Server): void {
      listening = server;
    },
    status,
    start,
    stop,
    stopAll,
    /** Simulated servers running (or starting) on this instance. */
    runningCount: () => running.size,
    /** The simulated server of a user on this instance, for tests: its pings and when it is done. */
    runningFor: (userId: string) => running.get(userId)?.server,
    async close(): Promise<void> {
      await stopAll('shutdown');
      unsubscribe();
      for (const stop of lastStops.values()) clearTimeout(stop.forget);
      lastStops.clear();
    },
  };
}

export type Simulator = ReturnType<typeof createSimulator>;
