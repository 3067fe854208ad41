import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_CODE_MAX_BYTES } from '@moonrelay/contract/constants';
import { ERRORS, VALIDATION } from '@moonrelay/contract/messages';
import { describeEachEngine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

describeEachEngine('scripts API', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(engine);
    ({ token } = await registerUser(server));
  });
  afterAll(() => server.close());

  const create = (body: unknown, as = token) => server.call('POST', '/api/scripts', { token: as, body });

  it('creates a script with every field of the entity', async () => {
    const res = await create({
      name: '  Teleport loop  ',
      description: 'Moves the player',
      code: 'for i = 1, 3 do print(i) end',
      isAutoExecute: true,
      isPublic: true,
      gameId: 920587237,
      gameName: 'Adopt Me!',
      gameImageUrl: 'https://example.com/icon.png',
      autoExecuteGames: { all: { enabled: false }, '920587237': { enabled: true, gameName: 'Adopt Me!' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Teleport loop',
      description: 'Moves the player',
      isAutoExecute: true,
      isPublic: true,
      executionCount: 0,
      gameId: '920587237',
      gameName: 'Adopt Me!',
      autoExecuteGames: { all: { enabled: false }, '920587237': { enabled: true, gameName: 'Adopt Me!' } },
    });
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  it('defaults optional fields', async () => {
    const res = await create({ name: 'Plain', code: 'print("hi")' });
    expect(res.body).toMatchObject({
      description: null,
      isAutoExecute: false,
      isPublic: false,
      gameId: null,
      autoExecuteGames: null,
    });
  });

  it.each([
    [{ name: '   ', code: 'print(1)' }, VALIDATION.scriptNameRequired],
    [{ code: 'print(1)' }, VALIDATION.scriptNameRequired],
    [{ name: 'x', code: ' \n ' }, VALIDATION.scriptCodeRequired],
    [{ name: 'x' }, VALIDATION.scriptCodeRequired],
    [{ name: 'x'.repeat(201), code: 'print(1)' }, VALIDATION.scriptNameTooLong],
    [
      { name: 'x', code: 'print(1)', isAutoExecute: 'yes' },
      'isAutoExecute: Invalid input: expected boolean, received string',
    ],
    [
      { name: 'x', code: 'print(1)', autoExecuteGames: { all: { enabled: 'no' } } },
      'autoExecuteGames.all.enabled: Invalid input: expected boolean, received string',
    ],
    [
      { name: 'x', code: 'print(1)', autoExecuteGames: [] },
      'autoExecuteGames: Invalid input: expected record, received array',
    ],
  ])('refuses %j', async (body, message) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('accepts 1 MiB of code and refuses more', async () => {
    const code = '-' + '-'.repeat(SCRIPT_CODE_MAX_BYTES - 1);
    const ok = await create({ name: 'big', code });
    expect(ok.status).toBe(200);
    expect(ok.body.code.length).toBe(SCRIPT_CODE_MAX_BYTES);
    const multiByte = '€'.repeat(SCRIPT_CODE_MAX_BYTES / 3 + 1);
    const tooBig = await create({ name: 'too big', code: multiByte });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error).toBe(VALIDATION.scriptCodeTooLarge);
  });

  it('lists the user’s scripts, most recently updated first', async () => {
    const { token: own } = await registerUser(server);
    const a = await create({ name: 'A', code: 'print(1)' }, own);
    const b = await create({ name: 'B', code: 'print(2)' }, own);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await server.call('PUT', `/api/scripts/${a.body.id}`, { token: own, body: { code: 'print(3)' } });
    const list = await server.call('GET', '/api/scripts', { token: own });
    expect(list.body.map((s: { name: string }) => s.name)).toEqual(['A', 'B']);
    expect(list.body[1].id).toBe(b.body.id);
  });

  describe('get one', () => {
    it("answers one of the caller's scripts, by session or API key", async () => {
      const { token: own, user } = await registerUser(server);
      const created = await create({ name: 'Single', description: 'one', code: 'print("one")' }, own);
      for (const credential of [own, user.apiKey as string]) {
        const res = await server.call('GET', `/api/scripts/${created.body.id}`, { token: credential });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(created.body);
      }
    });

    it("answers 404 Script not found for an unknown id and for another user's script", async () => {
      const mallory = await registerUser(server);
      const victim = await create({ name: 'Private', code: 'print("mine")' });
      for (const [id, credential] of [
        [victim.body.id, mallory.token],
        [victim.body.id, mallory.user.apiKey],
        ['00000000-0000-4000-8000-000000000000', token],
        ['not-a-uuid', token],
        ['x'.repeat(5000), token],
        [encodeURIComponent('../scripts'), token],
      ]) {
        const res = await server.call('GET', `/api/scripts/${id}`, { token: credential });
        expect(res.status, id.slice(0, 40)).toBe(404);
        expect(res.body).toEqual({ error: ERRORS.scriptNotFound });
      }
    });

    it('answers 401 without a credential or with a bad one, and 400 for an id holding NUL', async () => {
      const created = await create({ name: 'Guarded', code: 'print(1)' });
      const path = `/api/scripts/${created.body.id}`;
      const none = await server.call('GET', path);
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ error: ERRORS.authenticationFailed });
      const badKey = await server.call('GET', path, { token: 'mr_AAAAAAAAAAAAAAAAAAAAAA000000' });
      expect(badKey.status).toBe(401);
      expect(badKey.body).toEqual({ error: ERRORS.invalidApiKey });
      const nul = await server.call('GET', '/api/scripts/a%00b', { token });
      expect(nul.status).toBe(400);
    });
  });

  describe('update', () => {
    it('takes code only, keeping the other fields', async () => {
      const created = await create({ name: 'Keep', description: 'd', code: 'print(1)', isAutoExecute: true });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await server.call('PUT', `/api/scripts/${created.body.id}`, { token, body: { code: 'print(2)' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Keep', description: 'd', code: 'print(2)', isAutoExecute: true });
      expect(res.body.updatedAt > created.body.updatedAt).toBe(true);
      expect(res.body.createdAt).toBe(created.body.createdAt);
    });

    it('takes the full shape, and null clears optional fields', async () => {
      const created = await create({ name: 'Full', description: 'd', code: 'print(1)', gameId: '1' });
      const res = await server.call('PUT', `/api/scripts/${created.body.id}`, {
        token,
        body: {
          name: 'Renamed',
          description: null,
          code: 'print(9)',
          isAutoExecute: true,
          isPublic: false,
          gameId: null,
        },
      });
      expect(res.body).toMatchObject({
        name: 'Renamed',
        description: null,
        code: 'print(9)',
        isAutoExecute: true,
        gameId: null,
      });
    });

    it('refuses an empty update and a blank name', async () => {
      const created = await create({ name: 'x', code: 'print(1)' });
      const empty = await server.call('PUT', `/api/scripts/${created.body.id}`, { token, body: {} });
      expect(empty.status).toBe(400);
      expect(empty.body.error).toBe(VALIDATION.scriptUpdateEmpty);
      const blank = await server.call('PUT', `/api/scripts/${created.body.id}`, { token, body: { name: ' ' } });
      expect(blank.body.error).toBe(VALIDATION.scriptNameRequired);
    });

    it('answers 404 for an unknown id', async () => {
      const res = await server.call('PUT', '/api/scripts/00000000-0000-4000-8000-000000000000', {
        token,
        body: { code: 'print(1)' },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: ERRORS.scriptNotFound });
    });
  });

  it('deletes a script', async () => {
    const created = await create({ name: 'Doomed', code: 'print(1)' });
    const res = await server.call('DELETE', `/api/scripts/${created.body.id}`, { token });
    expect(res.body).toEqual({ success: true });
    const again = await server.call('DELETE', `/api/scripts/${created.body.id}`, { token });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe(ERRORS.scriptNotFound);
  });

  it('keeps each user to their own scripts', async () => {
    const mallory = await registerUser(server);
    const victim = await create({ name: 'Secret', code: 'print("secret")' });
    const id = victim.body.id;

    const update = await server.call('PUT', `/api/scripts/${id}`, { token: mallory.token, body: { code: 'print(0)' } });
    expect(update.status).toBe(404);
    expect(update.body.error).toBe(ERRORS.scriptNotFound);
    const remove = await server.call('DELETE', `/api/scripts/${id}`, { token: mallory.token });
    expect(remove.status).toBe(404);
    const byKey = await server.call('PUT', `/api/scripts/${id}`, { token: mallory.user.apiKey, body: { name: 'x' } });
    expect(byKey.status).toBe(404);
    expect((await server.call('GET', '/api/scripts', { token: mallory.token })).body).toEqual([]);

    const list = await server.call('GET', '/api/scripts', { token });
    expect(list.body.find((s: { id: string }) => s.id === id)?.code).toBe('print("secret")');
  });

  it('serves the game client by API key', async () => {
    const { token: own, user } = await registerUser(server);
    await create({ name: 'Auto', code: 'print(1)', isAutoExecute: true }, own);
    const res = await server.call('GET', '/api/scripts', { token: user.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.map((s: { name: string }) => s.name)).toEqual(['Auto']);
  });

  it('requires authentication', async () => {
    const res = await server.call('GET', '/api/scripts');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: ERRORS.authenticationFailed });
  });
});
