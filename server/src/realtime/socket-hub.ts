import type http from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@moonrelay/contract/events';
import type { Logger } from '../logger.ts';
import type { BusEvent, EventBus } from '../platform/event-bus.ts';

export const ADMINS_ROOM = 'admins';
export const userRoom = (userId: string) => `user:${userId}`;

export interface SocketIdentity {
  userId: string;
  isAdmin: boolean;
}

interface SocketData {
  userId: string;
}

export type HubServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * The browser's live view. A socket proves itself with the session token in its handshake and
 * joins its user's room (admins also join the admins' room). Bus events are forwarded to the rooms
 * that may see them; internal wake-ups (`command:queued`) stay on the server.
 */
export function attachSocketHub(deps: {
  server: http.Server;
  bus: EventBus;
  logger: Logger;
  identify: (token: string) => Promise<SocketIdentity | null>;
  /** Scale-out: the Redis adapter, so room operations (disconnecting a user's sockets) reach every instance. */
  adapterClients?: { pub: Redis; sub: Redis };
}): { io: HubServer; close(): Promise<void> } {
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
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const identity = typeof token === 'string' ? await deps.identify(token).catch(() => null) : null;
    if (!identity) return next(new Error('Authentication failed'));
    socket.data.userId = identity.userId;
    void socket.join(userRoom(identity.userId));
    if (identity.isAdmin) void socket.join(ADMINS_ROOM);
    next();
  });
  io.on('connection', (socket: Socket) => {
    deps.logger.debug({ userId: (socket.data as SocketData).userId }, 'socket connected');
  });

  const forward = (event: BusEvent) => {
    switch (event.type) {
      case 'game:status':
        io.to(userRoom(event.userId))
          .to(ADMINS_ROOM)
          .emit('game:status', { userId: event.userId, status: event.status });
        break;
      case 'command:update':
        local.to(userRoom(event.command.userId)).to(ADMINS_ROOM).emit('command:update', { command: event.command });
        break;
      case 'execution:result':
        local.to(userRoom(event.userId)).to(ADMINS_ROOM).emit('execution:result', {
          userId: event.userId,
          execution: event.execution,
        });
        break;
      case 'audit:entry':
        local.to(ADMINS_ROOM).emit('audit:entry', { entry: event.entry });
        break;
      case 'mass:progress':
        local.to(ADMINS_ROOM).emit('mass:progress', { progress: event.progress });
        break;
      case 'user:role':
        // A promoted admin's open screens join the admins' room now; a demoted one's leave it.
        if (event.isAdmin) local.in(userRoom(event.userId)).socketsJoin(ADMINS_ROOM);
        else local.in(userRoom(event.userId)).socketsLeave(ADMINS_ROOM);
        break;
      case 'command:queued':
      case 'api-key:replaced':
        break;
    }
  };
  const unsubscribe = deps.bus.subscribe(forward);

  return {
    io,
    async close() {
      unsubscribe();
      io.disconnectSockets(true);
      // Not io.close(): that would also close the HTTP server, which its owner closes after draining.
      io.engine.close();
    },
  };
}
