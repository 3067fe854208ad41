import { useEffect } from 'react';
import type { AdminConnectionList, AuditPage } from '@moonrelay/contract/admin';
import type {
  AuditEntryEvent,
  CommandUpdateEvent,
  GameServersChange,
  GameServersEvent,
  MassProgressEvent,
} from '@moonrelay/contract/events';
import { GAME_PING_INTERVAL_MS } from '@moonrelay/contract/constants';
import type { GameServer } from '@moonrelay/contract/game';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { liveSocketFor } from '../../../lib/socket.ts';
import { adminPageKey, isAdminQueryKey } from '../api/admin-query.ts';
import { ADMIN_AUDIT_PATH, adminAuditKey } from '../api/audit.ts';
import { adminConnectionsKey } from '../api/connections.ts';
import { adminExecutionsKey } from '../api/recent-executions.ts';
import { adminUsersKey } from '../api/users.ts';
import { isFinalProgress, useAdminLiveStore } from './admin-live-store.ts';

/**
 * Keeps the Admin Panel current from the live socket; an admin's socket receives every user's
 * game status, command updates and late execution results, and the admins' own audit entries and
 * mass-execution progress. Lists are patched in place where the event carries the change (audit
 * entries, game connections) and fetched again where it only says something changed (users,
 * recent executions). Recent executions are fetched at most once a second however many events come.
 */
export const EXECUTIONS_REFRESH_MS = 1_000;

/** One user's game-server change applied to a page of connections; ping times decide, as on the dashboard. */
export function patchConnections(list: AdminConnectionList, change: GameServersChange): AdminConnectionList {
  const pinged = new Map(change.servers.map((server) => [server.serverId, server]));
  const gone = new Map(change.gone.map((server) => [server.serverId, server.lastPing]));
  let connectedDelta = 0;
  const items = list.items.map((item) => {
    if (item.userId !== change.userId) return item;
    const live = pinged.get(item.serverId);
    const goneAt = gone.get(item.serverId);
    let next = item;
    if (live && live.lastPing >= item.lastPing) {
      next = {
        ...item,
        isConnected: live.connected,
        lastPing: live.lastPing,
        gameData: live.gameData ?? item.gameData,
      };
    } else if (goneAt !== undefined && goneAt >= item.lastPing) {
      next = { ...item, isConnected: false };
    }
    connectedDelta += Number(next.isConnected) - Number(item.isConnected);
    return next;
  });
  return { ...list, items, connected: Math.max(0, list.connected + connectedDelta) };
}

/** A server's first ping: its next one comes an interval later. */
const isNewConnection = (server: GameServer) =>
  Date.parse(server.lastPing) - Date.parse(server.connectedAt) < GAME_PING_INTERVAL_MS;

/** A batch of every user's changes (at most one a second): patched in; a server no page shows yet refetches. */
export function onAdminGameServers({ changes }: GameServersEvent): void {
  const shown = new Set<string>();
  queryClient.setQueriesData<AdminConnectionList>({ queryKey: adminConnectionsKey }, (list) => {
    if (!list) return list;
    for (const item of list.items) shown.add(`${item.userId}\n${item.serverId}`);
    return changes.reduce(patchConnections, list);
  });
  // A server that just connected and no page shows yet: the list is fetched again to take it in.
  // Only new connections: with thousands of servers most are on pages not shown, and refetching for
  // them would fetch the whole list every second.
  const joined = changes.some((change) =>
    change.servers.some((server) => isNewConnection(server) && !shown.has(`${change.userId}\n${server.serverId}`)),
  );
  if (joined) void queryClient.invalidateQueries({ queryKey: adminConnectionsKey });
}

let executionsRefresh: ReturnType<typeof setTimeout> | undefined;

/** Fetches recent executions again, once, a moment after the first of a burst of events. */
export function refreshExecutionsSoon(): void {
  if (executionsRefresh !== undefined) return;
  executionsRefresh = setTimeout(() => {
    executionsRefresh = undefined;
    void queryClient.invalidateQueries({ queryKey: adminExecutionsKey });
  }, EXECUTIONS_REFRESH_MS);
}

export function onAdminCommandUpdate({ command }: CommandUpdateEvent): void {
  useAdminLiveStore.getState().commandUpdated(command);
  if (command.executionId) refreshExecutionsSoon();
}

export function onAuditEntry({ entry }: AuditEntryEvent): void {
  const firstPage = adminPageKey(ADMIN_AUDIT_PATH, 1);
  queryClient.setQueryData<AuditPage>(firstPage, (page) =>
    page && !page.items.some((item) => item.id === entry.id)
      ? { ...page, items: [entry, ...page.items].slice(0, page.pageSize), total: page.total + 1 }
      : page,
  );
  // Every later page shifted by one entry: each is fetched again when next shown.
  void queryClient.invalidateQueries({
    queryKey: adminAuditKey,
    predicate: (query) => query.queryKey[1] !== 1,
    refetchType: 'none',
  });
  // An audited change to a user (key, role, account) changes the Users tab.
  if (entry.targetType === 'user') void queryClient.invalidateQueries({ queryKey: adminUsersKey });
}

export function onMassProgress({ progress }: MassProgressEvent): void {
  useAdminLiveStore.getState().progressArrived(progress);
  if (isFinalProgress(progress.status)) refreshExecutionsSoon();
}

/** Events may have been missed while the socket was down: every admin list is fetched again. */
function onConnect(): void {
  void queryClient.invalidateQueries({ predicate: (query) => isAdminQueryKey(query.queryKey) });
}

/** Mounted once in the signed-in app; listens only for admins (only their sockets get these events). */
export function useAdminLiveEvents(): void {
  const token = useSession((state) => state.token);
  const isAdmin = useSession((state) => state.user?.isAdmin === true);
  useEffect(() => {
    if (!token || !isAdmin) return;
    const socket = liveSocketFor(token);
    socket.on('connect', onConnect);
    socket.on('game:servers', onAdminGameServers);
    socket.on('command:update', onAdminCommandUpdate);
    socket.on('execution:result', refreshExecutionsSoon);
    socket.on('audit:entry', onAuditEntry);
    socket.on('mass:progress', onMassProgress);
    return () => {
      socket.off('connect', onConnect);
      socket.off('game:servers', onAdminGameServers);
      socket.off('command:update', onAdminCommandUpdate);
      socket.off('execution:result', refreshExecutionsSoon);
      socket.off('audit:entry', onAuditEntry);
      socket.off('mass:progress', onMassProgress);
      clearTimeout(executionsRefresh);
      executionsRefresh = undefined;
      useAdminLiveStore.getState().clear();
    };
  }, [token, isAdmin]);
}
