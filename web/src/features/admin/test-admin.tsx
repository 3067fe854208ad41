import { vi } from 'vitest';
import type {
  AdminConnection,
  AdminConnectionList,
  AdminUser,
  AuditEntry,
  MassProgress,
  RecentExecution,
} from '@moonrelay/contract/admin';
import type { CommandView } from '@moonrelay/contract/game';
import type { AdminTeam } from '@moonrelay/contract/teams';
import { signInAs, testUser } from '../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../test/render.tsx';
import { AdminPanel } from './components/AdminPanel.tsx';
import { useAdminLiveEvents } from './live/useAdminLiveEvents.ts';

/** Fixtures and a harness for the Admin Panel's component tests. */

export const ADMIN_ID = 'a0000000-0000-4000-8000-000000000001';

export function adminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 'u2222222-0000-4000-8000-000000000002',
    name: 'Grace Hopper',
    username: 'grace',
    email: 'grace@example.com',
    isAdmin: false,
    apiKey: 'mr_GRACEabcdefghijklmnopWXYZ',
    scriptCount: 3,
    createdAt: '2026-02-03T10:00:00.000Z',
    ...overrides,
  };
}

export const ADA = adminUser({
  id: ADMIN_ID,
  name: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.com',
  isAdmin: true,
  apiKey: 'mr_ADAxyz0123456789abcdQRST',
  scriptCount: 12,
  createdAt: '2026-01-01T00:00:00.000Z',
});
export const GRACE = adminUser();
export const ALAN = adminUser({
  id: 'u3333333-0000-4000-8000-000000000003',
  name: 'Alan Turing',
  username: 'alan',
  email: 'alan@example.com',
  apiKey: null,
  scriptCount: 0,
});

export const pageOf = <T,>(items: T[], total = items.length, page = 1) => ({ items, total, page, pageSize: 50 });

/** A team as the Teams tab lists it: Grace owns it, Alan develops in it. */
export function adminTeam(overrides: Partial<AdminTeam> = {}): AdminTeam {
  return {
    id: 't1111111-0000-4000-8000-000000000001',
    name: 'Studio',
    scriptCount: 4,
    createdAt: '2026-02-10T10:00:00.000Z',
    members: [
      { userId: GRACE.id, username: GRACE.username, role: 'owner', permissions: [] },
      { userId: ALAN.id, username: ALAN.username, role: 'developer', permissions: [] },
    ],
    ...overrides,
  };
}

export function connection(overrides: Partial<AdminConnection> = {}): AdminConnection {
  return {
    userId: GRACE.id,
    userName: GRACE.name,
    userEmail: GRACE.email,
    isTeam: false,
    serverId: 'job-7f3a9c21-aaaa',
    isConnected: true,
    lastPing: new Date(Date.now() - 1000).toISOString(),
    gameData: { playerName: 'gracie', gameId: 606849621, position: { x: 10.4, y: 3.6, z: -7.6 }, health: 40 },
    ...overrides,
  };
}

export const connectionList = (items: AdminConnection[]): AdminConnectionList => ({
  items,
  connected: items.filter((item) => item.isConnected).length,
  total: items.length,
});

export function auditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 'audit-1',
    actorId: ADMIN_ID,
    actorName: 'ada',
    action: 'admin.key_regenerated',
    targetType: 'user',
    targetId: GRACE.id,
    details: {},
    createdAt: '2026-03-01T12:00:00.000Z',
    ...overrides,
  };
}

export function recentExecution(overrides: Partial<RecentExecution> = {}): RecentExecution {
  return {
    id: 'exec-1',
    userId: GRACE.id,
    userName: GRACE.name,
    targetId: GRACE.id,
    adminId: ADMIN_ID,
    adminName: 'Ada',
    details: { code: 'print("hello")' },
    scriptId: null,
    scriptName: null,
    target: 'game',
    status: 'succeeded',
    codeExcerpt: 'print("hello")',
    output: 'hello',
    error: null,
    durationMs: 12,
    createdAt: '2026-03-01T12:00:00.000Z',
    ...overrides,
  };
}

export function commandView(overrides: Partial<CommandView> = {}): CommandView {
  return {
    id: 'cmd-1',
    userId: GRACE.id,
    serverId: 'job-7f3a9c21-aaaa',
    type: 'heal',
    status: 'queued',
    source: 'admin',
    executionId: null,
    attempts: 0,
    output: null,
    error: null,
    durationMs: null,
    createdAt: '2026-03-01T12:00:00.000Z',
    deliveredAt: null,
    completedAt: null,
    ...overrides,
  };
}

export function progress(overrides: Partial<MassProgress> & Pick<MassProgress, 'userId' | 'status'>): MassProgress {
  return { batchId: 'batch-1', commandId: null, output: null, error: null, ...overrides };
}

type Routes = Parameters<typeof jsonFetch>[0];

/** The admin lists answering these pages unless a test says otherwise. */
export function defaultRoutes(): Routes {
  return {
    'GET /api/admin/users': () => ({ body: pageOf([ADA, GRACE, ALAN]) }),
    'GET /api/admin/teams': () => ({ body: pageOf([]) }),
    'GET /api/admin/connections': () => ({ body: connectionList([]) }),
    'GET /api/admin/recent-executions': () => ({ body: pageOf([]) }),
    'GET /api/admin/audit': () => ({ body: pageOf([]) }),
  };
}

/** The panel as the app mounts it (with the admin's live events), signed in as the admin Ada. */
function Harness() {
  useAdminLiveEvents();
  return <AdminPanel currentUserId={ADMIN_ID} />;
}

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** Renders the Admin Panel at `tab` against a stubbed API; records every call made. */
export function renderAdmin(routes: Routes = {}, tab = 'users') {
  signInAs(testUser({ id: ADMIN_ID, name: ADA.name, isAdmin: true }));
  const calls: Call[] = [];
  const handlers: Routes = {};
  for (const [key, handler] of Object.entries({ ...defaultRoutes(), ...routes })) {
    const [method = '', path = ''] = key.split(' ');
    handlers[key] = (body, url) => {
      calls.push({ method, path, body });
      return handler(body, url);
    };
  }
  const fetch = vi.fn(jsonFetch(handlers));
  vi.stubGlobal('fetch', fetch);
  const result = renderWithProviders(<Harness />, { route: `/admin?tab=${tab}` });
  const callsTo = (method: string, path: string) =>
    calls.filter((call) => call.method === method && call.path === path);
  return { ...result, fetch, calls, callsTo };
}
