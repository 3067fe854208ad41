import { generate } from 'otplib';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_PATH } from '@moonrelay/contract/events';
import { ERRORS, SESSIONS, TWO_FACTOR } from '@moonrelay/contract/messages';
import type { SessionInfo } from '@moonrelay/contract/sessions';
import { describeEachEngine } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { endSudo, registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

const LIMIT = 5;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Sessions a person can see and end, sudo mode before the changes that hand an account over, the
 * password and email changes, and REQUIRE_TWO_FACTOR_FOR_ADMINS judged by how a session was made.
 */
describeEachEngine('account security', (engine) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = await startTestServer(engine, {
      LOGIN_MAX_FAILURES: String(LIMIT),
      REQUIRE_TWO_FACTOR_FOR_ADMINS: 'true',
    });
    // The first account is the admin.
    admin = await registerUser(server);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server.close();
  });

  const login = (emailOrUsername: string, password: string, userAgent?: string) =>
    server.call('POST', '/api/auth/login', {
      body: { emailOrUsername, password },
      headers: userAgent ? { 'user-agent': userAgent } : {},
    });
  const sessionsOf = async (token: string) => {
    const res = await server.call('GET', '/api/user/sessions', { token });
    expect(res.status, res.text).toBe(200);
    return res.body.sessions as SessionInfo[];
  };
  const openSocket = (token: string) => {
    const socket = connect(server.url, {
      path: SOCKET_PATH,
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    return new Promise<Socket>((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  };
  const disconnected = (socket: Socket) =>
    new Promise<string>((resolve) => (socket.connected ? socket.once('disconnect', resolve) : resolve('already')));
  const codeAt = (secret: string, offsetSteps = 0) =>
    generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
  async function turnOnTotp(token: string, password: string) {
    const setup = await server.call('POST', '/api/user/two-factor/totp/setup', { token, body: { password } });
    expect(setup.status, setup.text).toBe(200);
    const secret = setup.body.secret as string;
    const confirm = await server.call('POST', '/api/user/two-factor/totp/confirm', {
      token,
      body: { code: await codeAt(secret) },
    });
    expect(confirm.status, confirm.text).toBe(200);
    return secret;
  }

  describe('sessions', () => {
    it('lists every session with its browser, how it signed in, its address and which is this one', async () => {
      const account = await registerUser(server);
      const onFirefox = await login(account.input.username, account.password, FIREFOX);
      const onChrome = await login(account.input.email, account.password, CHROME);
      const listed = await sessionsOf(onFirefox.body.token as string);
      expect(listed).toHaveLength(3);
      const current = listed.filter((session) => session.current);
      expect(current).toHaveLength(1);
      expect(current[0]).toMatchObject({
        browser: 'Firefox on Linux',
        userAgent: FIREFOX,
        signedInWith: 'password',
        secondFactor: null,
        signInAddress: expect.stringMatching(/127\.0\.0\.1/),
      });
      expect(listed.map((session) => session.browser).sort()).toEqual(
        ['Chrome on Windows', 'Firefox on Linux', 'Node.js'].sort(),
      );
      expect(listed.find((session) => session.signedInWith === 'registration')).toBeDefined();
      expect((await sessionsOf(onChrome.body.token as string)).find((s) => s.current)?.browser).toBe(
        'Chrome on Windows',
      );
    });

    it("ends one session: its token stops working and its socket closes at once; another account's id is not found", async () => {
      const account = await registerUser(server);
      const other = await login(account.input.username, account.password);
      const otherToken = other.body.token as string;
      const socket = await openSocket(otherToken);
      const closed = disconnected(socket);
      const target = (await sessionsOf(account.token)).find((session) => !session.current)!;

      const stranger = await registerUser(server);
      const foreign = await server.call('DELETE', `/api/user/sessions/${target.id}`, { token: stranger.token });
      expect(foreign).toMatchObject({ status: 404, body: { error: SESSIONS.sessionNotFound } });
      expect((await server.call('GET', '/api/user', { token: otherToken })).status).toBe(200);

      const ended = await server.call('DELETE', `/api/user/sessions/${target.id}`, { token: account.token });
      expect(ended).toMatchObject({ status: 200, body: { success: true, ended: 1, message: SESSIONS.endedOne } });
      expect(await closed).toBe('io server disconnect');
      expect((await server.call('GET', '/api/user', { token: otherToken })).status).toBe(401);
      expect((await server.call('DELETE', `/api/user/sessions/${target.id}`, { token: account.token })).status).toBe(
        404,
      );
      expect(await sessionsOf(account.token)).toHaveLength(1);
    });

    it('signs out every other session, not this one, and says how many', async () => {
      const account = await registerUser(server);
      const others = await Promise.all([1, 2, 3].map(() => login(account.input.username, account.password)));
      const socket = await openSocket(others[0]!.body.token as string);
      const keep = await openSocket(account.token);
      const closed = disconnected(socket);
      const res = await server.call('POST', '/api/user/sessions/end-others', { token: account.token });
      expect(res).toMatchObject({ status: 200, body: { ended: 3, message: SESSIONS.endedOthers(3) } });
      expect(await closed).toBe('io server disconnect');
      for (const other of others) {
        expect((await server.call('GET', '/api/user', { token: other.body.token as string })).status).toBe(401);
      }
      expect((await server.call('GET', '/api/user', { token: account.token })).status).toBe(200);
      expect(keep.connected).toBe(true);
      const again = await server.call('POST', '/api/user/sessions/end-others', { token: account.token });
      expect(again.body).toMatchObject({ ended: 0, message: SESSIONS.endedOthers(0) });
    });
  });

  describe('sudo mode', () => {
    it('refuses a protected change without a proof from the last 10 minutes, naming the ways to give one; a proof allows it', async () => {
      const account = await registerUser(server);
      // A fresh sign-in is a proof: the change goes through.
      expect((await server.call('POST', '/api/user/regenerate-key', { token: account.token })).status).toBe(200);
      const destination = await server.call('POST', '/api/notifications/destinations', {
        token: account.token,
        body: { kind: 'webhook', name: 'alerts', url: 'https://hooks.example.com/a', events: ['run.failed'] },
      });
      expect(destination.status, destination.text).toBe(200);
      const destinationPath = `/api/notifications/destinations/${destination.body.id}`;

      await endSudo(server, account.user.id);
      // Renaming a destination hands nothing over; pointing it somewhere else does.
      expect(
        (await server.call('PUT', destinationPath, { token: account.token, body: { name: 'renamed' } })).status,
      ).toBe(200);
      expect(
        await server.call('PUT', destinationPath, {
          token: account.token,
          body: { url: 'https://evil.example.com/x' },
        }),
      ).toMatchObject({ status: 403, body: { code: 'sudo_required' } });
      for (const [method, path, body] of [
        ['POST', '/api/user/regenerate-key', undefined],
        ['POST', '/api/user/api-keys', { name: 'deploy', scopes: ['scripts:read'] }],
        ['DELETE', '/api/user/account', undefined],
        ['PUT', '/api/user/email', { email: `new${Date.now()}@example.com` }],
        [
          'POST',
          '/api/notifications/destinations',
          { kind: 'webhook', name: 'x', url: 'https://hooks.example.com/x', events: ['run.failed'] },
        ],
        ['PUT', '/api/open-cloud/key', { apiKey: 'k'.repeat(40), universeId: '123' }],
      ] as const) {
        const res = await server.call(method, path, { token: account.token, body });
        expect(res, `${method} ${path}`).toMatchObject({
          status: 403,
          body: { code: 'sudo_required', methods: ['password'], error: SESSIONS.sudoRequired },
        });
      }
      const status = await server.call('GET', '/api/auth/sudo', { token: account.token });
      expect(status.body).toEqual({ until: null, methods: ['password'] });

      const wrong = await server.call('POST', '/api/auth/sudo', { token: account.token, body: { password: 'nope' } });
      expect(wrong).toMatchObject({ status: 403, body: { error: TWO_FACTOR.wrongPassword } });
      const proved = await server.call('POST', '/api/auth/sudo', {
        token: account.token,
        body: { password: account.password },
      });
      expect(proved.status, proved.text).toBe(200);
      const until = Date.parse(proved.body.until as string);
      expect(until - Date.now()).toBeGreaterThan(9 * 60_000);
      expect(until - Date.now()).toBeLessThanOrEqual(10 * 60_000);
      expect((await server.call('POST', '/api/user/regenerate-key', { token: account.token })).status).toBe(200);
      // The account still exists: the refused delete above did nothing.
      expect((await server.call('GET', '/api/user', { token: account.token })).status).toBe(200);
    });

    it('takes a code in place of the password, and counts wrong proofs against the account until 429', async () => {
      const account = await registerUser(server);
      const secret = await turnOnTotp(account.token, account.password);
      await endSudo(server, account.user.id);
      const status = await server.call('GET', '/api/auth/sudo', { token: account.token });
      expect(status.body.methods).toEqual(['password', 'code']);
      const byCode = await server.call('POST', '/api/auth/sudo', {
        token: account.token,
        body: { code: await codeAt(secret, 1) },
      });
      expect(byCode.status, byCode.text).toBe(200);

      await endSudo(server, account.user.id);
      const answers = await Promise.all(
        Array.from({ length: LIMIT + 3 }, () =>
          server.call('POST', '/api/auth/sudo', { token: account.token, body: { password: 'guess' } }),
        ),
      );
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses.filter((s) => s === 403)).toHaveLength(LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(3);
      // The right password is refused too while the account is locked.
      const locked = await server.call('POST', '/api/auth/sudo', {
        token: account.token,
        body: { password: account.password },
      });
      const wait = Number(locked.headers.get('retry-after'));
      expect(locked).toMatchObject({ status: 429, body: { error: ERRORS.tooManyLoginAttempts(wait) } });
    });
  });

  describe('password and email', () => {
    it('changes the password with the current one, signs out every other session and says how many', async () => {
      const account = await registerUser(server);
      const other = await login(account.input.username, account.password);
      const otherSocket = await openSocket(other.body.token as string);
      const closed = disconnected(otherSocket);
      const change = (body: unknown) => server.call('POST', '/api/user/password', { token: account.token, body });

      expect(await change({ currentPassword: 'wrong one', newPassword: 'a brand new passphrase' })).toMatchObject({
        status: 403,
        body: { error: SESSIONS.wrongCurrentPassword },
      });
      expect(await change({ currentPassword: account.password, newPassword: 'short' })).toMatchObject({ status: 400 });
      expect(await change({ currentPassword: account.password, newPassword: account.password })).toMatchObject({
        status: 400,
        body: { error: SESSIONS.samePassword },
      });
      const done = await change({ currentPassword: account.password, newPassword: 'a brand new passphrase' });
      expect(done).toMatchObject({ status: 200, body: { ended: 1, message: SESSIONS.passwordChanged(1) } });
      expect(SESSIONS.passwordChanged(1)).toBe('Password changed. 1 other session was signed out.');
      expect(await closed).toBe('io server disconnect');
      expect((await server.call('GET', '/api/user', { token: other.body.token as string })).status).toBe(401);
      expect((await server.call('GET', '/api/user', { token: account.token })).status).toBe(200);
      expect((await login(account.input.username, account.password)).status).toBe(401);
      expect((await login(account.input.username, 'a brand new passphrase')).status).toBe(200);
    });

    it('changes the password without the current one only within sudo mode', async () => {
      const account = await registerUser(server);
      await endSudo(server, account.user.id);
      const without = await server.call('POST', '/api/user/password', {
        token: account.token,
        body: { newPassword: 'another good passphrase' },
      });
      expect(without).toMatchObject({ status: 403, body: { code: 'sudo_required' } });
      await server.call('POST', '/api/auth/sudo', { token: account.token, body: { password: account.password } });
      const within = await server.call('POST', '/api/user/password', {
        token: account.token,
        body: { newPassword: 'another good passphrase' },
      });
      expect(within).toMatchObject({ status: 200, body: { ended: 0, message: SESSIONS.passwordChanged(0) } });
    });

    it('changes the email, refusing one another account has', async () => {
      const account = await registerUser(server);
      const other = await registerUser(server);
      const change = (email: string) =>
        server.call('PUT', '/api/user/email', { token: account.token, body: { email } });
      expect(await change(other.input.email.toUpperCase())).toMatchObject({
        status: 409,
        body: { error: ERRORS.emailTaken },
      });
      const fresh = `Moved${Date.now()}@Example.com`;
      const changed = await change(fresh);
      expect(changed).toMatchObject({ status: 200, body: { email: fresh.toLowerCase() } });
      expect((await login(fresh.toLowerCase(), account.password)).status).toBe(200);
    });
  });

  describe('REQUIRE_TWO_FACTOR_FOR_ADMINS', () => {
    it('judges the session: one made before the admin had a second factor gets no admin routes and no admins room', async () => {
      // The admin's first session (registration) passed no second factor: its socket is not given
      // the admins' room, which carries every user's runs and audit entries. An audit entry sent
      // before an event of its own user's would reach it first.
      const early = await openSocket(admin.token);
      const seenEarly: string[] = [];
      early.onAny((name: string) => seenEarly.push(name));
      const bystander = await registerUser(server);
      expect((await server.call('POST', '/api/user/regenerate-key', { token: bystander.token })).status).toBe(200);
      const firstOwn = new Promise((resolve) => early.once('game:servers', resolve));
      await new SimulatedGame({ url: server.url, key: admin.user.apiKey, serverId: 'admin-first' }).ping();
      await firstOwn;
      expect(seenEarly).not.toContain('audit:entry');

      // A second session sets up the app.
      const setupSession = await login(admin.input.username, admin.password);
      const setupToken = setupSession.body.token as string;
      expect((await server.call('GET', '/api/admin/users', { token: setupToken })).body).toEqual({
        error: TWO_FACTOR.adminSetupRequired,
      });
      await turnOnTotp(setupToken, admin.password);

      // The session that confirmed the code passed it; the older one did not.
      expect((await server.call('GET', '/api/admin/users', { token: setupToken })).status).toBe(200);
      expect(await server.call('GET', '/api/admin/users', { token: admin.token })).toMatchObject({
        status: 403,
        body: { error: TWO_FACTOR.adminSetupRequired },
      });

      // Over sockets alike: an audit entry reaches the admin socket of the session with the factor,
      // not the other one, which sees its own user's events (sent after it) only.
      const withFactor = await openSocket(setupToken);
      const without = await openSocket(admin.token);
      const seenWithout: string[] = [];
      without.onAny((name: string) => seenWithout.push(name));
      const audited = new Promise((resolve) => withFactor.once('audit:entry', resolve));
      const stranger = await registerUser(server);
      await server.call('POST', '/api/user/regenerate-key', { token: stranger.token });
      await audited;
      const ownEvent = new Promise((resolve) => without.once('game:servers', resolve));
      await new SimulatedGame({ url: server.url, key: admin.user.apiKey, serverId: 'admin-own' }).ping();
      await ownEvent;
      expect(seenWithout).not.toContain('audit:entry');
    });
  });
});
