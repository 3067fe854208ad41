import { afterAll, beforeAll, expect, it } from 'vitest';
import { endpoints, type Endpoint, type EndpointName } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import { EXAMPLES } from '@moonrelay/contract/examples';
import {
  isTeamPermission,
  ROLE_PERMISSIONS,
  TEAM_ERRORS,
  TEAM_HEADER,
  type PresetRole,
  type TeamPermission,
} from '@moonrelay/contract/teams';
import { describeOnSQLite } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { missingPermission } from '../../security/team-permissions.ts';

type Person = Awaited<ReturnType<typeof registerUser>>;
const ALL = Object.entries(endpoints) as [EndpointName, Endpoint][];
const ROLES = Object.keys(ROLE_PERMISSIONS) as PresetRole[];
/** An id that names nothing: a permitted call then answers 404 or 400, never the permission's 403. */
const NOTHING = '00000000-0000-4000-8000-000000000000';

/** The contract's endpoints by what they serve: every one is in exactly one group. */
const teamEndpoints = ALL.filter(([, e]) => isTeamPermission(e.permission) || e.permission === 'member');
const otherEndpoints = ALL.filter(([, e]) => !teamEndpoints.some(([, t]) => t === e));

/**
 * The permission matrix (docs/decisions/049): every endpoint of the contract that acts on a team,
 * called by each preset role of a team, by a stranger with the team's id, and by a key a developer
 * made for the team. Each answer must be the one its declaration says: the permission's own 403 for
 * a role without it, anything but that for a role with it. Built from the contract, so a new
 * endpoint is in it the day it is added; the authorization step is the same on both engines.
 */
describeOnSQLite('the permission matrix', (engine) => {
  let server: TestServer;
  let teamId: string;
  const members = new Map<PresetRole, Person>();
  let stranger: Person;
  let developerKey: string;

  function requestOf(name: EndpointName, endpoint: Endpoint) {
    const example = EXAMPLES[name as keyof typeof EXAMPLES];
    const params: Record<string, string> = { ...(example?.params as Record<string, string> | undefined) };
    const path = endpoint.path.replace(/:(\w+)/g, (_, param: string) =>
      param === 'teamId' ? teamId : /^(userId|n)$/.test(param) && params[param] ? params[param] : NOTHING,
    );
    const query = example?.query ? `?${new URLSearchParams(example.query as Record<string, string>)}` : '';
    return { method: endpoint.method.toUpperCase(), path: `${path}${query}`, body: example?.body ?? undefined };
  }

  async function call(name: EndpointName, endpoint: Endpoint, authorization: string) {
    const { method, path, body } = requestOf(name, endpoint);
    const headers: Record<string, string> = { authorization };
    if (!endpoint.path.includes(':teamId')) headers[TEAM_HEADER] = teamId;
    // The conformance check of the test server is not the question here: a refusal is compared below.
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let error: unknown;
    try {
      error = (JSON.parse(text) as { error?: unknown }).error;
    } catch {
      error = undefined;
    }
    return { status: res.status, error };
  }

  beforeAll(async () => {
    server = await startTestServer(engine, {
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_EXECUTION_PER_MINUTE: '100000',
      GAME_EXECUTION_WAIT_MS: '50',
    });
    const owner = await registerUser(server);
    const created = await server.call('POST', '/api/teams', { token: owner.token, body: { name: 'Matrix' } });
    teamId = created.body.id;
    members.set('owner', owner);
    for (const role of ROLES.filter((each) => each !== 'owner')) {
      const person = await registerUser(server);
      const link = await server.call('POST', `/api/teams/${teamId}/invitations`, {
        token: owner.token,
        body: { role },
      });
      const joined = await server.call('POST', '/api/teams/join', {
        token: person.token,
        body: { token: link.body.token },
      });
      expect(joined.status, joined.text).toBe(200);
      members.set(role, person);
    }
    stranger = await registerUser(server);
    const key = await server.call('POST', '/api/user/api-keys', {
      token: members.get('developer')!.token,
      headers: { [TEAM_HEADER]: teamId },
      body: {
        name: 'Every scope',
        scopes: ['game', 'scripts:read', 'scripts:write', 'execute', 'commands', 'moderation'],
      },
    });
    expect(key.status, key.text).toBe(200);
    developerKey = key.body.key;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('puts every endpoint of the contract in the matrix or names what else it serves', () => {
    expect(teamEndpoints.length + otherEndpoints.length).toBe(ALL.length);
    expect(teamEndpoints.length).toBeGreaterThan(60);
    for (const [name, endpoint] of otherEndpoints) {
      expect(['own-account', 'signed-in', 'anyone', 'instance-admin'], name).toContain(endpoint.permission);
    }
  });

  // Deleting the team ends the matrix for everyone: its permitted call is left to teams.api.test.ts.
  // The game's own calls carry their key in the body or query, not a session: swept below.
  const swept = teamEndpoints.filter(([name, endpoint]) => name !== 'deleteTeam' && endpoint.auth !== 'game-key');
  /** A server error is wrong unless it is one the endpoint documents (an outside service down). */
  const serverError = (endpoint: Endpoint, status: number) =>
    status >= 500 && !(endpoint.errors as readonly number[]).includes(status);

  it.each(ROLES)('answers each endpoint for a %s as its declared permission says', async (role) => {
    const held = new Set<TeamPermission>(ROLE_PERMISSIONS[role]);
    const wrong: string[] = [];
    for (const [name, endpoint] of swept) {
      const { status, error } = await call(name, endpoint, `Bearer ${members.get(role)!.token}`);
      const { permission } = endpoint;
      const refusedForIt = status === 403 && isTeamPermission(permission) && error === missingPermission(permission);
      const expectRefusal = isTeamPermission(permission) && !held.has(permission);
      if (expectRefusal !== refusedForIt || status === 401 || serverError(endpoint, status)) {
        wrong.push(`${name} (${permission}): ${status} ${String(error)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("refuses a stranger every endpoint of the team, with the team's ids, and gives no data", async () => {
    const wrong: string[] = [];
    for (const [name, endpoint] of teamEndpoints.filter(([, each]) => each.auth !== 'game-key')) {
      const { status, error } = await call(name, endpoint, `Bearer ${stranger.token}`);
      const fromPath = endpoint.path.includes(':teamId');
      const expected = fromPath ? [404, TEAM_ERRORS.notFound] : [403, TEAM_ERRORS.headerInvalid];
      if (status !== expected[0] || error !== expected[1]) wrong.push(`${name}: ${status} ${String(error)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("holds a developer's key for the team to the developer's permissions, and to sessions where a session is needed", async () => {
    const held = new Set<TeamPermission>(ROLE_PERMISSIONS.developer);
    const wrong: string[] = [];
    for (const [name, endpoint] of swept) {
      const { status, error } = await call(name, endpoint, `Bearer ${developerKey}`);
      const { permission } = endpoint;
      if (endpoint.auth === 'session') {
        if (status !== 403 || error !== ERRORS.sessionRequired) wrong.push(`${name}: ${status} ${String(error)}`);
        continue;
      }
      // A key names no other team: its own is the one it acts on, header or not.
      const refusedForIt = status === 403 && isTeamPermission(permission) && error === missingPermission(permission);
      const expectRefusal = isTeamPermission(permission) && !held.has(permission);
      if (expectRefusal !== refusedForIt || status === 401 || serverError(endpoint, status)) {
        wrong.push(`${name} (${permission}): ${status} ${String(error)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("connects a game with a team's key only while its maker may run code in the live game", async () => {
    const ping = (key: string) => server.call('POST', '/api/game/ping', { body: { key, serverId: 'matrix-server' } });
    expect((await ping(developerKey)).status).toBe(200);

    const keyMaker = await registerUser(server);
    const owner = members.get('owner')!;
    const link = await server.call('POST', `/api/teams/${teamId}/invitations`, {
      token: owner.token,
      body: { permissions: ['keys.manage'] },
    });
    await server.call('POST', '/api/teams/join', { token: keyMaker.token, body: { token: link.body.token } });
    const key = await server.call('POST', '/api/user/api-keys', {
      token: keyMaker.token,
      headers: { [TEAM_HEADER]: teamId },
      body: { name: 'Game only', scopes: ['game'] },
    });
    expect(key.status, key.text).toBe(200);
    const refused = await ping(key.body.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(missingPermission('runs.game'));
  });
});
