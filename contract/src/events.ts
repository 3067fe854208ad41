import { z } from 'zod';
import { CommandViewSchema, GameStatusSchema } from './game.ts';
import { ExecutionResponseSchema } from './executions.ts';
import { AuditEntrySchema, MassProgressSchema } from './admin.ts';

/**
 * Live push (Socket.IO). The browser authenticates the handshake with its session token
 * (`auth: { token }`); each socket joins its user's room, and admins also join the admins' room.
 * Every state change a screen shows arrives as one of these events; the web app patches its query
 * cache from them and polls only while the socket is down.
 */
export const SOCKET_PATH = '/socket.io';

export const GameStatusEventSchema = z.object({ userId: z.string(), status: GameStatusSchema });
export type GameStatusEvent = z.infer<typeof GameStatusEventSchema>;

export const CommandUpdateEventSchema = z.object({ command: CommandViewSchema });
export type CommandUpdateEvent = z.infer<typeof CommandUpdateEventSchema>;

/** A game execution's result, when it came back after the execute call had answered. */
export const ExecutionResultEventSchema = z.object({ userId: z.string(), execution: ExecutionResponseSchema });
export type ExecutionResultEvent = z.infer<typeof ExecutionResultEventSchema>;

/** Admins only: a new audit log entry. */
export const AuditEntryEventSchema = z.object({ entry: AuditEntrySchema });
export type AuditEntryEvent = z.infer<typeof AuditEntryEventSchema>;

/** Admins only: one user's part of a mass execution moved on. */
export const MassProgressEventSchema = z.object({ progress: MassProgressSchema });
export type MassProgressEvent = z.infer<typeof MassProgressEventSchema>;

/** Server -> browser events, by name. */
export interface ServerToClientEvents {
  'game:status': (event: GameStatusEvent) => void;
  'command:update': (event: CommandUpdateEvent) => void;
  'execution:result': (event: ExecutionResultEvent) => void;
  'audit:entry': (event: AuditEntryEvent) => void;
  'mass:progress': (event: MassProgressEvent) => void;
}

/** The browser sends nothing over the socket: every action is a REST call. */
export type ClientToServerEvents = Record<string, never>;

export const SOCKET_EVENTS = [
  'game:status',
  'command:update',
  'execution:result',
  'audit:entry',
  'mass:progress',
] as const satisfies readonly (keyof ServerToClientEvents)[];
