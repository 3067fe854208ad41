import { z } from 'zod';
import { CommandViewSchema, GameServerSchema } from './game.ts';
import { ExecutionResponseSchema } from './executions.ts';
import { AuditEntrySchema, MassProgressSchema } from './admin.ts';
import { RunSummarySchema } from './runs.ts';
import type { ConsoleLinesEvent } from './console.ts';
import type { CloudRunLogsEvent } from './cloud-runs.ts';

/**
 * Live push (Socket.IO). The browser authenticates the handshake with its session token
 * (`auth: { token }`); each socket joins its user's room, and admins also join the admins' room.
 * Every state change a screen shows arrives as one of these events; the web app patches its query
 * cache from them and polls only while the socket is down.
 */
// Kept with the constants, which define no schema: the web app's socket needs the path at start,
// and importing it from here would bring zod and every event schema with it.
export { SOCKET_PATH } from './constants.ts';

/**
 * What changed in one user's game servers since the last event: servers that joined or pinged
 * (their current state) and servers that stopped pinging. Screens fetch the whole list once
 * (GET /api/game/status) and apply these; each carries its ping time, so a change older than what
 * a screen already shows is ignored and the order of arrival does not matter.
 */
export const GameServersChangeSchema = z.object({
  userId: z.string(),
  servers: z.array(GameServerSchema),
  gone: z.array(z.object({ serverId: z.string(), lastPing: z.string() })),
});
export type GameServersChange = z.infer<typeof GameServersChangeSchema>;

/**
 * Game servers changed. Coalesced: a user's screens get at most one a second with that user's
 * change; admins get at most one a second with every user's changes.
 */
export const GameServersEventSchema = z.object({ changes: z.array(GameServersChangeSchema) });
export type GameServersEvent = z.infer<typeof GameServersEventSchema>;

export const CommandUpdateEventSchema = z.object({ command: CommandViewSchema });
export type CommandUpdateEvent = z.infer<typeof CommandUpdateEventSchema>;

/** A game execution's result, when it came back after the execute call had answered. */
export const ExecutionResultEventSchema = z.object({ userId: z.string(), execution: ExecutionResponseSchema });
export type ExecutionResultEvent = z.infer<typeof ExecutionResultEventSchema>;

/**
 * One of the user's runs was recorded, or changed (a game run's result came back): to that user's
 * screens only, so the Runs page adds or updates the row in place.
 */
export const ExecutionUpdatedEventSchema = z.object({ run: RunSummarySchema });
export type ExecutionUpdatedEvent = z.infer<typeof ExecutionUpdatedEventSchema>;

/** Admins only: a new audit log entry. */
export const AuditEntryEventSchema = z.object({ entry: AuditEntrySchema });
export type AuditEntryEvent = z.infer<typeof AuditEntryEventSchema>;

/** Admins only: one user's part of a mass execution moved on. */
export const MassProgressEventSchema = z.object({ progress: MassProgressSchema });
export type MassProgressEvent = z.infer<typeof MassProgressEventSchema>;

/** Server -> browser events, by name. */
export interface ServerToClientEvents {
  'game:servers': (event: GameServersEvent) => void;
  'command:update': (event: CommandUpdateEvent) => void;
  'execution:result': (event: ExecutionResultEvent) => void;
  'execution:updated': (event: ExecutionUpdatedEvent) => void;
  /** New log lines of a cloud run, as Moonrelay reads them from Roblox (contract/src/cloud-runs.ts). */
  'execution:logs': (event: CloudRunLogsEvent) => void;
  'audit:entry': (event: AuditEntryEvent) => void;
  'mass:progress': (event: MassProgressEvent) => void;
  /** New lines of the user's game consoles (contract/src/console.ts). */
  'console:lines': (event: ConsoleLinesEvent) => void;
  /** One of the user's schedules changed: a run it started, a skip, an error (contract/src/schedules.ts). */
  'schedule:updated': (event: { scheduleId: string; scriptId: string }) => void;
  /** Players joined or left the user's game servers (coalesced, at most once a second): lists fetch again. */
  'players:changed': (event: Record<string, never>) => void;
}

/** The browser sends nothing over the socket: every action is a REST call. */
export type ClientToServerEvents = Record<string, never>;

export const SOCKET_EVENTS = [
  'game:servers',
  'command:update',
  'execution:result',
  'execution:updated',
  'execution:logs',
  'audit:entry',
  'mass:progress',
  'console:lines',
  'schedule:updated',
  'players:changed',
] as const satisfies readonly (keyof ServerToClientEvents)[];
