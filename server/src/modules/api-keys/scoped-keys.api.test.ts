import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  API_KEY_ERRORS,
  API_KEY_SCOPES,
  INTEGRATION_KEY_NAME,
  PERSONAL_KEY_NAME,
  SCOPED_KEYS_PER_USER,
  type ApiKeyScope,
} from '@moonrelay/contract/api-keys';
import { endpoints, type Endpoint } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import { describeEachEngine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type CallResult, type TestServer } from '../../../test/test-server.ts';

const scopeMissing = (...scopes: string[]) => API_KEY_ERRORS.scopeMissingPrefix + scopes.join(' or ');

describe('scoped keys in the contract', () => {
  it('every endpoint that takes an API key names the scopes a scoped key needs', () => {
    const takesKeys = Object.entries(endpoints as Record<string, Endpoint>).filter(
      ([, endpoint]) => endpoint.auth === 'session-or-key' || endpoint.auth === 'game-key',
    );
    expect(takesKeys.length).toBeGreaterThan(20);
    for (const [name, endpoint] of takesKeys) {
      const scopes = endpoint.keyScopes;
      expect(scopes === 'any' || (Array.isArray(scopes) && scopes.length > 0), name).toBe(true);
      if (Array.isArray(scopes)) for (const scope of scopes) expect(API_KEY_SCOPES, name).toContain(scope);
    }
  });
});

describeEachEngine('scoped API keys', (engine) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    server = await startTestServer(engine);
    admin = await registerUser(server); // the first account is an admin
  });
  afterAll(() => server.close());
  afterEach(() => vi.useRealTimers());

  async function createKey(token: string, body: Record<string, unknown>) {
    const res = await server.call('POST', '/api/user/api-keys', { token, body: { name: 'Key', ...body } });
    expect(res.status, res.text).toBe(200);
    return res.body as { id: string; key: string; name: string; maskedKey: string };
  }

  /** A user with one plain and one auto-execute script, and a key holding `scopes`. */
  async function userWithKey(scopes: ApiKeyScope[], extra: Record<string, unknown> = {}) {
    const owner = await registerUser(server);
    const plain = await server.call('POST', '/api/scripts', {
      token: owner.token,
      body: { name: 'Plain', code: 'print("plain")' },
    });
    const auto = await server.call('POST', '/api/scripts', {
      token: owner.token,
      body: { name: 'Auto', code: 'print("auto")', isAutoExecute: true },
    });
    const key = await createKey(owner.token, { name: `Only ${scopes.join(' ')}`.slice(0, 60), scopes, ...extra });
    return { ...owner, key, plainId: plain.body.id as string, autoId: auto.body.id as string };
  }

  /** One representative call of each scope's group, made with `key`. */
  const groupCalls: Record<ApiKeyScope, (key: string, scriptId: string) => Promise<CallResult>> = {
    game: (key) => server.call('POST', '/api/game/ping', { body: { key, serverId: 'matrix' } }),
    'scripts:read': (key, id) => server.call('GET', `/api/scripts/${id}`, { token: key }),
    'scripts:write': (key) =>
      server.call('POST', '/api/scripts', { token: key, body: { name: 'Written', code: 'print(1)' } }),
    execute: (key) => server.call('GET', '/api/executions', { token: key }),
    commands: (key) => server.call('GET', '/api/game/status', { token: key }),
    moderation: (key) => server.call('GET', '/api/players/online', { token: key }),
  };

  describe.each(API_KEY_SCOPES)('a key with the %s scope alone', (scope) => {
    it.each(API_KEY_SCOPES)('calls the %s group only when it is its own', async (group) => {
      const { key, plainId } = await userWithKey([scope]);
      const res = await groupCalls[group](key.key, plainId);
      if (group === scope) expect(res.status, JSON.stringify(res.body)).toBe(200);
      else expect(res).toMatchObject({ status: 403, body: { error: scopeMissing(group) } });
    });
  });

  describe('the game scope', () => {
    it('pings, loads the integration script, reads its auto-execute scripts and fetches a script by name', async () => {
      const { key } = await userWithKey(['game']);
      expect((await server.call('POST', '/api/game/ping', { body: { key: key.key } })).status).toBe(200);
      const loader = await server.call('GET', `/api/game/loader?key=${key.key}`);
      expect(loader.status).toBe(200);
      expect(loader.text).toContain(key.key);
      const list = await server.call('GET', '/api/scripts', { token: key.key });
      expect(list.status).toBe(200);
      expect(list.body.map((script: { name: string }) => script.name)).toEqual(['Auto']);
      const byName = await server.call('POST', '/api/scripts/execute', { body: { key: key.key, script: 'Auto' } });
      expect(byName.status).toBe(200);
      expect(byName.body.code).toBe('print("auto")');
    });

    it('cannot create, change, delete or restore scripts, run code or send commands', async () => {
      const { token, key, autoId } = await userWithKey(['game']);
      const bearer = { token: key.key };
      const refused = [
        [
          await server.call('POST', '/api/scripts', { ...bearer, body: { name: 'x', code: 'print(1)' } }),
          'scripts:write',
        ],
        [
          await server.call('PUT', `/api/scripts/${autoId}`, { ...bearer, body: { code: 'print("planted")' } }),
          'scripts:write',
        ],
        [
          await server.call('PUT', `/api/scripts/${autoId}`, { ...bearer, body: { isAutoExecute: false } }),
          'scripts:write',
        ],
        [await server.call('DELETE', `/api/scripts/${autoId}`, bearer), 'scripts:write'],
        [await server.call('POST', `/api/scripts/${autoId}/versions/1/restore`, bearer), 'scripts:write'],
        [await server.call('GET', `/api/scripts/${autoId}`, bearer), 'scripts:read'],
        [
          await server.call('POST', '/api/scripts/execute', {
            body: { key: key.key, code: 'print(1)', target: 'sandbox' },
          }),
          'execute',
        ],
        [
          await server.call('POST', '/api/scripts/execute', {
            ...bearer,
            body: { code: 'print(1)', target: 'sandbox' },
          }),
          'execute',
        ],
        [
          await server.call('POST', `/api/scripts/${autoId}/execute`, { ...bearer, body: { target: 'sandbox' } }),
          'execute',
        ],
        [await server.call('POST', '/api/game/command', { ...bearer, body: { type: 'heal', data: {} } }), 'commands'],
      ] as const;
      for (const [res, scope] of refused)
        expect(res).toMatchObject({ status: 403, body: { error: scopeMissing(scope) } });
      const kept = await server.call('GET', `/api/scripts/${autoId}`, { token });
      expect(kept.body).toMatchObject({ code: 'print("auto")', isAutoExecute: true, version: 1 });
    });
  });

  it('the personal key still does everything the spec documents', async () => {
    const { token, user } = await registerUser(server);
    const key = user.apiKey as string;
    const created = await server.call('POST', '/api/scripts', { token: key, body: { name: 'P', code: 'print(1)' } });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect((await server.call('PUT', `/api/scripts/${id}`, { token: key, body: { code: 'print(2)' } })).status).toBe(
      200,
    );
    expect((await server.call('GET', '/api/scripts', { token: key })).body).toHaveLength(1);
    expect((await server.call('GET', `/api/scripts/${id}`, { token: key })).status).toBe(200);
    expect((await server.call('POST', '/api/game/ping', { body: { key } })).status).toBe(200);
    expect((await server.call('GET', `/api/game/loader?key=${key}`)).status).toBe(200);
    expect((await server.call('GET', '/api/game/status', { token: key })).status).toBe(200);
    const run = await server.call('POST', '/api/scripts/execute', {
      body: { key, code: 'print(1)', target: 'sandbox' },
    });
    expect(run.status).toBe(200);
    const command = await server.call('POST', '/api/game/command', { token: key, body: { type: 'heal', data: {} } });
    expect(command.status).toBe(200);
    expect((await server.call('GET', '/api/executions', { token: key })).status).toBe(200);
    expect((await server.call('DELETE', `/api/scripts/${id}`, { token: key })).status).toBe(200);
    // Account routes stay session-only, for the personal key too.
    expect((await server.call('GET', '/api/user/api-keys', { token: key })).status).toBe(403);
    expect(token).toBeTruthy();
  });

  describe('creating keys', () => {
    it('shows the key once, lists it masked, and stores only its hash', async () => {
      const { token, user } = await registerUser(server);
      const created = await createKey(token, { name: 'CI', scopes: ['scripts:read'] });
      expect(created.key).toMatch(/^mr_/);
      expect(created.maskedKey).toBe(`${created.key.slice(0, 8)}…${created.key.slice(-4)}`);
      const list = await server.call('GET', '/api/user/api-keys', { token });
      expect(list.body.limit).toBe(SCOPED_KEYS_PER_USER);
      expect(list.body.items).toHaveLength(1);
      expect(JSON.stringify(list.body)).not.toContain(created.key);
      const row = await server.app.database.db
        .selectFrom('scopedApiKeys')
        .selectAll()
        .where('userId', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(created.key);
      expect(row.keyCiphertext).toBeNull();
    });

    it.each([
      ['a bad CIDR', { scopes: ['game'], allowedIps: ['10.0.0.0/33'] }, API_KEY_ERRORS.allowedIpInvalid],
      ['an address that is not one', { scopes: ['game'], allowedIps: ['localhost'] }, API_KEY_ERRORS.allowedIpInvalid],
      ['an unknown scope', { scopes: ['admin'] }, `scopes: each must be one of ${API_KEY_SCOPES.join(', ')}`],
      ['no scope', { scopes: [] }, API_KEY_ERRORS.scopesRequired],
      ['a scope twice', { scopes: ['game', 'game'] }, API_KEY_ERRORS.scopesRepeated],
      [
        'an expiry in the past',
        { scopes: ['game'], expiresAt: '2020-01-01T00:00:00.000Z' },
        API_KEY_ERRORS.expiryInPast,
      ],
      ['an expiry that is no time', { scopes: ['game'], expiresAt: 'tomorrow' }, undefined],
      ['no name', { name: ' ', scopes: ['game'] }, API_KEY_ERRORS.nameRequired],
      ['21 addresses', { scopes: ['game'], allowedIps: Array(21).fill('10.0.0.1') }, API_KEY_ERRORS.allowedIpsTooMany],
    ])('refuses %s with 400', async (_what, body, message) => {
      const { token } = await registerUser(server);
      const res = await server.call('POST', '/api/user/api-keys', { token, body: { name: 'Key', ...body } });
      expect(res.status).toBe(400);
      if (message) expect(JSON.stringify(res.body)).toContain(message);
    });

    it(`refuses the ${SCOPED_KEYS_PER_USER + 1}th key with 409, even when they are asked for at once`, async () => {
      const { token } = await registerUser(server);
      const answers = await Promise.all(
        Array.from({ length: SCOPED_KEYS_PER_USER + 5 }, (_, i) =>
          server.call('POST', '/api/user/api-keys', { token, body: { name: `k${i}`, scopes: ['game'] } }),
        ),
      );
      expect(answers.filter((res) => res.status === 200)).toHaveLength(SCOPED_KEYS_PER_USER);
      for (const res of answers.filter((r) => r.status !== 200)) {
        expect(res).toMatchObject({ status: 409, body: { error: API_KEY_ERRORS.tooManyKeys } });
      }
      // A revoked key makes room again.
      const list = await server.call('GET', '/api/user/api-keys', { token });
      await server.call('DELETE', `/api/user/api-keys/${list.body.items[0].id}`, { token });
      expect(
        (await server.call('POST', '/api/user/api-keys', { token, body: { name: 'n', scopes: ['game'] } })).status,
      ).toBe(200);
    });

    it('cannot be done with a key, not even one holding every scope', async () => {
      const { key } = await userWithKey([...API_KEY_SCOPES]);
      const res = await server.call('POST', '/api/user/api-keys', {
        token: key.key,
        body: { name: 'x', scopes: ['game'] },
      });
      expect(res).toMatchObject({ status: 403, body: { error: ERRORS.sessionRequired } });
    });
  });

  describe('limits of a key', () => {
    it('an expired key answers 401 saying so', async () => {
      const expiresAt = new Date(Date.now() + 60 * 60_000).toISOString();
      const { key, plainId } = await userWithKey(['scripts:read'], { expiresAt });
      expect((await server.call('GET', `/api/scripts/${plainId}`, { token: key.key })).status).toBe(200);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60_000 });
      const res = await server.call('GET', `/api/scripts/${plainId}`, { token: key.key });
      expect(res).toMatchObject({ status: 401, body: { error: API_KEY_ERRORS.expired } });
      const ping = await server.call('POST', '/api/game/ping', { body: { key: key.key } });
      expect(ping).toMatchObject({ status: 401, body: { error: API_KEY_ERRORS.expired } });
    });

    it('an allow list lets in only its addresses', async () => {
      const elsewhere = await userWithKey(['scripts:read', 'game'], {
        allowedIps: ['203.0.113.0/24', '2001:db8::/32'],
      });
      const refused = await server.call('GET', `/api/scripts/${elsewhere.plainId}`, { token: elsewhere.key.key });
      expect(refused).toMatchObject({ status: 403, body: { error: API_KEY_ERRORS.addressRefused } });
      const ping = await server.call('POST', '/api/game/ping', { body: { key: elsewhere.key.key } });
      expect(ping).toMatchObject({ status: 403, body: { error: API_KEY_ERRORS.addressRefused } });
      const here = await userWithKey(['scripts:read'], { allowedIps: ['127.0.0.0/8'] });
      expect((await server.call('GET', `/api/scripts/${here.plainId}`, { token: here.key.key })).status).toBe(200);
    });

    it('shows when and from where a key was last used', async () => {
      const { token, key, plainId } = await userWithKey(['scripts:read']);
      const before = await server.call('GET', '/api/user/api-keys', { token });
      expect(before.body.items[0]).toMatchObject({ lastUsedAt: null, lastUsedIp: null });
      await server.call('GET', `/api/scripts/${plainId}`, { token: key.key });
      const after = await server.call('GET', '/api/user/api-keys', { token });
      expect(after.body.items[0].lastUsedIp).toBe('127.0.0.1');
      expect(Date.parse(after.body.items[0].lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    });
  });

  describe('revoking', () => {
    it('stops the key at once with 401 saying it was revoked', async () => {
      const { token, key, plainId } = await userWithKey(['scripts:read']);
      expect((await server.call('GET', `/api/scripts/${plainId}`, { token: key.key })).status).toBe(200);
      const revoked = await server.call('DELETE', `/api/user/api-keys/${key.id}`, { token });
      expect(revoked.status).toBe(200);
      const res = await server.call('GET', `/api/scripts/${plainId}`, { token: key.key });
      expect(res).toMatchObject({ status: 401, body: { error: API_KEY_ERRORS.revoked } });
      expect((await server.call('GET', '/api/user/api-keys', { token })).body.items).toEqual([]);
      // Twice: nothing left to revoke.
      expect((await server.call('DELETE', `/api/user/api-keys/${key.id}`, { token })).status).toBe(404);
    });

    it("answers 404 for someone else's key and leaves it working", async () => {
      const victim = await userWithKey(['scripts:read']);
      const other = await registerUser(server);
      const res = await server.call('DELETE', `/api/user/api-keys/${victim.key.id}`, { token: other.token });
      expect(res).toMatchObject({ status: 404, body: { error: API_KEY_ERRORS.notFound } });
      expect((await server.call('GET', `/api/scripts/${victim.plainId}`, { token: victim.key.key })).status).toBe(200);
    });

    it('a key used while it is revoked works for no call that starts after the revocation answered', async () => {
      const { token, key, plainId } = await userWithKey(['scripts:read']);
      const during = Array.from({ length: 20 }, () =>
        server.call('GET', `/api/scripts/${plainId}`, { token: key.key }),
      );
      const revoked = await server.call('DELETE', `/api/user/api-keys/${key.id}`, { token });
      expect(revoked.status).toBe(200);
      for (const res of await Promise.all(during)) expect([200, 401]).toContain(res.status);
      const after = await Promise.all(
        Array.from({ length: 20 }, () => server.call('GET', `/api/scripts/${plainId}`, { token: key.key })),
      );
      expect(after.map((res) => res.status)).toEqual(Array(20).fill(401));
    });
  });

  describe('audit and history', () => {
    it('names the key that changed a script, in the script, its versions and the audit log', async () => {
      const { token, key, plainId } = await userWithKey(['scripts:write', 'scripts:read']);
      const updated = await server.call('PUT', `/api/scripts/${plainId}`, {
        token: key.key,
        body: { code: 'print(9)' },
      });
      expect(updated.status).toBe(200);
      expect(updated.body.lastChangedByKey).toBe(key.name);
      const versions = await server.call('GET', `/api/scripts/${plainId}/versions`, { token });
      expect(versions.body.items[0]).toMatchObject({ savedVia: 'key', savedByKey: key.name });
      expect(versions.body.items[1]).toMatchObject({ savedVia: 'session', savedByKey: null });
      // A later save signed in clears it.
      const bySession = await server.call('PUT', `/api/scripts/${plainId}`, { token, body: { code: 'print(10)' } });
      expect(bySession.body.lastChangedByKey).toBeNull();
      const audit = await server.call('GET', '/api/admin/audit?pageSize=100', { token: admin.token });
      const entry = audit.body.items.find(
        (item: { action: string; details: { keyId?: string } }) =>
          item.action === 'key.change' && item.details.keyId === key.id,
      );
      expect(entry.details).toMatchObject({
        keyName: key.name,
        endpoint: 'updateScript',
        call: 'PUT /api/scripts/:id',
      });
    });

    it('audits a change made with the personal key under its name, and not a read', async () => {
      const { user } = await registerUser(server);
      await server.call('GET', '/api/scripts', { token: user.apiKey });
      await server.call('POST', '/api/scripts', { token: user.apiKey, body: { name: 'p', code: 'print(1)' } });
      const audit = await server.call('GET', '/api/admin/audit?pageSize=100', { token: admin.token });
      const mine = audit.body.items.filter(
        (item: { action: string; actorId: string }) => item.action === 'key.change' && item.actorId === user.id,
      );
      expect(mine).toHaveLength(1);
      expect(mine[0].details).toMatchObject({ keyName: PERSONAL_KEY_NAME, endpoint: 'createScript' });
    });
  });

  describe('the integration scripts', () => {
    it('carry a game key, not the personal key, the same one each time until it is revoked', async () => {
      const { token, user } = await registerUser(server);
      const first = await server.call('GET', '/api/game/integration-scripts', { token });
      expect(first.status).toBe(200);
      expect(first.body.gameIntegration).not.toContain(user.apiKey);
      const key = /key=([A-Za-z0-9_]+)/.exec(first.body.quickLoader)![1]!;
      expect(first.body.gameIntegration).toContain(key);
      const again = await server.call('GET', '/api/game/integration-scripts', { token });
      expect(again.body.quickLoader).toBe(first.body.quickLoader);
      const listed = await server.call('GET', '/api/user/api-keys', { token });
      expect(listed.body.items).toEqual([
        expect.objectContaining({ name: INTEGRATION_KEY_NAME, scopes: ['game'], integration: true }),
      ]);
      // It connects a game and cannot write scripts.
      expect((await server.call('POST', '/api/game/ping', { body: { key } })).status).toBe(200);
      const write = await server.call('POST', '/api/scripts', { token: key, body: { name: 'x', code: 'print(1)' } });
      expect(write).toMatchObject({ status: 403, body: { error: scopeMissing('scripts:write') } });
      await server.call('DELETE', `/api/user/api-keys/${listed.body.items[0].id}`, { token });
      const renewed = await server.call('GET', '/api/game/integration-scripts', { token });
      expect(renewed.body.quickLoader).not.toBe(first.body.quickLoader);
    });

    it('makes one key for a user whose panel is opened many times at once', async () => {
      const { token } = await registerUser(server);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => server.call('GET', '/api/game/integration-scripts', { token })),
      );
      expect(new Set(answers.map((res) => res.body.quickLoader)).size).toBe(1);
    });
  });

  describe('in the admin panel', () => {
    it("lists a user's keys and revokes one, audited; only for admins", async () => {
      const { user, key } = await userWithKey(['commands']);
      const listed = await server.call('GET', `/api/admin/users/${user.id}/api-keys`, { token: admin.token });
      expect(listed.body.items).toEqual([expect.objectContaining({ id: key.id, scopes: ['commands'] })]);
      const member = await registerUser(server);
      expect((await server.call('GET', `/api/admin/users/${user.id}/api-keys`, { token: member.token })).status).toBe(
        403,
      );
      const wrongUser = await server.call('DELETE', `/api/admin/users/${member.user.id}/api-keys/${key.id}`, {
        token: admin.token,
      });
      expect(wrongUser.status).toBe(404);
      const revoked = await server.call('DELETE', `/api/admin/users/${user.id}/api-keys/${key.id}`, {
        token: admin.token,
      });
      expect(revoked.status).toBe(200);
      expect((await server.call('GET', '/api/game/status', { token: key.key })).status).toBe(401);
      const audit = await server.call('GET', '/api/admin/audit?pageSize=20', { token: admin.token });
      expect(audit.body.items).toContainEqual(
        expect.objectContaining({
          action: 'admin.api_key_revoked',
          targetId: user.id,
          details: expect.objectContaining({ keyId: key.id }),
        }),
      );
    });
  });
});
