import { z } from 'zod';

/**
 * The simulated game server (docs/decisions/045-simulated-game-server.md): a game server Moonrelay
 * runs for a signed-in user for a few minutes, speaking the game link protocol over HTTP to its own
 * ping route, so a newcomer sees the dashboard work before connecting Roblox.
 */
export * from './simulated.ts';

/** Why a simulated server stopped. */
export const SimulatorStopReasonSchema = z.enum([
  /** Its minutes were up. */
  'time-up',
  /** Stopped from the dashboard (DELETE /api/game/simulator). */
  'stopped',
  /** The Moonrelay instance running it shut down. */
  'shutdown',
  /** The game route refused its pings for good (the key was regenerated, say): `error` says why. */
  'refused',
]);
export type SimulatorStopReason = z.infer<typeof SimulatorStopReasonSchema>;

export const SimulatorStatusSchema = z
  .object({
    running: z.boolean(),
    /** The account's simulated server id (`simulated-` and 8 hex digits), running or not. */
    serverId: z.string(),
    /** Its player's name. */
    playerName: z.string(),
    /** While it runs: when it connected, and when it stops by itself. */
    startedAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    /** How the last one stopped, when it stopped in the last 10 minutes on this instance. */
    lastStop: z.object({ reason: SimulatorStopReasonSchema, at: z.string(), error: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'SimulatorStatus' });
export type SimulatorStatus = z.infer<typeof SimulatorStatusSchema>;
