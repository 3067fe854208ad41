import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_NAME_MAX_LENGTH } from '@moonrelay/contract/constants';
import { API_KEY_ERRORS, type ApiKeyScope } from '@moonrelay/contract/api-keys';
import { ERRORS, VALIDATION } from '@moonrelay/contract/messages';
import { describeOnSQLite, type Engine } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { GAME_FETCH_ERRORS } from './executions.service.ts';

/**
 * POST /api/scripts/execute as the game client calls it (spec sections 6 and 7): `key` (the API key)
 * in the body, `script` (the name of one of the key owner's scripts) and optional `gameData`; the
 * answer is the script's code for the game to run itself. The call's other variants (code or
 * loadstring, with the credential in the Authorization header or, from the catalogue, in `key`)
 * keep working beside it.
 */
describeOnSQLite('the game client fetching a script by name', (engine) => {
  let server: TestServer;
  let serverCounter = 0;

  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.close());

  const execute = (body: unknown, token?: string) => server.call('POST', '/api/scripts/execute', { token, body });

  /** A fresh user with one script, so executions and counts are theirs alone. */
  async function userWithScript(name = 'Teleporter', code = 'print("teleporting")') {
    const user = await registerUser(server);
    const created = await server.call('POST', '/api/scripts', { token: user.token, body: { name, code } });
    expect(created.status).toBe(200);
    return { ...user, key: user.user.apiKey as string, script: created.body };
  }

  const executionsOf = (userId: string) =>
    server.app.database.db.selectFrom('executions').selectAll().where('userId', '=', userId).execute();

  it("answers the script's code, name and an empty output; the run counts and is recorded", async () => {
    const owner = await userWithScript();
    const res = await execute({ key: owner.key, script: 'Teleporter' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, code: 'print("teleporting")', name: 'Teleporter', output: '' });

    const [run, ...others] = await executionsOf(owner.user.id);
    expect(others).toEqual([]);
    expect(run).toMatchObject({
      scriptId: owner.script.id,
      target: 'game',
      status: 'succeeded',
      codeExcerpt: 'print("teleporting")',
      output: '',
      error: null,
    });
    const after = await server.call('GET', `/api/scripts/${owner.script.id}`, { token: owner.token });
    expect(after.body.executionCount).toBe(1);
  });

  it('finds the name as saved (trimmed), and the newest script when two share it', async () => {
    const owner = await userWithScript('Twice', 'print("older")');
    const newer = await server.call('POST', '/api/scripts', {
      token: owner.token,
      body: { name: 'Twice', code: 'print("newer")' },
    });
    const res = await execute({ key: owner.key, script: '  Twice ' });
    expect(res.body).toMatchObject({ name: 'Twice', code: 'print("newer")' });
    const [run] = await executionsOf(owner.user.id);
    expect(run!.scriptId).toBe(newer.body.id);
    // Names are matched exactly otherwise: case matters.
    expect((await execute({ key: owner.key, script: 'twice' })).status).toBe(404);
  });

  it('with gameData, is also the game server’s ping: its player data is recorded and its commands answered', async () => {
    const owner = await userWithScript();
    const game = new SimulatedGame({ url: server.url, key: owner.key, serverId: `sfg-${++serverCounter}` });
    await game.ping();
    const queued = await server.call('POST', '/api/game/command', {
      token: owner.token,
      body: { type: 'teleport', data: { x: 10, y: 60, z: -5 }, serverId: game.options.serverId },
    });
    expect(queued.status).toBe(200);

    game.position = { x: 1, y: 2, z: 3 };
    const res = await execute({
      key: owner.key,
      script: 'Teleporter',
      serverId: game.options.serverId,
      gameData: game.playerData(),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      code: 'print("teleporting")',
      name: 'Teleporter',
      output: '',
      commands: [{ id: queued.body.id, type: 'teleport', data: { x: 10, y: 60, z: -5 } }],
    });
    const status = await server.call('GET', '/api/game/status', { token: owner.token });
    const reported = status.body.servers.find((s: { serverId: string }) => s.serverId === game.options.serverId);
    expect(reported.gameData.position).toEqual({ x: 1, y: 2, z: 3 });

    // Delivered as a ping delivers it: taken (not delivered again while leased), its result reported on a ping.
    expect((await game.ping()).commands).toEqual([]);
    await game.run(res.body.commands[0]);
    await game.ping();
    const command = await server.app.database.db
      .selectFrom('gameCommands')
      .selectAll()
      .where('id', '=', queued.body.id)
      .executeTakeFirstOrThrow();
    expect(command.status).toBe('succeeded');
    expect(game.position).toEqual({ x: 10, y: 60, z: -5 });

    // A game with nothing waiting gets an empty list.
    const idle = await execute({ key: owner.key, script: 'Teleporter', gameData: { playerName: 'Idle' } });
    expect(idle.body.commands).toEqual([]);
  });

  it("answers 404 Script not found for a name the key's owner has not, another user's included", async () => {
    const owner = await userWithScript('Mine');
    const other = await userWithScript('Theirs');
    for (const name of ['Nope', 'Theirs', 'Mine '.repeat(2)]) {
      const res = await execute({ key: owner.key, script: name });
      expect(res.status, name).toBe(404);
      expect(res.body).toEqual({ error: ERRORS.scriptNotFound });
    }
    expect((await execute({ key: other.key, script: 'Theirs' })).status).toBe(200);
    expect(await executionsOf(owner.user.id)).toEqual([]);
  });

  it('answers 401 Invalid API key for a missing, malformed, unknown or replaced key', async () => {
    const owner = await userWithScript();
    const old = owner.key;
    const regenerated = await server.call('POST', '/api/user/regenerate-key', { token: owner.token });
    expect(regenerated.status).toBe(200);
    for (const body of [
      { script: 'Teleporter' },
      { key: '', script: 'Teleporter' },
      { key: 42, script: 'Teleporter' },
      { key: 'nope', script: 'Teleporter' },
      { key: 'mr_AAAAAAAAAAAAAAAAAAAAAA000000', script: 'Teleporter' },
      { key: old, script: 'Teleporter' },
      { key: old, code: 'print(1)' },
    ]) {
      const res = await execute(body);
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(res.body).toEqual({ error: ERRORS.invalidApiKey });
    }
    expect((await execute({ key: regenerated.body.apiKey, script: 'Teleporter' })).status).toBe(200);
  });

  it('lets the Authorization header decide when it names the caller', async () => {
    const alice = await userWithScript('Alice only');
    const bob = await userWithScript('Bob only');
    // Bob's header, Alice's key in the body: Bob's scripts are searched.
    expect((await execute({ key: alice.key, script: 'Alice only' }, bob.key)).status).toBe(404);
    expect((await execute({ key: alice.key, script: 'Bob only' }, bob.token)).body.name).toBe('Bob only');
    // The header's own refusal stands when the body brings no key.
    const badHeader = await execute({ code: 'print(1)', target: 'sandbox' }, 'mr_AAAAAAAAAAAAAAAAAAAAAA000000');
    expect(badHeader.status).toBe(401);
    expect(badHeader.body).toEqual({ error: ERRORS.invalidApiKey });
  });

  it('keeps the code variants: Bearer key or session, the catalogue’s key (the user token), and no credential', async () => {
    const owner = await userWithScript();
    const sandbox = { code: 'print("from the sandbox")', target: 'sandbox' };
    for (const [body, token] of [
      [sandbox, owner.key],
      [sandbox, owner.token],
      [{ loadstring: 'print("from the sandbox")', target: 'sandbox' }, owner.key],
      [{ ...sandbox, key: owner.token }, owner.token],
      [{ ...sandbox, key: owner.token }, undefined],
      [{ ...sandbox, key: owner.key }, undefined],
    ] as const) {
      const res = await execute(body, token);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toMatchObject({ success: true, output: 'from the sandbox\n', target: 'sandbox' });
    }
    const anonymous = await execute(sandbox);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: ERRORS.authenticationFailed });
    const badToken = await execute({ ...sandbox, key: 'mrs_not-a-session' });
    expect(badToken.status).toBe(401);
  });

  it('refuses bad bodies with 400 and the reason', async () => {
    const owner = await userWithScript();
    const cases: [unknown, string | RegExp][] = [
      [{ key: owner.key, script: '' }, VALIDATION.scriptNameRequired],
      [{ key: owner.key, script: '   ' }, VALIDATION.scriptNameRequired],
      [{ key: owner.key, script: 42 }, VALIDATION.scriptNameRequired],
      [{ key: owner.key, script: 'n'.repeat(SCRIPT_NAME_MAX_LENGTH + 1) }, VALIDATION.scriptNameTooLong],
      [{ key: owner.key, script: 'n'.repeat(500_000) }, VALIDATION.scriptNameTooLong],
      [{ key: owner.key, script: 'Teleporter', code: 'print(1)' }, VALIDATION.executeCodeOrScript],
      [{ key: owner.key, script: 'Teleporter', target: 'sandbox' }, VALIDATION.executeScriptTarget],
      [{ key: owner.key, script: 'Teleporter', gameData: { position: { x: 'far', y: 0, z: 0 } } }, /position/],
      [{ key: owner.key, script: 'Teleporter', gameData: 'here' }, /gameData/],
      [{ key: owner.key, script: 'Teleporter', serverId: 'bad id!' }, /serverId/],
      [{ key: owner.key, script: 'Tele\u0000porter' }, /U\+0000/],
      [{ key: owner.key }, VALIDATION.scriptCodeRequired],
    ];
    for (const [body, reason] of cases) {
      const res = await execute(body);
      const label = JSON.stringify(body).slice(0, 80);
      expect(res.status, label).toBe(400);
      expect(res.body.error, label).toMatch(reason);
    }
    // A key that is no key (too long for one) is refused before the body is read further.
    const longKey = await execute({ key: `${owner.key}${'x'.repeat(300)}`, script: 'Teleporter' });
    expect(longKey.status).toBe(401);
    expect(longKey.body).toEqual({ error: ERRORS.invalidApiKey });
    const notJson = await server.call('POST', '/api/scripts/execute', {
      raw: '{"key":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({ error: ERRORS.malformedJson });
    expect(await executionsOf(owner.user.id)).toEqual([]);
  });

  it('answers 400 with the Lua syntax error for a saved script that does not parse, and records nothing', async () => {
    const owner = await userWithScript('Broken', 'print(');
    const res = await execute({ key: owner.key, script: 'Broken' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Lua syntax error: /);
    expect(await executionsOf(owner.user.id)).toEqual([]);
  });
});

/**
 * The key that sits in a game (the integration key, `game` scope alone) fetches by name only what
 * its game is meant to run: the auto-execute scripts for that game, by the rule the shipped script
 * applies to its own list (autoExecuteGames: empty, `all`, or the game's id or place id enabled).
 * Its manual scripts stay unreadable to it, as `GET /api/scripts/{id}` is; keys that may read every
 * script (`scripts:read`: the personal key and scoped keys holding it) and sessions keep reading any
 * script by name (docs/decisions/029-scoped-api-keys.md, section of 2026-11-29).
 */
describeOnSQLite('fetching a script by name with a game key', (engine) => {
  let server: TestServer;
  let serverCounter = 0;
  const GAME_ID = 13058;
  const PLACE_ID = 1818;
  const thisGame = { playerName: 'Tester', gameId: GAME_ID, universeId: GAME_ID, placeId: PLACE_ID };
  const otherGame = { playerName: 'Tester', gameId: 999, universeId: 999, placeId: 998 };

  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.close());

  const execute = (body: unknown, token?: string) => server.call('POST', '/api/scripts/execute', { token, body });
  const executionsOf = (userId: string) =>
    server.app.database.db.selectFrom('executions').selectAll().where('userId', '=', userId).execute();

  /** A user with a manual script, auto-execute ones for every game and for one game, and their integration key. */
  async function owner() {
    const user = await registerUser(server);
    const save = async (body: Record<string, unknown>) => {
      const res = await server.call('POST', '/api/scripts', { token: user.token, body });
      expect(res.status, res.text).toBe(200);
      return res.body as { id: string };
    };
    const manual = await save({ name: 'Admin tools', code: 'print("secret admin tools")' });
    await save({ name: 'Everywhere', code: 'print("everywhere")', isAutoExecute: true });
    await save({
      name: 'All games',
      code: 'print("all games")',
      isAutoExecute: true,
      autoExecuteGames: { all: { enabled: true } },
    });
    await save({
      name: 'This game',
      code: 'print("this game")',
      isAutoExecute: true,
      gameId: String(GAME_ID),
      autoExecuteGames: { [GAME_ID]: { enabled: true, gameName: 'Test game' } },
    });
    await save({
      name: 'This place',
      code: 'print("this place")',
      isAutoExecute: true,
      autoExecuteGames: { [PLACE_ID]: { enabled: true } },
    });
    await save({
      name: 'Switched off',
      code: 'print("switched off")',
      isAutoExecute: true,
      autoExecuteGames: { all: { enabled: false }, [GAME_ID]: { enabled: false } },
    });
    const panel = await server.call('GET', '/api/game/integration-scripts', { token: user.token });
    expect(panel.status).toBe(200);
    const gameKey = /key=([A-Za-z0-9_]+)/.exec(panel.body.quickLoader)![1]!;
    return { ...user, personalKey: user.user.apiKey as string, gameKey, manual };
  }

  async function scopedKey(token: string, scopes: ApiKeyScope[]) {
    const res = await server.call('POST', '/api/user/api-keys', { token, body: { name: scopes.join(' '), scopes } });
    expect(res.status, res.text).toBe(200);
    return res.body.key as string;
  }

  it('refuses the integration key a manual script with 403 naming why, as GET /api/scripts/{id} refuses it', async () => {
    const { user, gameKey, manual } = await owner();
    for (const gameData of [undefined, thisGame]) {
      const res = await execute({ key: gameKey, script: 'Admin tools', ...(gameData ? { gameData } : {}) });
      expect(res.status, JSON.stringify(gameData)).toBe(403);
      expect(res.body).toEqual({ error: GAME_FETCH_ERRORS.manualScript });
      expect(JSON.stringify(res.body)).not.toContain('secret admin tools');
    }
    const byId = await server.call('GET', `/api/scripts/${manual.id}`, { token: gameKey });
    expect(byId.status).toBe(403);
    // A refused fetch is no run.
    expect(await executionsOf(user.id)).toEqual([]);
  });

  it('answers the integration key the auto-execute scripts its game runs, and only those', async () => {
    const { gameKey } = await owner();
    const fetched = async (script: string, gameData?: object) => {
      const res = await execute({ key: gameKey, script, ...(gameData ? { gameData } : {}) });
      return res.status === 200 ? (res.body.code as string) : res.body.error;
    };
    // Scripts for every game: with or without gameData.
    expect(await fetched('Everywhere')).toBe('print("everywhere")');
    expect(await fetched('All games', thisGame)).toBe('print("all games")');
    expect(await fetched('All games', otherGame)).toBe('print("all games")');
    // A script for one game (by its game id or its place id): that game only.
    expect(await fetched('This game', thisGame)).toBe('print("this game")');
    expect(await fetched('This place', thisGame)).toBe('print("this place")');
    expect(await fetched('This game', { ...thisGame, gameId: undefined, placeId: undefined })).toBe(
      'print("this game")',
    );
    expect(await fetched('This game', otherGame)).toBe(GAME_FETCH_ERRORS.otherGame);
    expect(await fetched('This place', otherGame)).toBe(GAME_FETCH_ERRORS.otherGame);
    // Without gameData the game is not known: a script for one game is not answered.
    expect(await fetched('This game')).toBe(GAME_FETCH_ERRORS.otherGame);
    // Every entry switched off: the game does not run it.
    expect(await fetched('Switched off', thisGame)).toBe(GAME_FETCH_ERRORS.otherGame);
    // An unknown name stays 404.
    expect(await fetched('Nope', thisGame)).toBe(ERRORS.scriptNotFound);
  });

  it('takes no commands when it refuses: the ping part of the call happens only with the script answered', async () => {
    const { token, gameKey } = await owner();
    const serverId = `gk-${++serverCounter}`;
    await server.call('POST', '/api/game/ping', { body: { key: gameKey, serverId, playerData: thisGame } });
    const queued = await server.call('POST', '/api/game/command', {
      token,
      body: { type: 'heal', data: {}, serverId },
    });
    expect(queued.status).toBe(200);
    const refused = await execute({ key: gameKey, script: 'Admin tools', serverId, gameData: thisGame });
    expect(refused.status).toBe(403);
    const answered = await execute({ key: gameKey, script: 'This game', serverId, gameData: thisGame });
    expect(answered.body.commands).toEqual([{ id: queued.body.id, type: 'heal', data: {} }]);
  });

  it('prefers, among scripts sharing the name, the newest one its game runs', async () => {
    const { token, gameKey, personalKey } = await owner();
    // A newer manual script of the same name (a draft) does not hide the auto-execute one from the game.
    await server.call('POST', '/api/scripts', { token, body: { name: 'Everywhere', code: 'print("draft")' } });
    expect((await execute({ key: gameKey, script: 'Everywhere' })).body.code).toBe('print("everywhere")');
    // A key that reads every script gets the newest, as before.
    expect((await execute({ key: personalKey, script: 'Everywhere' })).body.code).toBe('print("draft")');
  });

  it('keeps full read-by-name for sessions, the personal key and keys holding scripts:read', async () => {
    const { token, personalKey } = await owner();
    const readingRunner = await scopedKey(token, ['execute', 'scripts:read']);
    const readingGame = await scopedKey(token, ['game', 'scripts:read']);
    for (const [label, body, bearer] of [
      ['personal key in the body', { key: personalKey }, undefined],
      ['personal key as Bearer', {}, personalKey],
      ['session token in the body', { key: token }, undefined],
      ['session as Bearer', {}, token],
      ['execute and scripts:read key', { key: readingRunner }, undefined],
      ['game and scripts:read key', { key: readingGame, gameData: otherGame }, undefined],
    ] as const) {
      const res = await execute({ ...body, script: 'Admin tools' }, bearer);
      expect(res.status, label).toBe(200);
      expect(res.body.code, label).toBe('print("secret admin tools")');
    }
    // The route itself takes keys holding execute or game (contract/src/endpoints.ts), as before:
    // a key of scripts:read alone reads scripts through GET /api/scripts/{id} instead.
    const readerOnly = await scopedKey(token, ['scripts:read']);
    expect(await execute({ key: readerOnly, script: 'Admin tools' })).toMatchObject({
      status: 403,
      body: { error: API_KEY_ERRORS.scopeMissingPrefix + 'execute or game' },
    });
  });

  it('limits any key without scripts:read to the game view, and refuses keys with neither game nor scripts:read', async () => {
    const { token } = await owner();
    const gameAndExecute = await scopedKey(token, ['game', 'execute', 'commands']);
    const manual = await execute({ key: gameAndExecute, script: 'Admin tools', gameData: thisGame });
    expect(manual).toMatchObject({ status: 403, body: { error: GAME_FETCH_ERRORS.manualScript } });
    expect((await execute({ key: gameAndExecute, script: 'This game', gameData: thisGame })).status).toBe(200);
    const executeOnly = await scopedKey(token, ['execute']);
    for (const script of ['Admin tools', 'Everywhere']) {
      const res = await execute({ key: executeOnly, script });
      expect(res, script).toMatchObject({
        status: 403,
        body: { error: API_KEY_ERRORS.scopeMissingPrefix + 'game or scripts:read' },
      });
    }
    // Its code variant is untouched.
    const ran = await execute({ key: executeOnly, code: 'print(1)', target: 'sandbox' });
    expect(ran.status).toBe(200);
  });

  it('leaves the dashboard running a manual script on the game working: the command carries the code', async () => {
    const { token, gameKey, manual } = await owner();
    const game = new SimulatedGame({ url: server.url, key: gameKey, serverId: `gk-${++serverCounter}` });
    await game.ping();
    const run = server.call('POST', `/api/scripts/${manual.id}/execute`, {
      token,
      body: { serverId: game.options.serverId },
    });
    // The game takes the command on its ping, with the code in it, runs it and reports the result.
    let delivered: Awaited<ReturnType<SimulatedGame['ping']>>['commands'] = [];
    for (let i = 0; i < 100 && delivered.length === 0; i++) {
      delivered = (await game.ping()).commands;
      if (delivered.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(delivered).toEqual([
      expect.objectContaining({
        type: 'execute',
        data: expect.objectContaining({ code: 'print("secret admin tools")' }),
      }),
    ]);
    await game.ping();
    const answer = await run;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, output: 'secret admin tools\n' });
  });
});

describeOnSQLite('the game client fetching a script: rate limit', (engine: Engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { RATE_LIMIT_EXECUTION_PER_MINUTE: '3' });
  });
  afterAll(() => server.close());

  describe('each fetch spends the execution budget of the key', () => {
    it('shares it with the key’s other runs and answers 429 past it', async () => {
      const user = await registerUser(server);
      const key = user.user.apiKey as string;
      await server.call('POST', '/api/scripts', { token: user.token, body: { name: 'Tiny', code: 'print(1)' } });
      const fetchIt = () => server.call('POST', '/api/scripts/execute', { body: { key, script: 'Tiny' } });
      expect((await fetchIt()).headers.get('ratelimit-remaining')).toBe('2');
      const byBearer = await server.call('POST', '/api/scripts/execute', {
        token: key,
        body: { code: 'print(1)', target: 'sandbox' },
      });
      expect(byBearer.headers.get('ratelimit-remaining')).toBe('1');
      expect((await fetchIt()).status).toBe(200);
      const refused = await fetchIt();
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: ERRORS.tooManyRequests });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another user's key has its own budget.
      const other = await registerUser(server);
      await server.call('POST', '/api/scripts', { token: other.token, body: { name: 'Tiny', code: 'print(2)' } });
      const theirs = await server.call('POST', '/api/scripts/execute', {
        body: { key: other.user.apiKey, script: 'Tiny' },
      });
      expect(theirs.status).toBe(200);
    });
  });
});
