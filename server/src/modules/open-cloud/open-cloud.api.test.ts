import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPEN_CLOUD_ERRORS } from '@moonrelay/contract/open-cloud';
import { describeOnSQLite } from '../../../test/engines.ts';
import { fakeOpenCloud } from '../../../test/fake-open-cloud.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import type { RestrictionOutcome, RestrictionRequest } from './restrictions.ts';
import { idempotencyKeyOf } from './restrictions.ts';

const UNIVERSE = '5795192361';
const GOOD_KEY = 'rbx-ok-key-1234567890abcdefghijklmnop';
const OTHER_UNIVERSE_KEY = 'rbx-other-universe-key-0987654321zyxw';

describeOnSQLite('Open Cloud bans', (engine) => {
  /** The fake's clock: moved by the tests that need Roblox's minute to pass. */
  let robloxNow = Date.now();
  const roblox = fakeOpenCloud({ now: () => robloxNow, retryAfterSeconds: 1 });
  let server: TestServer;
  let actions = 0;

  beforeAll(async () => {
    const base = await roblox.start();
    roblox.addKey(GOOD_KEY, UNIVERSE);
    roblox.addKey(OTHER_UNIVERSE_KEY, '1111');
    server = await startTestServer(engine, { ROBLOX_OPEN_CLOUD_URL: base, OPEN_CLOUD_RETRY_BASE_MS: '50' });
  });
  afterAll(async () => {
    await server?.close();
    await roblox.stop();
  });

  const saveKey = (token: string, apiKey = GOOD_KEY, universeId = UNIVERSE) =>
    server.call('PUT', '/api/open-cloud/key', { token, body: { universeId, apiKey } });

  /** A user with a saved key, and their id. */
  async function owner() {
    const user = await registerUser(server);
    expect((await saveKey(user.token)).status).toBe(200);
    return { ...user, id: user.user.id as string };
  }

  /** Resolves with the outcome the queue tells for `actionId`. */
  const outcomeOf = (actionId: string) =>
    new Promise<RestrictionOutcome>((resolve) => {
      const stop = server.app.services.reactions.on('open-cloud:outcome', (told) => {
        if (told.actionId !== actionId) return;
        stop();
        resolve(told.outcome);
      });
    });

  /**
   * The outcome of `actionId`: told from now on, or already settled (told before the listener
   * could be added, as after a restart).
   */
  async function settledOutcome(actionId: string): Promise<RestrictionOutcome> {
    const told = outcomeOf(actionId);
    const row = await server.app.services.restrictions.find(actionId);
    if (row?.state === 'applied') return { state: 'applied' };
    if (row?.state === 'failed') return { state: 'failed', error: row.error ?? '' };
    return told;
  }

  const request = (ownerId: string, overrides: Partial<RestrictionRequest> = {}): RestrictionRequest => ({
    actionId: `action-${process.pid}-${(actions += 1)}`,
    ownerId,
    robloxUserId: 9000 + actions,
    active: true,
    durationSeconds: 86400,
    displayReason: 'Exploiting',
    privateReason: 'Speed hack seen by three moderators',
    excludeAltAccounts: false,
    ...overrides,
  });

  it('saves a key Roblox accepts, sealed, and shows it masked', async () => {
    const user = await registerUser(server);
    const saved = await saveKey(user.token);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ universeId: UNIVERSE, maskedKey: 'rbx-…mnop' });
    expect(saved.text).not.toContain(GOOD_KEY);
    const shown = await server.call('GET', '/api/open-cloud/key', { token: user.token });
    expect(shown.body.key).toMatchObject({ universeId: UNIVERSE, maskedKey: 'rbx-…mnop' });
    expect(shown.text).not.toContain(GOOD_KEY);
    const row = await server.app.database.db
      .selectFrom('openCloudKeys')
      .selectAll()
      .where('userId', '=', user.user.id)
      .executeTakeFirstOrThrow();
    expect(row.keySealed).not.toContain(GOOD_KEY);
    // The check was one read of one restriction, with the key in x-api-key.
    const check = roblox.requests.findLast((r) => r.apiKey === GOOD_KEY && r.query.get('maxPageSize') === '1');
    expect(check?.path).toBe(`/cloud/v2/universes/${UNIVERSE}/user-restrictions`);
    const audit = await server.app.database.db
      .selectFrom('auditLog')
      .select(['action', 'details'])
      .where('targetId', '=', user.user.id)
      .execute();
    expect(audit.map((entry) => entry.action)).toContain('account.open_cloud_key_saved');
    expect(audit.map((entry) => entry.details).join()).not.toContain(GOOD_KEY);
  });

  it('refuses a key Roblox refuses (401, or 403 for another universe) and stores nothing', async () => {
    const user = await registerUser(server);
    for (const apiKey of ['rbx-unknown-key-abcdefghijklmnopqrst', OTHER_UNIVERSE_KEY]) {
      const refused = await saveKey(user.token, apiKey);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain(OPEN_CLOUD_ERRORS.keyRefused);
      expect(refused.body.error).toMatch(/Invalid API Key|not authorized for this universe/);
    }
    expect((await server.call('GET', '/api/open-cloud/key', { token: user.token })).body).toEqual({ key: null });
    const rows = await server.app.database.db
      .selectFrom('openCloudKeys')
      .select('userId')
      .where('userId', '=', user.user.id)
      .execute();
    expect(rows).toEqual([]);
    const badInput = await saveKey(user.token, GOOD_KEY, 'not-a-number');
    expect(badInput.status).toBe(400);
    expect(badInput.body.error).toBe(OPEN_CLOUD_ERRORS.universeIdInvalid);
  });

  it('replaces and removes the key, audited', async () => {
    const user = await owner();
    roblox.addKey('rbx-second-key-for-replacing-0000zzzz', UNIVERSE);
    const replaced = await saveKey(user.token, 'rbx-second-key-for-replacing-0000zzzz');
    expect(replaced.body.maskedKey).toBe('rbx-…zzzz');
    expect((await server.call('DELETE', '/api/open-cloud/key', { token: user.token })).status).toBe(200);
    expect((await server.call('GET', '/api/open-cloud/key', { token: user.token })).body).toEqual({ key: null });
    const again = await server.call('DELETE', '/api/open-cloud/key', { token: user.token });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe(OPEN_CLOUD_ERRORS.noKey);
    const audit = await server.app.database.db
      .selectFrom('auditLog')
      .select('action')
      .where('targetId', '=', user.id)
      .orderBy('createdAt')
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual([
      'account.open_cloud_key_saved',
      'account.open_cloud_key_saved',
      'account.open_cloud_key_removed',
    ]);
  });

  it('sends a queued ban to Roblox and tells it applied', async () => {
    const user = await owner();
    expect(await server.app.services.restrictions.hasKey(user.id)).toBe(true);
    const ban = request(user.id);
    const told = outcomeOf(ban.actionId);
    await server.app.services.restrictions.enqueue(ban);
    expect(await told).toEqual({ state: 'applied' });
    const sent = roblox.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/${ban.robloxUserId}`));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe(`/cloud/v2/universes/${UNIVERSE}/user-restrictions/${ban.robloxUserId}`);
    expect(sent[0]!.apiKey).toBe(GOOD_KEY);
    expect(sent[0]!.query.get('updateMask')).toBe('gameJoinRestriction');
    expect(sent[0]!.query.get('idempotencyKey.key')).toBe(idempotencyKeyOf(ban.actionId));
    expect(Date.parse(sent[0]!.query.get('idempotencyKey.firstSent')!)).not.toBeNaN();
    expect(sent[0]!.body).toEqual({
      gameJoinRestriction: {
        active: true,
        duration: '86400s',
        privateReason: ban.privateReason,
        displayReason: ban.displayReason,
        excludeAltAccounts: false,
      },
    });
    expect(roblox.restriction(UNIVERSE, String(ban.robloxUserId))?.gameJoinRestriction.active).toBe(true);

    // A permanent ban carries no duration; the same action queued again is not sent again.
    const permanent = request(user.id, { durationSeconds: null });
    const toldPermanent = outcomeOf(permanent.actionId);
    await server.app.services.restrictions.enqueue(permanent);
    await toldPermanent;
    await server.app.services.restrictions.enqueue(permanent);
    const permanentSent = roblox.requests.filter((r) => r.path.endsWith(`/${permanent.robloxUserId}`));
    expect(permanentSent).toHaveLength(1);
    expect((permanentSent[0]!.body as { gameJoinRestriction: object }).gameJoinRestriction).not.toHaveProperty(
      'duration',
    );
  });

  it('on a 429 waits as Roblox says and sends again under the same idempotency key', async () => {
    const user = await owner();
    const ban = request(user.id);
    // Another tool spent this user's two updates of the minute.
    roblox.updatedElsewhere(UNIVERSE, String(ban.robloxUserId));
    roblox.updatedElsewhere(UNIVERSE, String(ban.robloxUserId));
    const limited = roblox.nextRequest((r) => r.method === 'PATCH' && r.path.endsWith(`/${ban.robloxUserId}`));
    const told = outcomeOf(ban.actionId);
    await server.app.services.restrictions.enqueue(ban);
    await limited;
    // Roblox's minute passes before the retry (Retry-After: 1).
    robloxNow += 61_000;
    expect(await told).toEqual({ state: 'applied' });
    const sent = roblox.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/${ban.robloxUserId}`));
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((r) => r.query.get('idempotencyKey.key'))).size).toBe(1);
    expect(new Set(sent.map((r) => r.query.get('idempotencyKey.firstSent'))).size).toBe(1);
    const row = await server.app.services.restrictions.find(ban.actionId);
    expect(row).toMatchObject({ state: 'applied', attempts: 2 });
  });

  it("fails an update Roblox refuses (400) with Roblox's own words", async () => {
    const user = await owner();
    const ban = request(user.id, { displayReason: 'x'.repeat(401) });
    const told = outcomeOf(ban.actionId);
    await server.app.services.restrictions.enqueue(ban);
    expect(await told).toEqual({ state: 'failed', error: 'Display reason exceeds the maximum length of 400.' });
    expect(roblox.restriction(UNIVERSE, String(ban.robloxUserId))).toBeUndefined();
    expect(await server.app.services.restrictions.find(ban.actionId)).toMatchObject({
      state: 'failed',
      error: 'Display reason exceeds the maximum length of 400.',
      attempts: 1,
    });
  });

  it('applies each update exactly once across a restart with updates pending', async () => {
    const user = await owner();
    const first = request(user.id);
    const second = request(user.id);
    // Roblox applies the first update, and its answer never arrives: the server stops meanwhile.
    const held = roblox.holdNextAnswers();
    await server.app.services.restrictions.enqueue(first);
    await held;
    await server.app.services.restrictions.enqueue(second);
    await server.stop();
    roblox.dropHeld();
    expect(roblox.applied.filter((a) => a.key === idempotencyKeyOf(first.actionId))).toHaveLength(1);

    const resent = roblox.nextRequest((r) => r.query.get('idempotencyKey.key') === idempotencyKeyOf(first.actionId));
    const secondSent = roblox.nextRequest(
      (r) => r.query.get('idempotencyKey.key') === idempotencyKeyOf(second.actionId),
    );
    await server.start();
    await resent;
    await secondSent;
    expect(await settledOutcome(first.actionId)).toEqual({ state: 'applied' });
    expect(await settledOutcome(second.actionId)).toEqual({ state: 'applied' });
    // The same action queued again after the restart is not sent again either.
    await server.app.services.restrictions.enqueue(first);
    expect(roblox.applied.filter((a) => a.key === idempotencyKeyOf(first.actionId))).toHaveLength(1);
    expect(roblox.applied.filter((a) => a.key === idempotencyKeyOf(second.actionId))).toHaveLength(1);
    const resends = roblox.requests.filter(
      (r) => r.query.get('idempotencyKey.key') === idempotencyKeyOf(first.actionId),
    );
    expect(resends).toHaveLength(2);
    expect(resends[0]!.query.get('idempotencyKey.firstSent')).toBe(resends[1]!.query.get('idempotencyKey.firstSent'));
  });

  it('imports bans made elsewhere, page by page, and only what is new the next time', async () => {
    const universe = '7000000001';
    const apiKey = 'rbx-import-key-abcdefghijklmnopqrstuv';
    roblox.addKey(apiKey, universe);
    const user = await registerUser(server);
    const start = Date.parse('2026-11-01T00:00:00.000Z');
    const log = (i: number) => ({
      user: `users/${100 + i}`,
      moderator: i % 2 ? { robloxUser: 'users/45348281' } : { gameServerScript: {} },
      createTime: new Date(start + i * 60_000).toISOString(),
      active: true,
      startTime: new Date(start + i * 60_000).toISOString(),
      ...(i % 3 ? { duration: '86400s' } : {}),
      privateReason: `private ${i}`,
      displayReason: `display ${i}`,
      excludeAltAccounts: false,
    });
    for (let i = 0; i < 150; i += 1) roblox.addLog(universe, log(i));
    expect((await saveKey(user.token, apiKey, universe)).status).toBe(200);

    const logCalls = () => roblox.requests.filter((r) => r.path.endsWith(`/${universe}/user-restrictions:listLogs`));
    const first = await server.call('POST', '/api/bans/import', { token: user.token });
    // The import queued by the save may have run first: between them, all 150 are in, once.
    expect(first.status).toBe(200);
    const listed = await server.call('GET', '/api/bans?limit=500', { token: user.token });
    expect(listed.body.logs).toHaveLength(150);
    expect(listed.body.active).toHaveLength(150);
    expect(listed.body.logs[0]).toEqual({
      userId: 249,
      durationSeconds: 86400,
      startTime: log(149).startTime,
      displayReason: 'display 149',
      privateReason: 'private 149',
      excludeAltAccounts: false,
      active: true,
      moderator: 'users/45348281',
      createTime: log(149).createTime,
      placeId: null,
    });
    expect(listed.body.logs[1]).toMatchObject({ userId: 248, moderator: 'game server script' });
    expect(listed.body.logs[2]).toMatchObject({ userId: 247, durationSeconds: null });

    for (let i = 150; i < 153; i += 1) roblox.addLog(universe, log(i));
    const callsBefore = logCalls().length;
    const second = await server.call('POST', '/api/bans/import', { token: user.token });
    expect(second.body).toEqual({ imported: 3, active: 153 });
    // Newest first: the first page reached what was imported, so no second page was asked for.
    expect(logCalls().length - callsBefore).toBe(1);
    const again = await server.call('GET', '/api/bans?limit=500', { token: user.token });
    expect(again.body.logs).toHaveLength(153);
    expect(again.body.lastImportError).toBeNull();
  });

  it("lets only the owner (or an admin) see and import an owner's bans", async () => {
    const user = await owner();
    const other = await registerUser(server);
    for (const [method, path] of [
      ['GET', `/api/bans?ownerId=${user.id}`],
      ['POST', `/api/bans/import?ownerId=${user.id}`],
    ] as const) {
      const refused = await server.call(method, path, { token: other.token });
      expect(refused.status).toBe(403);
    }
    // A key with the moderation scope reads its owner's bans; one without it is refused.
    const moderation = await server.call('POST', '/api/user/api-keys', {
      token: user.token,
      body: { name: 'Bans', scopes: ['moderation'] },
    });
    const scripts = await server.call('POST', '/api/user/api-keys', {
      token: user.token,
      body: { name: 'Scripts', scopes: ['scripts:read'] },
    });
    const own = await server.call('GET', '/api/bans', { token: moderation.body.key });
    expect(own.status).toBe(200);
    expect(own.body.universeId).toBe(UNIVERSE);
    expect((await server.call('GET', '/api/bans', { token: scripts.body.key })).status).toBe(403);
    // Without a key there is nothing to import.
    const none = await server.call('POST', '/api/bans/import', { token: other.token });
    expect(none.status).toBe(404);
    expect(none.body.error).toBe(OPEN_CLOUD_ERRORS.noKey);
  });
});
