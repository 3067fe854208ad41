import { io, type Socket } from 'socket.io-client';
import { create } from 'zustand';
import { SOCKET_PATH } from '@moonrelay/contract/constants';
import type { ClientToServerEvents, ServerToClientEvents } from '@moonrelay/contract/events';
import { sessionEnded } from './query-client.ts';
import { useSession } from './session.ts';

/**
 * Live push (docs/protocol.md, "Live push"): one Socket.IO client per signed-in session, on this
 * origin, authenticated with the session token. socket.io-client reconnects by itself after a
 * network drop; while it is down, the screens fall back to polling (see useLiveSocketState).
 *
 * Only the signed-in app imports this module, so socket.io-client stays out of the sign-in bundle.
 */
export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

interface LiveSocketState {
  /** The socket is connected: events arrive, so the screens need not poll. */
  connected: boolean;
}

export const useLiveSocketState = create<LiveSocketState>(() => ({ connected: false }));

let current: { token: string; socket: LiveSocket } | null = null;

/** The live socket of the session holding `token`, opened on first use. */
export function liveSocketFor(token: string): LiveSocket {
  if (current?.token === token) return current.socket;
  closeLiveSocket();
  const socket: LiveSocket = io({ path: SOCKET_PATH, auth: { token } });
  socket.on('connect', () => useLiveSocketState.setState({ connected: true }));
  socket.on('disconnect', (reason) => {
    useLiveSocketState.setState({ connected: false });
    // The server closes a dashboard socket itself only when its session ended: signed out from
    // another device, a password change, the account deleted, expiry (decisions 014 and 044). It
    // does so at once, so this tab signs out now rather than at its next request's 401.
    if (reason === 'io server disconnect' && useSession.getState().token === token) sessionEnded();
  });
  current = { token, socket };
  return socket;
}

/** Closes the socket for good (it does not reconnect); the next liveSocketFor opens a new one. */
export function closeLiveSocket(): void {
  if (!current) return;
  current.socket.disconnect();
  current = null;
  useLiveSocketState.setState({ connected: false });
}

// However the session ends (logout, account deletion, a token the server refused) or changes hands,
// the socket authenticated with the old token must not keep receiving that user's events.
useSession.subscribe((state) => {
  if (current && state.token !== current.token) closeLiveSocket();
});
