/** A browser's Socket.IO connection (the session token in the handshake), for the benchmarks. */
import { io, type Socket } from 'socket.io-client';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@moonrelay/contract/events';

export type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const CONNECT_TIMEOUT_MS = 10_000;

export function openSocket(base: string, token: string): Promise<BrowserSocket> {
  const socket: BrowserSocket = io(base, {
    path: SOCKET_PATH,
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.disconnect();
      reject(new Error(`the socket did not connect within ${CONNECT_TIMEOUT_MS / 1000} s`));
    }, CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      socket.disconnect();
      reject(error);
    });
  });
}

/**
 * Event names the contract no longer has but a server may still emit (the whole status list that
 * `game:servers` replaced): counted so a run says which one it saw.
 */
export const LEGACY_GAME_EVENT = 'game:status';
