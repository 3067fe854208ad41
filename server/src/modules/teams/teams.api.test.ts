import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLE_PERMISSIONS, TEAM_ERRORS, TEAM_HEADER, TEAM_PERMISSIONS } from '@moonrelay/contract/teams';
import { describeEachEngine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

type Person = Awaited<ReturnType<typeof registerUser>>;

/**
 * Teams end to end over HTTP: a team, an invitation link, a member acting on the team's data with
 * the header, roles bounding what they may do, and the refusals (a used or forged link, granting
 * what one lacks, the last owner, a stranger with the team's ids). On both engines: the owner rule
 * and the single-use link are conditional writes under a lock.
 */
describeEachEngine('teams', (engine) => {
  let server: TestServer;
  let owner: Person;
  let teamId: string;

  const asMember = (person: Person, extra: Record<string, string> = {}) => ({
    token: person.token,
    headers: { [TEAM_HEADER]: teamId, ...extra },
  });

  async function invite(by: Person, body: Record<string, unknown>) {
    const res = await server.call('POST', `/api/teams/${teamId}/invitations`, { token: by.token, body });
    expect(res.status, res.text).toBe(200);
    return res.body.token as string;
  }

  async function join(person: Person, token: string) {
    return server.call('POST', '/api/teams/join', { token: person.token, body: { token } });
  }

  async function memberWith(role: keyof typeof ROLE_PERMISSIONS): Promise<Person> {
    const person = await registerUser(server);
    const joined = await join(person, await invite(owner, { role }));
    expect(joined.status, joined.text).toBe(200);
    return person;
  }

  beforeAll(async () => {
    server = await startTestServer(engine);
    owner = await registerUser(server);
    const created = await server.call('POST', '/api/teams', { token: owner.token, body: { name: 'Obby Studio' } });
    expect(created.status, created.text).toBe(200);
    teamId = created.body.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the personal team first, then the teams one belongs to, with the role in each', async () => {
    const res = await server.call('GET', '/api/teams', { token: owner.token });
    expect(res.status).toBe(200);
    expect(
      res.body.map((team: { name: string; role: string; personal: boolean }) => [team.personal, team.role]),
    ).toEqual([
      [true, 'owner'],
      [false, 'owner'],
    ]);
    expect(res.body[1]).toMatchObject({ id: teamId, name: 'Obby Studio', members: 1 });
  });

  it("keeps a team's scripts apart from its members' own", async () => {
    const inTeam = await server.call('POST', '/api/scripts', {
      ...asMember(owner),
      body: { name: 'Team script', code: 'print(1)' },
    });
    expect(inTeam.status, inTeam.text).toBe(200);
    const own = await server.call('GET', '/api/scripts', { token: owner.token });
    expect(own.body.map((script: { name: string }) => script.name)).not.toContain('Team script');
    const team = await server.call('GET', '/api/scripts', asMember(owner));
    expect(team.body.map((script: { name: string }) => script.name)).toEqual(['Team script']);
  });

  it('lets a developer write scripts and a moderator only read players, each refusal naming the permission', async () => {
    const developer = await memberWith('developer');
    const moderator = await memberWith('moderator');
    const written = await server.call('POST', '/api/scripts', {
      ...asMember(developer),
      body: { name: 'By the developer', code: 'print(2)' },
    });
    expect(written.status, written.text).toBe(200);
    // The script's history names the developer who saved it, not the team.
    const versions = await server.call('GET', `/api/scripts/${written.body.id}/versions`, asMember(owner));
    expect(versions.body.items[0].savedBy).toBe(developer.user.name);

    const refused = await server.call('POST', '/api/scripts', {
      ...asMember(moderator),
      body: { name: 'By the moderator', code: 'print(3)' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(`${TEAM_ERRORS.permissionMissingPrefix}scripts.write`);
    expect((await server.call('GET', '/api/players', asMember(moderator))).status).toBe(200);
    const run = await server.call('POST', '/api/scripts/execute', {
      ...asMember(moderator),
      body: { code: 'print(1)', target: 'sandbox' },
    });
    expect(run.status).toBe(403);
    // Running in the live game asks more than the sandbox does.
    const viewer = await memberWith('viewer');
    const live = await server.call('POST', '/api/scripts/execute', {
      ...asMember(viewer),
      body: { code: 'print(1)', target: 'game' },
    });
    expect(live.body.error).toBe(`${TEAM_ERRORS.permissionMissingPrefix}runs.sandbox`);
  });

  it("names the moderator, not the team, in the team's moderation history", async () => {
    const moderator = await memberWith('moderator');
    // A player on the team's game server, reported by a game key of the team's.
    const key = await server.call('POST', '/api/user/api-keys', {
      ...asMember(owner),
      body: { name: 'Game', scopes: ['game'] },
    });
    const ping = await server.call('POST', '/api/game/ping', {
      body: {
        key: key.body.key,
        serverId: 'team-server',
        roster: {
          count: 1,
          players: [{ userId: 156, name: 'builderman', displayName: 'Builder', accountAgeDays: 7215 }],
        },
      },
    });
    expect(ping.status, ping.text).toBe(200);
    const noted = await server.call('POST', '/api/players/156/notes', {
      ...asMember(moderator),
      body: { text: 'Spams chat' },
    });
    expect(noted.status, noted.text).toBe(200);
    expect(noted.body.actorName).toBe(moderator.user.username);
    const history = await server.call('GET', '/api/players/156/moderation', asMember(owner));
    expect(history.body.actions.map((action: { actorName: string }) => action.actorName)).toEqual([
      moderator.user.username,
    ]);
  });

  it("keeps the team's activity: who joined, who changed whom, the moderation, filtered and paged on the server", async () => {
    const moderator = await memberWith('moderator');
    await server.call('PUT', `/api/teams/${teamId}/members/${moderator.user.id}`, {
      token: owner.token,
      body: { permissions: [...ROLE_PERMISSIONS.moderator, 'audit.read'] },
    });
    await server.call('POST', '/api/players/156/notes', { ...asMember(moderator), body: { text: 'Seen again' } });
    const activity = (query = '') => server.call('GET', `/api/teams/${teamId}/activity${query}`, asMember(moderator));

    const all = await activity();
    expect(all.status, all.text).toBe(200);
    const byModerator = all.body.items.filter((entry: { actorId: string }) => entry.actorId === moderator.user.id);
    expect(byModerator.map((entry: { action: string }) => entry.action)).toEqual([
      'moderation.note',
      'team.member_joined',
    ]);
    const changed = all.body.items.find(
      (entry: { action: string; details: { userId?: string } }) =>
        entry.action === 'team.member_changed' && entry.details.userId === moderator.user.id,
    );
    expect(changed).toMatchObject({ actorName: owner.user.username, details: { from: 'moderator', to: 'custom' } });

    const moderation = await activity(`?action=moderation.&actorId=${moderator.user.id}`);
    expect(moderation.body.items.map((entry: { action: string }) => entry.action)).toEqual(['moderation.note']);

    // One entry a page: every entry once, in order, however the pages are cut.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await activity(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...page.body.items.map((entry: { id: string }) => entry.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(walked).toEqual(all.body.items.map((entry: { id: string }) => entry.id));
    expect((await activity('?cursor=not-a-cursor')).status).toBe(400);

    const viewer = await memberWith('viewer');
    const refused = await server.call('GET', `/api/teams/${teamId}/activity`, asMember(viewer));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(`${TEAM_ERRORS.permissionMissingPrefix}audit.read`);
  });

  it("lists teams with their members on the admin panel's Teams tab, and only people on its Users tab", async () => {
    // The first account of the server is its admin.
    const teamsTab = await server.call('GET', '/api/admin/teams?pageSize=100', { token: owner.token });
    expect(teamsTab.status, teamsTab.text).toBe(200);
    const listed = teamsTab.body.items.find((team: { id: string }) => team.id === teamId);
    expect(listed.name).toBe('Obby Studio');
    expect(listed.members[0]).toMatchObject({ userId: owner.user.id, username: owner.user.username, role: 'owner' });
    const usersTab = await server.call('GET', '/api/admin/users?pageSize=100', { token: owner.token });
    const ids = usersTab.body.items.map((user: { id: string }) => user.id);
    expect(ids).toContain(owner.user.id);
    expect(ids).not.toContain(teamId);
    expect(usersTab.body.total).toBe(ids.length);
  });

  it('refuses a used, a forged and a revoked link, and one for a team one already belongs to', async () => {
    const token = await invite(owner, { role: 'viewer' });
    const first = await registerUser(server);
    // What the link offers, before it is used (and looking uses nothing up).
    const preview = await server.call('GET', `/api/teams/invitations/${token}`, { token: first.token });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ teamName: 'Obby Studio', role: 'viewer', invitedBy: owner.user.username });
    expect((await join(first, token)).status).toBe(200);
    const second = await registerUser(server);
    const used = await join(second, token);
    expect(used.status).toBe(410);
    expect(used.body.error).toBe(TEAM_ERRORS.invitationUsed);
    expect((await server.call('GET', `/api/teams/invitations/${token}`, { token: second.token })).status).toBe(410);
    expect((await join(second, 'x'.repeat(32))).status).toBe(404);
    expect((await join(first, await invite(owner, { role: 'viewer' }))).body.error).toBe(TEAM_ERRORS.alreadyMember);

    const revoked = await server.call('POST', `/api/teams/${teamId}/invitations`, {
      token: owner.token,
      body: { role: 'viewer' },
    });
    const gone = await server.call('DELETE', `/api/teams/${teamId}/invitations/${revoked.body.id}`, {
      token: owner.token,
    });
    expect(gone.status).toBe(200);
    expect((await join(second, revoked.body.token)).status).toBe(404);
  });

  it('refuses an expired link, in its preview and when joining', async () => {
    const token = await invite(owner, { role: 'viewer' });
    // Its 72 hours are over.
    await server.app.database.db
      .updateTable('teamInvitations')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('teamId', '=', teamId)
      .where('usedAt', 'is', null)
      .execute();
    const person = await registerUser(server);
    const preview = await server.call('GET', `/api/teams/invitations/${token}`, { token: person.token });
    expect(preview.status).toBe(410);
    const joined = await join(person, token);
    expect(joined.status).toBe(410);
    expect(joined.body.error).toBe(TEAM_ERRORS.invitationExpired);
  });

  it('lets one of two people racing for one link join, never both', async () => {
    const token = await invite(owner, { role: 'viewer' });
    const [a, b] = await Promise.all([registerUser(server), registerUser(server)]);
    const answers = await Promise.all([join(a, token), join(b, token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410]);
  });

  it('lets a member grant only what they hold, and change only members whose permissions they hold', async () => {
    const admin = await memberWith('admin');
    const tooMuch = await server.call('POST', `/api/teams/${teamId}/invitations`, {
      token: admin.token,
      body: { role: 'owner' },
    });
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.body.error).toBe(TEAM_ERRORS.cannotGrant);
    const demoteOwner = await server.call('PUT', `/api/teams/${teamId}/members/${owner.user.id}`, {
      token: admin.token,
      body: { role: 'viewer' },
    });
    expect(demoteOwner.status).toBe(403);

    const developer = await memberWith('developer');
    const custom = await server.call('PUT', `/api/teams/${teamId}/members/${developer.user.id}`, {
      token: admin.token,
      body: { permissions: ['scripts.read', 'console.read'] },
    });
    expect(custom.status, custom.text).toBe(200);
    expect(custom.body).toMatchObject({ role: 'custom', permissions: ['scripts.read', 'console.read'] });
    // The change counts from the member's very next request.
    const next = await server.call('POST', '/api/scripts', {
      ...asMember(developer),
      body: { name: 'After', code: 'print(4)' },
    });
    expect(next.status).toBe(403);
  });

  it('keeps an owner: the last one can neither leave nor be demoted, and two owners demoting each other at once leave one', async () => {
    const alone = await server.call('POST', '/api/teams', { token: owner.token, body: { name: 'Two owners' } });
    const pairTeam = alone.body.id as string;
    const leave = await server.call('DELETE', `/api/teams/${pairTeam}/members/${owner.user.id}`, {
      token: owner.token,
    });
    expect(leave.status).toBe(409);
    expect(leave.body.error).toBe(TEAM_ERRORS.lastOwner);

    const other = await registerUser(server);
    const link = await server.call('POST', `/api/teams/${pairTeam}/invitations`, {
      token: owner.token,
      body: { role: 'owner' },
    });
    expect((await join(other, link.body.token)).status).toBe(200);
    const demote = (by: Person, whom: Person) =>
      server.call('PUT', `/api/teams/${pairTeam}/members/${whom.user.id}`, {
        token: by.token,
        body: { role: 'viewer' },
      });
    const answers = await Promise.all([demote(owner, other), demote(other, owner)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    const details = await server.call('GET', `/api/teams/${pairTeam}`, { token: owner.token });
    const owners = details.body.memberList.filter((member: { role: string }) => member.role === 'owner');
    expect(owners).toHaveLength(1);
  });

  it("answers a stranger with the team's ids as if the team did not exist, and gives them no data", async () => {
    const stranger = await registerUser(server);
    const scripts = await server.call('GET', '/api/scripts', asMember(stranger));
    expect(scripts.status).toBe(403);
    expect(scripts.body.error).toBe(TEAM_ERRORS.headerInvalid);
    expect((await server.call('GET', `/api/teams/${teamId}`, { token: stranger.token })).status).toBe(404);
    const invite = await server.call('POST', `/api/teams/${teamId}/invitations`, {
      token: stranger.token,
      body: { role: 'viewer' },
    });
    expect(invite.status).toBe(404);
    // The team's own id as a key of the stranger's names nothing either.
    const withKey = await server.call('GET', '/api/scripts', {
      headers: { authorization: `Bearer ${stranger.user.apiKey}`, [TEAM_HEADER]: teamId },
    });
    expect(withKey.status).toBe(403);
  });

  it("stops a member's key for the team the moment they are removed", async () => {
    const developer = await memberWith('developer');
    const key = await server.call('POST', '/api/user/api-keys', {
      ...asMember(developer),
      body: { name: 'CI', scopes: ['scripts:read'] },
    });
    expect(key.status, key.text).toBe(200);
    const bearer = { headers: { authorization: `Bearer ${key.body.key}` } };
    const before = await server.call('GET', '/api/scripts', bearer);
    expect(before.status).toBe(200);
    expect(before.body.map((script: { name: string }) => script.name)).toContain('Team script');

    const removed = await server.call('DELETE', `/api/teams/${teamId}/members/${developer.user.id}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(200);
    const after = await server.call('GET', '/api/scripts', bearer);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe(TEAM_ERRORS.keyCreatorGone);
    expect((await server.call('GET', '/api/scripts', asMember(developer))).status).toBe(403);
  });

  it('bounds a key by what its maker holds now, not what they held when they made it', async () => {
    const developer = await memberWith('developer');
    const key = await server.call('POST', '/api/user/api-keys', {
      ...asMember(developer),
      body: { name: 'Writer', scopes: ['scripts:write'] },
    });
    const bearer = { headers: { authorization: `Bearer ${key.body.key}` } };
    const made = await server.call('POST', '/api/scripts', { ...bearer, body: { name: 'Via key', code: 'print(5)' } });
    expect(made.status, made.text).toBe(200);
    await server.call('PUT', `/api/teams/${teamId}/members/${developer.user.id}`, {
      token: owner.token,
      body: { role: 'viewer' },
    });
    const refused = await server.call('POST', '/api/scripts', { ...bearer, body: { name: 'Again', code: 'print(6)' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(`${TEAM_ERRORS.permissionMissingPrefix}scripts.write`);
  });

  it('refuses to delete the account of the last owner of a team that has other members, naming the team', async () => {
    const person = await registerUser(server);
    const team = await server.call('POST', '/api/teams', { token: person.token, body: { name: 'Left behind' } });
    const link = await server.call('POST', `/api/teams/${team.body.id}/invitations`, {
      token: person.token,
      body: { role: 'viewer' },
    });
    const member = await registerUser(server);
    expect((await join(member, link.body.token)).status).toBe(200);
    const refused = await server.call('DELETE', '/api/user/account', { token: person.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('Left behind');

    // A team with nobody else in it goes with the account.
    const solo = await registerUser(server);
    const soloTeam = await server.call('POST', '/api/teams', { token: solo.token, body: { name: 'Solo' } });
    expect((await server.call('DELETE', '/api/user/account', { token: solo.token })).status).toBe(200);
    const row = await server.app.database.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', soloTeam.body.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('states the permission of every operation in the OpenAPI document', async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).body;
    const operations = Object.values(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
      (methods) => Object.values(methods),
    );
    const allowed = new Set<string>([
      ...TEAM_PERMISSIONS,
      'member',
      'own-account',
      'signed-in',
      'anyone',
      'instance-admin',
    ]);
    const declared = operations.filter((operation) => operation.operationId).map((o) => o['x-moonrelay-permission']);
    expect(declared.length).toBeGreaterThan(100);
    expect(declared.filter((permission) => !allowed.has(String(permission)))).toEqual([]);
  });
});
