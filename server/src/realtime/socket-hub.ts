import type http from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  CONSOLE_EVENT_INTERVAL_MS,
  CONSOLE_EVENT_MAX_LINES,
  GAME_SERVERS_EVENT_INTERVAL_MS,
} from '@moonrelay/contract/constants';
import {
  SOCKET_PATH,
  type ClientToServerEvents,
  type GameServersChange,
  type ServerToClientEvents,
} from '@moonrelay/contract/events';
import type { TeamPermission } from '@moonrelay/contract/teams';
import type { Logger } from '../logger.ts';
import { holds, type HeldPermissions } from '../security/team-permissions.ts';
import type { BusEvent, EventBus } from '../platform/event-bus.ts';
import { createCoalescer } from './coalescer.ts';
import { emptyConsole, mergeConsole, toConsoleEvent, type MergedConsole } from './console-merge.ts';
import { emptyMerged, mergeChange, toChange, type MergedServers } from './game-servers-merge.ts';

export const ADMINS_ROOM = 'admins';
/** The sockets of an account's own screens: every event of the account. */
export const userRoom = (userId: string) => `user:${userId}`;
/**
 * A team member's screens of the team (docs/decisions/049): one room per permission an event needs,
 * so each socket hears only what its member may see.
 */
export const teamRoom = (teamId: string, permission: TeamPermission) => `team:${teamId}:${permission}`;

/** What each live event of an account needs its viewer to hold on the account's team. */
const EVENT_PERMISSIONS = {
  servers: 'console.read',
  console: 'console.read',
  runs: 'runs.read',
  schedules: 'scripts.read',
  players: 'players.read',
} as const satisfies Record<string, TeamPermission>;

export interface SocketIdentity {
  sessionId: string;
  userId: string;
  isAdmin: boolean;
  /** The team the socket watches (a member's view), with what the member holds there. */
  team?: { id: string; held: HeldPermissions };
}

interface SocketData {
  sessionId: string;
  userId: string;
  teamId?: string;
}

/** Checks open sockets' sessions again: which are still valid, and whether each user is an admin now. */
export interface SocketRecheck {
  everyMs: number;
  stillValid(sessionIds: string[]): Promise<Map<string, { isAdmin: boolean }>>;
}

export type HubServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * The browser's live view. A socket proves itself with the session token in its handshake and
 * joins its user's room (admins also join the admins' room). Bus events are forwarded to the rooms
 * that may see them; internal wake-ups (`command:queued`) stay on the server.
 *
 * A handshake is checked once, so open sockets are checked again every `recheck.everyMs`: a socket
 * whose session ended (signed out, account deleted, expired) is closed, and one whose user was
 * promoted or demoted elsewhere (`npm run admin`, another instance) joins or leaves the admins' room.
 */
export function attachSocketHub(deps: {
  server: http.Server;
  bus: EventBus;
  logger: Logger;
  /** The session's person, and with `team` (the handshake's), their membership of it; null refuses. */
  identify: (token: string, team?: string) => Promise<SocketIdentity | null>;
  recheck: SocketRecheck;
  /** Least time between two `game:servers` events to one user's screens, and to the admins'. */
  gameServersIntervalMs?: number;
  /** Least time between two `console:lines` events to one user's screens. */
  consoleIntervalMs?: number;
  /** Scale-out: the Redis adapter, so room operations (disconnecting a user's sockets) reach every instance. */
  adapterClients?: { pub: Redis; sub: Redis };
}): { io: HubServer; cutConnections(): void; close(): Promise<void> } {
  const io: HubServer = new Server(deps.server, {
    path: SOCKET_PATH,
    serveClient: false,
    // Same origin only: the web app is served by this server.
    cors: { origin: false },
    // The browser never sends anything big; refuse large frames early.
    maxHttpBufferSize: 16 * 1024,
    ...(deps.adapterClients ? { adapter: createAdapter(deps.adapterClients.pub, deps.adapterClients.sub) } : {}),
  });
  // Every instance receives every bus event (Redis pub/sub), so each emits to its own sockets only;
  // through the adapter the same emit would reach each socket once per instance.
  const local = io.local;

  io.use(async (socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown; team?: unknown } | undefined;
    const team = typeof auth?.team === 'string' && auth.team.length <= 100 ? auth.team : undefined;
    const identity = typeof auth?.token === 'string' ? await deps.identify(auth.token, team).catch(() => null) : null;
    if (!identity) return next(new Error('Authentication failed'));
    socket.data.sessionId = identity.sessionId;
    socket.data.userId = identity.userId;
    if (identity.team) {
      // A team's view: the rooms of the events its member may see, and nothing of anyone's own.
      socket.data.teamId = identity.team.id;
      const { id, held } = identity.team;
      for (const permission of new Set(Object.values(EVENT_PERMISSIONS))) {
        if (holds(held, permission)) void socket.join(teamRoom(id, permission));
      }
    } else {
      void socket.join(userRoom(identity.userId));
      if (identity.isAdmin) void socket.join(ADMINS_ROOM);
    }
    next();
  });
  io.on('connection', (socket: Socket) => {
    deps.logger.debug({ userId: (socket.data as SocketData).userId }, 'socket connected');
  });

  // This instance's rooms (the Redis adapter keeps the local ones here too).
  const rooms = io.of('/').adapter.rooms;
  const hasAdmins = () => (rooms.get(ADMINS_ROOM)?.size ?? 0) > 0;
  // Socket.IO encodes a packet before it looks at the rooms: a command sent to thousands of game
  // servers must not be encoded thousands of times for rooms nobody here is in.
  const someoneIn = (...names: string[]) => names.some((name) => (rooms.get(name)?.size ?? 0) > 0);
  /** The rooms that see an account's event of one kind: its own screens, and its team's members who may. */
  const viewersOf = (userId: string, kind: keyof typeof EVENT_PERMISSIONS) =>
    [userRoom(userId), teamRoom(userId, EVENT_PERMISSIONS[kind])] as const;
  /** A socket in the user's room that is not an admin's (admins get the batch instead). */
  const hasOwnViewer = (userId: string) => {
    if (someoneIn(teamRoom(userId, EVENT_PERMISSIONS.servers))) return true;
    const members = rooms.get(userRoom(userId));
    if (!members) return false;
    const admins = rooms.get(ADMINS_ROOM);
    for (const socketId of members) if (!admins?.has(socketId)) return true;
    return false;
  };

  // Game-server changes reach screens coalesced: each user's own screens at most once an interval
  // with that user's change, the admins at most once an interval with every user's. Nothing is
  // merged or encoded for a room nobody here is in; every instance gets every change (the bus),
  // and each merges what all instances published before its own sockets see it.
  const intervalMs = deps.gameServersIntervalMs ?? GAME_SERVERS_EVENT_INTERVAL_MS;
  const onError = (error: unknown) => deps.logger.error({ err: error }, 'game:servers emit failed');
  const forUsers = createCoalescer<string, MergedServers>({
    intervalMs,
    create: emptyMerged,
    onError,
    emit: (userId, merged) => {
      if (!hasOwnViewer(userId)) return;
      local
        .to([...viewersOf(userId, 'servers')])
        .except(ADMINS_ROOM)
        .emit('game:servers', { changes: [toChange(userId, merged)] });
    },
  });
  const forAdmins = createCoalescer<typeof ADMINS_ROOM, Map<string, MergedServers>>({
    intervalMs,
    create: () => new Map(),
    onError,
    emit: (_room, byUser) => {
      if (!hasAdmins()) return;
      const changes = [...byUser].map(([userId, merged]) => toChange(userId, merged));
      local.to(ADMINS_ROOM).emit('game:servers', { changes });
    },
  });
  const gameServersChanged = (changes: GameServersChange[]) => {
    const admins = hasAdmins();
    for (const change of changes) {
      if (hasOwnViewer(change.userId)) forUsers.add(change.userId, (merged) => mergeChange(merged, change));
      if (admins) {
        forAdmins.add(ADMINS_ROOM, (byUser) => {
          let merged = byUser.get(change.userId);
          if (!merged) byUser.set(change.userId, (merged = emptyMerged()));
          mergeChange(merged, change);
        });
      }
    }
  };

  // Console lines go to their owner's screens only (admins read another user's console through the
  // API), merged from every instance's events and coalesced per user: a few events a second at most,
  // each with the newest CONSOLE_EVENT_MAX_LINES lines and a 'live' drop for the rest.
  const forConsole = createCoalescer<string, MergedConsole>({
    intervalMs: deps.consoleIntervalMs ?? CONSOLE_EVENT_INTERVAL_MS,
    create: emptyConsole,
    onError: (error) => deps.logger.error({ err: error }, 'console:lines emit failed'),
    emit: (userId, merged) => {
      if (!someoneIn(...viewersOf(userId, 'console'))) return;
      local
        .to([...viewersOf(userId, 'console')])
        .emit('console:lines', toConsoleEvent(userId, merged, CONSOLE_EVENT_MAX_LINES));
    },
  });

  const forward = (event: BusEvent) => {
    switch (event.type) {
      case 'game:servers':
        gameServersChanged(event.changes);
        break;
      case 'command:update':
        if (!someoneIn(...viewersOf(event.command.userId, 'runs'), ADMINS_ROOM)) break;
        local
          .to([...viewersOf(event.command.userId, 'runs'), ADMINS_ROOM])
          .emit('command:update', { command: event.command });
        break;
      case 'execution:result':
        if (!someoneIn(...viewersOf(event.userId, 'runs'), ADMINS_ROOM)) break;
        local.to([...viewersOf(event.userId, 'runs'), ADMINS_ROOM]).emit('execution:result', {
          userId: event.userId,
          execution: event.execution,
        });
        break;
      case 'execution:updated':
        // The user's own screens (the Runs page); the admins' views do not list runs one by one.
        if (!someoneIn(...viewersOf(event.userId, 'runs'))) break;
        local.to([...viewersOf(event.userId, 'runs')]).emit('execution:updated', { run: event.run });
        break;
      case 'execution:logs':
        // A cloud run's lines, for its detail and the editor that started it.
        if (!someoneIn(...viewersOf(event.userId, 'runs'))) break;
        local.to([...viewersOf(event.userId, 'runs')]).emit('execution:logs', {
          executionId: event.executionId,
          state: event.state,
          lines: event.lines,
        });
        break;
      case 'schedule:updated':
        if (!someoneIn(...viewersOf(event.userId, 'schedules'))) break;
        local.to([...viewersOf(event.userId, 'schedules')]).emit('schedule:updated', {
          scheduleId: event.scheduleId,
          scriptId: event.scriptId,
        });
        break;
      case 'players:changed':
        if (!someoneIn(...viewersOf(event.userId, 'players'))) break;
        local.to([...viewersOf(event.userId, 'players')]).emit('players:changed', {});
        break;
      case 'audit:entry':
        if (hasAdmins()) local.to(ADMINS_ROOM).emit('audit:entry', { entry: event.entry });
        break;
      case 'mass:progress':
        if (hasAdmins()) local.to(ADMINS_ROOM).emit('mass:progress', { progress: event.progress });
        break;
      case 'user:role':
        // A demoted admin's open screens leave the admins' room now. A promoted one's are checked at
        // once, each on its session's terms (one that passed no second factor may not join it when
        // admins are required to have one).
        if (event.isAdmin) recheckNow(event.userId);
        else local.in(userRoom(event.userId)).socketsLeave(ADMINS_ROOM);
        break;
      case 'console:lines':
        if (!someoneIn(...viewersOf(event.userId, 'console'))) break;
        forConsole.add(event.userId, (merged) =>
          mergeConsole(merged, event.lines, event.drops, CONSOLE_EVENT_MAX_LINES),
        );
        break;
      case 'session:ended':
        // This instance's sockets of the ended session (or of every session of the user).
        for (const socket of io.of('/').sockets.values()) {
          const data = socket.data as SocketData;
          if (
            data.userId === event.userId &&
            (!event.sessionId || data.sessionId === event.sessionId) &&
            data.sessionId !== event.exceptSessionId
          ) {
            socket.disconnect(true);
          }
        }
        break;
      case 'team:membership':
        // The member's views of the team close at once; each reconnects and is judged afresh (a
        // removed member's is refused), on every instance, for its own sockets.
        for (const socket of io.of('/').sockets.values()) {
          const data = socket.data as SocketData;
          if (data.userId === event.userId && data.teamId === event.teamId) socket.disconnect(true);
        }
        break;
      case 'command:queued':
      case 'command:broadcast':
      case 'api-key:replaced':
      case 'api-key:regenerated':
      case 'mass:finished':
        break;
    }
  };
  const unsubscribe = deps.bus.subscribe(forward);

  const recheckSessions = async (userId?: string) => {
    // This instance's own sockets (of one user, or all); each instance checks its own.
    const sockets = [...io.of('/').sockets.values()].filter((socket) => !userId || socket.data.userId === userId);
    if (sockets.length === 0) return;
    const valid = await deps.recheck.stillValid([...new Set(sockets.map((socket) => socket.data.sessionId))]);
    for (const socket of sockets) {
      const session = valid.get(socket.data.sessionId);
      if (!session) socket.disconnect(true);
      else if (session.isAdmin && !socket.rooms.has(ADMINS_ROOM)) void socket.join(ADMINS_ROOM);
      else if (!session.isAdmin && socket.rooms.has(ADMINS_ROOM)) void socket.leave(ADMINS_ROOM);
    }
  };
  const recheckNow = (userId: string) => {
    recheckSessions(userId).catch((error: unknown) =>
      deps.logger.error({ err: error }, 'socket session recheck failed'),
    );
  };
  let rechecking = false;
  const recheckTimer = setInterval(() => {
    if (rechecking) return;
    rechecking = true;
    recheckSessions()
      .catch((error: unknown) => deps.logger.error({ err: error }, 'socket session recheck failed'))
      .finally(() => (rechecking = false));
  }, deps.recheck.everyMs);
  recheckTimer.unref();

  /**
   * Cuts every socket's connection. Cut, not told to go away: a Socket.IO "disconnect" from the
   * server would stop the browsers from reconnecting, and they should find this server again once
   * it restarts (or another instance). Upgraded connections are not the HTTP server's to close, so
   * until this runs a shutdown waiting for the server to close waits forever.
   */
  const cutConnections = () => io.engine.close();

  return {
    io,
    cutConnections,
    async close() {
      clearInterval(recheckTimer);
      unsubscribe();
      forUsers.close();
      forAdmins.close();
      forConsole.close();
      // Not io.close(): that would also close the HTTP server, which its owner closes after draining.
      cutConnections();
    },
  };
}
