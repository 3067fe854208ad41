import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { SCRIPT_CODE_MAX_BYTES } from '@moonrelay/contract/constants';
import { CATALOGUE_ERRORS, VALIDATION } from '@moonrelay/contract/messages';
import { describeOnSQLite } from '../../../test/engines.ts';
import { startEmulatedGame, type EmulatedGame } from '../../../test/roblox-emulation/emulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { renderGameIntegration } from '../game/integration-scripts.ts';
import { loadServerSecret } from '../../security/server-secret.ts';
import { createScriptTokens } from './script-tokens.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const INVALID = { error: 'Invalid or revoked script token' };

/** A long script (over the 10 000 character threshold) that prints `marker` when it runs. */
function longScript(marker: string): string {
  const lines = ['local sum = 0'];
  for (let i = 1; i <= 500; i += 1) lines.push(`sum = sum + ${i} -- a line that makes this script long enough`);
  lines.push(`print("${marker}", sum)`);
  return lines.join('\n');
}

describeOnSQLite('long scripts: POST /api/scripts/temp and the loader URL', (engine) => {
  let server: TestServer;
  let token: string;
  let apiKey: string;
  const games: EmulatedGame[] = [];

  beforeAll(async () => {
    server = await startTestServer(engine);
    ({ token } = await registerUser(server));
    apiKey = (await server.call('GET', '/api/user', { token })).body.apiKey;
  });
  afterEach(async () => {
    await Promise.all(games.splice(0).map((game) => game.stop()));
  });
  afterAll(() => server.close());

  const keep = (script: unknown, as = token) =>
    server.call('POST', '/api/scripts/temp', { token: as, body: { script } });
  /** Fetches a loader URL as a game does: no credential but the token in it. */
  const load = (url: string) => server.call('GET', url.slice(server.url.length));

  it('keeps the code and answers a one-line loader whose URL answers the code as text', async () => {
    const code = longScript('kept');
    const res = await keep(code);
    expect(res.status).toBe(200);
    const { id, url, loadstring } = res.body;
    expect(url).toMatch(new RegExp(`^${server.url}/api/scripts/load/${id}\\?key=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
    expect(loadstring).toBe(`loadstring(game:GetService("HttpService"):GetAsync("${url}"))()`);
    // The token is neither the session token nor the API key.
    expect(url).not.toContain(token);
    expect(url).not.toContain(apiKey);

    const loaded = await load(url);
    expect(loaded.status).toBe(200);
    expect(loaded.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(loaded.text).toBe(code);
  });

  it('keeps the same code once per user', async () => {
    const code = longScript('once');
    const first = await keep(code);
    const again = await keep(code);
    expect(again.body.id).toBe(first.body.id);
    const other = await registerUser(server);
    const theirs = await keep(code, other.token);
    expect(theirs.body.id).not.toBe(first.body.id);
    // An API key may keep code too (the documented API).
    expect((await keep(longScript('by key'), apiKey)).status).toBe(200);
  });

  it('reads only the script its token was issued for, and only with that token', async () => {
    const a = (await keep(longScript('a'))).body;
    const b = (await keep(longScript('b'))).body;
    const tokenOf = (url: string) => new URL(url).searchParams.get('key')!;
    const path = (id: string, key: string) => `/api/scripts/load/${id}?key=${encodeURIComponent(key)}`;

    // A's token on B's id.
    expect((await server.call('GET', path(b.id, tokenOf(a.url)))).body).toEqual(INVALID);
    // Altered, foreign and wrong kinds of credential.
    const tampered = tokenOf(a.url).slice(0, -2) + (tokenOf(a.url).endsWith('AA') ? 'BB' : 'AA');
    for (const key of [tampered, token, apiKey, 'not-a-token', `${tokenOf(a.url)}x`]) {
      const res = await server.call('GET', path(a.id, key));
      expect(res.status, key).toBe(401);
      expect(res.body).toEqual(INVALID);
    }
    // No key at all: a clear 400.
    const bare = await server.call('GET', `/api/scripts/load/${a.id}`);
    expect(bare.status).toBe(400);
    expect(bare.body.error).toBe('key (the script token) is required');
    // The session token in the header does not stand in for the script token.
    expect((await server.call('GET', `/api/scripts/load/${a.id}`, { token })).status).toBe(400);
  });

  it('stops every loader URL when the API key is regenerated; new ones work', async () => {
    const user = await registerUser(server);
    const code = longScript('revoked');
    const before = (await keep(code, user.token)).body;
    expect((await load(before.url)).status).toBe(200);

    expect((await server.call('POST', '/api/user/regenerate-key', { token: user.token })).status).toBe(200);
    const revoked = await load(before.url);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual(INVALID);

    const after = (await keep(code, user.token)).body;
    expect(after.id).toBe(before.id);
    expect((await load(after.url)).text).toBe(code);
  });

  it('stops a loader URL once its token is past LOADER_TOKEN_DAYS, with its own clear answer', async () => {
    const user = await registerUser(server);
    const kept = (await keep(longScript('expiring'), user.token)).body;
    const days = server.config.loaderTokenDays;
    // The answer says until when the URL works.
    const expiresAt = Date.parse(kept.expiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan((days - 1) * DAY_MS);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(days * DAY_MS);

    // The same token, issued by this server one lifetime (and a minute) ago.
    const apiKeyId = (
      await server.app.database.db
        .selectFrom('apiKeys')
        .select('id')
        .where('userId', '=', user.user.id)
        .executeTakeFirstOrThrow()
    ).id;
    const issuedLongAgo = createScriptTokens(loadServerSecret(server.config.appSecret, server.config.dataDir), {
      lifetimeDays: days,
      now: () => Date.now() - days * DAY_MS - 60_000,
    });
    const { token: old } = await issuedLongAgo.issue({ userId: user.user.id, scriptId: kept.id, apiKeyId });
    const res = await server.call('GET', `/api/scripts/load/${kept.id}?key=${old}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: CATALOGUE_ERRORS.scriptTokenExpired });
    // The URL answered today still works.
    expect((await load(kept.url)).text).toBe(longScript('expiring'));
  });

  it('revokes every loader URL of a kept script by deleting it; keeping the code again gives a new one', async () => {
    const user = await registerUser(server);
    const code = longScript('deleted');
    const kept = (await keep(code, user.token)).body;
    expect((await load(kept.url)).status).toBe(200);

    const removed = await server.call('DELETE', `/api/scripts/temp/${kept.id}`, { token: user.token });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    const revoked = await load(kept.url);
    expect(revoked.status).toBe(404);
    expect(revoked.body).toEqual({ error: CATALOGUE_ERRORS.keptScriptGone });

    // Deleting again, someone else's, or an id that was never kept: 404.
    expect((await server.call('DELETE', `/api/scripts/temp/${kept.id}`, { token: user.token })).status).toBe(404);
    const other = (await keep(longScript('not yours'))).body;
    const foreign = await server.call('DELETE', `/api/scripts/temp/${other.id}`, { token: user.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: CATALOGUE_ERRORS.keptScriptGone });
    expect((await load(other.url)).status).toBe(200);
    expect((await server.call('DELETE', '/api/scripts/temp/nope', { token: user.token })).status).toBe(404);
    expect((await server.call('DELETE', `/api/scripts/temp/${other.id}`)).status).toBe(401);

    const again = (await keep(code, user.token)).body;
    expect(again.id).not.toBe(kept.id);
    expect((await load(again.url)).text).toBe(code);
    expect((await load(kept.url)).status).toBe(404);
  });

  it('forgets the kept code with the account', async () => {
    const user = await registerUser(server);
    const kept = (await keep(longScript('gone'), user.token)).body;
    expect((await server.call('DELETE', '/api/user/account', { token: user.token })).status).toBe(200);
    expect((await load(kept.url)).status).toBe(401);
    const rows = await server.app.database.db
      .selectFrom('tempScripts')
      .select('id')
      .where('id', '=', kept.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('answers 409 for an account that has no API key (a loader URL needs one)', async () => {
    const user = await registerUser(server);
    await server.app.database.db.deleteFrom('apiKeys').where('userId', '=', user.user.id).execute();
    const res = await keep(longScript('keyless'), user.token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: CATALOGUE_ERRORS.noApiKey });
    const rows = await server.app.database.db
      .selectFrom('tempScripts')
      .select('id')
      .where('userId', '=', user.user.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('answers 4xx for bad input and 401 without a session or key', async () => {
    for (const [body, error] of [
      [{}, VALIDATION.scriptCodeRequired],
      [{ script: '  \n ' }, VALIDATION.scriptCodeRequired],
      [{ script: 42 }, VALIDATION.scriptCodeRequired],
      [{ script: 'x'.repeat(SCRIPT_CODE_MAX_BYTES + 1) }, VALIDATION.scriptCodeTooLarge],
    ] as const) {
      const res = await server.call('POST', '/api/scripts/temp', { token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    }
    expect((await server.call('POST', '/api/scripts/temp', { body: { script: 'print(1)' } })).status).toBe(401);
    expect((await server.call('GET', '/api/scripts/load/nope?key=abc')).status).toBe(401);
  });

  it('runs in a Roblox game: the loader fetches the code and runs it', async () => {
    const { loadstring } = (await keep(longScript('loaded through the loader'))).body;
    const game = await startEmulatedGame({ timeScale: 0.1 });
    games.push(game);
    game.run(loadstring);
    const line = await game.waitForOutput(/^loaded through the loader/);
    expect(line.text).toBe('loaded through the loader 125250');
  });

  it('runs as code sent to the connected game: POST /api/scripts/execute with the loader', async () => {
    const game = await startEmulatedGame({ timeScale: 0.1, jobId: 'loader-job' });
    games.push(game);
    game.run(renderGameIntegration({ serverUrl: server.url, apiKey }), 'ServerScriptService.MoonrelayIntegration');
    await game.waitForOutput(/^\[Moonrelay\] Connected$/);

    const { loadstring } = (await keep(longScript('long and executed'))).body;
    const answer = await server.call('POST', '/api/scripts/execute', { token, body: { code: loadstring } });
    expect(answer.status).toBe(200);
    // The loaded chunk prints into the command's captured output (the integration hands the code it
    // runs a loadstring that keeps the capture), not to the game's own output.
    expect(answer.body).toMatchObject({
      queued: true,
      gameConnected: true,
      success: true,
      output: 'long and executed 125250\n',
      error: null,
    });
    expect(game.output()).not.toContain('long and executed 125250');
  });
});
