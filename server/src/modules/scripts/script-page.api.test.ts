import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCRIPT_LIST_ERRORS } from '@moonrelay/contract/scripts';
import { TEAM_HEADER } from '@moonrelay/contract/teams';
import { describeOnSQLite } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { missingPermission } from '../../security/team-permissions.ts';

type Person = Awaited<ReturnType<typeof registerUser>>;

/**
 * GET /api/scripts/page over HTTP: the wiring of My Scripts' paged list (the query's cases, on
 * both engines, are in script-page.repo.test.ts).
 */
describeOnSQLite('My Scripts a page at a time (GET /api/scripts/page)', (engine) => {
  let server: TestServer;
  let owner: Person;
  /** The owner's scripts' names, most recently saved first. */
  const NEWEST_FIRST = ['Events', 'Rewards', 'Teleport', 'Speed', 'Fly Hack'];
  const ids = new Map<string, string>();

  const list = (query: string, token = owner.token, headers: Record<string, string> = {}) =>
    server.call('GET', `/api/scripts/page${query}`, { token, headers });
  const names = (body: { scripts: { name: string }[] }) => body.scripts.map((script) => script.name);

  beforeAll(async () => {
    server = await startTestServer(engine);
    owner = await registerUser(server);
    const made: [string, string | null, boolean][] = [
      ['Fly Hack', 'Lets you fly', true],
      ['Speed', 'Run FAST everywhere', false],
      ['Teleport', null, true],
      ['Rewards', 'Daily rewards', false],
      ['Events', 'Weekly events', false],
    ];
    for (const [name, description, isAutoExecute] of made) {
      const res = await server.call('POST', '/api/scripts', {
        token: owner.token,
        body: { name, description, code: `print("${name}")`, isAutoExecute },
      });
      expect(res.status, res.text).toBe(200);
      ids.set(name, res.body.id);
      // Each save at a later millisecond than the one before, so the order is the saves' order.
      while (Date.now() <= Date.parse(res.body.updatedAt)) await new Promise((next) => setImmediate(next));
    }
  });
  afterAll(() => server?.close());

  it('pages by cursor through more than a page, without code, the counts on every page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ total: 5, matching: 5 });
      for (const script of res.body.scripts) expect(script).not.toHaveProperty('code');
      seen.push(...names(res.body));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(NEWEST_FIRST);
    expect(pages).toBe(3);
    // The default page holds them all.
    const all = await list('');
    expect(names(all.body)).toEqual(NEWEST_FIRST);
    expect(all.body.nextCursor).toBeNull();
  });

  it('searches name and description in any case, and filters by type', async () => {
    const fast = await list('?q=fast');
    expect(names(fast.body)).toEqual(['Speed']);
    expect(fast.body).toMatchObject({ total: 5, matching: 1 });
    expect(names((await list('?q=%20FLY%20')).body)).toEqual(['Fly Hack']);
    expect(names((await list('?type=auto')).body)).toEqual(['Teleport', 'Fly Hack']);
    expect(names((await list('?type=manual&q=ly')).body)).toEqual(['Events', 'Rewards']);
  });

  it("never lists another account's scripts", async () => {
    const stranger = await registerUser(server);
    const res = await list('?q=fly', stranger.token);
    expect(res.body).toEqual({ scripts: [], nextCursor: null, total: 0, matching: 0 });
  });

  it('lists a team’s scripts to a member with scripts.read, and refuses one without it', async () => {
    const teamId = (await server.call('POST', '/api/teams', { token: owner.token, body: { name: 'Page team' } })).body
      .id as string;
    await server.call('POST', '/api/scripts', {
      token: owner.token,
      headers: { [TEAM_HEADER]: teamId },
      body: { name: 'Team tool', code: 'print(1)' },
    });
    const join = async (role: string) => {
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
      return person;
    };
    const viewer = await join('viewer');
    const seen = await list('', viewer.token, { [TEAM_HEADER]: teamId });
    expect(seen.status, seen.text).toBe(200);
    expect(names(seen.body)).toEqual(['Team tool']);
    const moderator = await join('moderator');
    const refused = await list('', moderator.token, { [TEAM_HEADER]: teamId });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: missingPermission('scripts.read') });
  });

  it('lists only the auto-execute scripts to a key of the game scope alone, and all to scripts:read', async () => {
    const key = async (scopes: string[]) => {
      const res = await server.call('POST', '/api/user/api-keys', {
        token: owner.token,
        body: { name: scopes.join(' '), scopes },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.key as string;
    };
    const game = await list('', await key(['game']));
    expect(names(game.body)).toEqual(['Teleport', 'Fly Hack']);
    expect(game.body).toMatchObject({ total: 2, matching: 2 });
    expect(names((await list('', await key(['scripts:read']))).body)).toEqual(NEWEST_FIRST);
    expect((await list('', await key(['execute']))).status).toBe(403);
  });

  it.each([
    ['?limit=500', 'limit: Too big: expected number to be <=100'],
    ['?limit=0', 'limit: Too small: expected number to be >=1'],
    ['?limit=ten', 'limit: Invalid input: expected number, received NaN'],
    ['?type=public', 'type: Invalid option: expected one of "all"|"auto"|"manual"'],
    ['?cursor=not-a-cursor', SCRIPT_LIST_ERRORS.invalidCursor],
  ])('answers 400 naming what is wrong for %s', async (query, error) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
  });

  it('leaves GET /api/scripts and GET /api/scripts/{id} as they were', async () => {
    const all = await server.call('GET', '/api/scripts', { token: owner.token });
    expect(all.body.map((script: { name: string }) => script.name)).toEqual(NEWEST_FIRST);
    expect(all.body[0].code).toBe('print("Events")');
    const one = await server.call('GET', `/api/scripts/${ids.get('Speed')}`, { token: owner.token });
    expect(one.body).toMatchObject({ name: 'Speed', code: 'print("Speed")' });
    expect((await server.call('GET', '/api/scripts/pages', { token: owner.token })).status).toBe(404);
  });
});
