import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHARE_ERRORS } from '@moonrelay/contract/shares';
import { TEAM_HEADER } from '@moonrelay/contract/teams';
import { describeEachEngine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

type Person = Awaited<ReturnType<typeof registerUser>>;

/**
 * Sharing a script by a read-only link and copying it into a team (docs/decisions/049): the link
 * shows the script as it is now to anyone, copies into the team a request names, and stops when
 * the share, the script or the account goes. On both engines: the shares cascade with their rows.
 */
describeEachEngine('script shares', (engine) => {
  let server: TestServer;
  let owner: Person;
  let scriptId: string;

  const share = async (by: Person, id: string, headers: Record<string, string> = {}) => {
    const res = await server.call('POST', `/api/scripts/${id}/shares`, { token: by.token, headers });
    expect(res.status, res.text).toBe(200);
    return res.body as { id: string; token: string };
  };

  beforeAll(async () => {
    server = await startTestServer(engine);
    owner = await registerUser(server);
    const script = await server.call('POST', '/api/scripts', {
      token: owner.token,
      body: { name: 'Kill brick', description: 'Resets whoever touches it', code: 'print("v1")' },
    });
    scriptId = script.body.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('shows the shared script as it is now to anyone with the link, and lists the share', async () => {
    const { token, id } = await share(owner, scriptId);
    await server.call('PUT', `/api/scripts/${scriptId}`, { token: owner.token, body: { code: 'print("v2")' } });
    const shown = await server.call('GET', `/api/shared/${token}`);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toMatchObject({
      name: 'Kill brick',
      description: 'Resets whoever touches it',
      code: 'print("v2")',
      version: 2,
    });
    const listed = await server.call('GET', '/api/shares', { token: owner.token });
    expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(id);
    expect(listed.body.items[0]).toMatchObject({ scriptName: 'Kill brick', createdBy: owner.user.username });
  });

  it('copies a shared script into the team the request names, as a new script with its own history', async () => {
    const { token } = await share(owner, scriptId);
    const other = await registerUser(server);
    const team = await server.call('POST', '/api/teams', { token: other.token, body: { name: 'Copies' } });
    const copied = await server.call('POST', `/api/shared/${token}/copy`, {
      token: other.token,
      headers: { [TEAM_HEADER]: team.body.id },
    });
    expect(copied.status, copied.text).toBe(200);
    expect(copied.body).toMatchObject({ name: 'Kill brick', code: 'print("v2")' });
    expect(copied.body.id).not.toBe(scriptId);
    const inTeam = await server.call('GET', '/api/scripts', {
      token: other.token,
      headers: { [TEAM_HEADER]: team.body.id },
    });
    expect(inTeam.body.map((script: { id: string }) => script.id)).toEqual([copied.body.id]);
    const own = await server.call('GET', '/api/scripts', { token: other.token });
    expect(own.body).toEqual([]);
  });

  it('copies a script into another team only where the person may add scripts', async () => {
    const team = await server.call('POST', '/api/teams', { token: owner.token, body: { name: 'Target' } });
    const copied = await server.call('POST', `/api/scripts/${scriptId}/copy`, {
      token: owner.token,
      body: { teamId: team.body.id },
    });
    expect(copied.status, copied.text).toBe(200);
    const stranger = await registerUser(server);
    const strangersScript = await server.call('POST', '/api/scripts', {
      token: stranger.token,
      body: { name: 'Mine', code: 'print(1)' },
    });
    const refused = await server.call('POST', `/api/scripts/${strangersScript.body.id}/copy`, {
      token: stranger.token,
      body: { teamId: team.body.id },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(SHARE_ERRORS.targetTeam);
    // Someone else's script id names nothing for the stranger.
    const notTheirs = await server.call('POST', `/api/scripts/${scriptId}/copy`, {
      token: stranger.token,
      body: { teamId: stranger.user.id },
    });
    expect(notTheirs.status).toBe(404);
  });

  it('stops a link when its share, its script or its account goes', async () => {
    const first = await share(owner, scriptId);
    expect((await server.call('DELETE', `/api/shares/${first.id}`, { token: owner.token })).status).toBe(200);
    const gone = await server.call('GET', `/api/shared/${first.token}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe(SHARE_ERRORS.notFound);

    const temporary = await server.call('POST', '/api/scripts', {
      token: owner.token,
      body: { name: 'Temp', code: 'print(0)' },
    });
    const second = await share(owner, temporary.body.id);
    await server.call('DELETE', `/api/scripts/${temporary.body.id}`, { token: owner.token });
    expect((await server.call('GET', `/api/shared/${second.token}`)).status).toBe(404);

    const leaving = await registerUser(server);
    const theirs = await server.call('POST', '/api/scripts', {
      token: leaving.token,
      body: { name: 'Gone', code: 'print(9)' },
    });
    const third = await share(leaving, theirs.body.id);
    expect((await server.call('DELETE', '/api/user/account', { token: leaving.token })).status).toBe(200);
    expect((await server.call('GET', `/api/shared/${third.token}`)).status).toBe(404);
  });

  it("refuses to share or unshare another account's scripts", async () => {
    const stranger = await registerUser(server);
    expect((await server.call('POST', `/api/scripts/${scriptId}/shares`, { token: stranger.token })).status).toBe(404);
    const mine = await share(owner, scriptId);
    expect((await server.call('DELETE', `/api/shares/${mine.id}`, { token: stranger.token })).status).toBe(404);
    expect((await server.call('GET', `/api/shared/${mine.token}`)).status).toBe(200);
  });
});
