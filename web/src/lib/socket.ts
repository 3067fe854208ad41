import { io, type Socket } from 'socket.io-client';
import { create } from 'zustand';
import { SOCKET_PATH } from '@moonrelay/contract/constants';
import type { ClientToServerEvents, ServerToClientEvents } from '@moonrelay/contract/events';
import { sessionEnded } from './query-client.ts';
import { useSession } from './session.ts';
import { useTeam } from './team.ts';
import { refreshTeams } from './team-access.ts';

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

let current: { token: string; teamId: string | null; socket: LiveSocket } | null = null;

/**
 * The live socket of the session holding `token`, opened on first use, for the team the dashboard
 * acts on. On a team the handshake names it (docs/decisions/049): the socket then hears the events
 * of the team its member may see, and nothing of the person's own account.
 */
export function liveSocketFor(token: string): LiveSocket {
  const teamId = useTeam.getState().teamId;
  if (current?.token === token && current.teamId === teamId) return current.socket;
  closeLiveSocket();
  const socket: LiveSocket = io({ path: SOCKET_PATH, auth: teamId === null ? { token } : { token, team: teamId } });
  socket.on('connect', () => useLiveSocketState.setState({ connected: true }));
  socket.on('disconnect', (reason) => {
    useLiveSocketState.setState({ connected: false });
    if (reason !== 'io server disconnect' || useSession.getState().token !== token) return;
    if (teamId !== null) {
      // A view of a team is closed the moment the member's place in it changes (a new role, or
      // removed): it connects again and is judged afresh (refused once removed), and the list of
      // teams is read again, so the screens disable what the role no longer allows and the team
      // gate leaves a team the person is no longer in.
      void refreshTeams();
      socket.connect();
      return;
    }
    // The server closes a dashboard socket itself only when its session ended: signed out from
    // another device, a password change, the account deleted, expiry (decisions 014 and 044). It
    // does so at once, so this tab signs out now rather than at its next request's 401.
    sessionEnded();
  });
  current = { token, teamId, socket };
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

// The socket watches one team: another team's screens mount afresh (SignedInApp) and ask for theirs.
useTeam.subscribe((state) => {
  if (current && state.teamId !== current.teamId) closeLiveSocket();
});
