import type { JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse, User } from '@moonrelay/contract/auth';
import { ERRORS, VALIDATION } from '@moonrelay/contract/messages';
import { describeOnSQLite, engines } from '../../../test/engines.ts';
import { startTestOidcProvider, type TestIdentity, type TestOidcProvider } from '../../../test/oidc-provider.ts';
import { generate } from 'otplib';
import {
  endSudo,
  registerUser,
  rememberedSignInAddresses,
  startTestServer,
  type TestServer,
} from '../../../test/test-server.ts';
import { sha256Hex } from '../../security/digest.ts';

/**
 * Sign-in with an OpenID Connect provider, end to end over HTTP: Moonrelay's API on one side, a
 * real provider (oidc-provider, server/test/oidc-provider.ts) on the other, its login and consent
 * forms submitted as a browser would.
 */

const refused = (reason: string) => `${ERRORS.idTokenRefused}: ${reason}`;
const now = () => Math.floor(Date.now() / 1000);

describeOnSQLite('sign-in with the identity provider', (engine) => {
  let oidc: TestOidcProvider;
  let server: TestServer;
  let redirectUri: string;

  beforeAll(async () => {
    oidc = await startTestOidcProvider();
    server = await startTestServer(engine, { ...oidc.env(), ADMIN_EMAILS: 'chief@gmail.example' });
    redirectUri = `${server.url}/auth/callback`;
    oidc.allowRedirectUri(redirectUri);
    // The first account is the admin; the identities below sign in to ordinary accounts.
    await registerUser(server);
  });
  afterAll(async () => {
    await server?.close();
    await oidc?.close();
  });

  const tokenCalls = () => oidc.requests.filter((request) => request === 'POST /token').length;

  async function start(path = '/api/auth/google/start', token?: string) {
    const res = await server.call('POST', path, { body: { redirectUri }, token });
    expect(res.status, res.text).toBe(200);
    return res.body as { authorizationUrl: string; state: string };
  }

  /** Signs in at the provider and answers what the callback page would send back. */
  async function callbackFor(authorizationUrl: string, as?: TestIdentity) {
    const back = await oidc.authorize(authorizationUrl, { as });
    expect(back.searchParams.get('error')).toBeNull();
    return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, redirectUri };
  }

  const finish = (body: unknown) => server.call('POST', '/api/auth/google', { body });

  async function signIn(as?: TestIdentity) {
    const { authorizationUrl } = await start();
    return finish(await callbackFor(authorizationUrl, as));
  }

  describe('the authorization request', () => {
    it('GET /api/auth/providers enables the Google button', async () => {
      const res = await server.call('GET', '/api/auth/providers');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ google: { enabled: true, name: 'Google' }, firstAccount: false });
    });

    it('carries client_id, redirect_uri, code, the scopes, offline, consent, state, nonce and a PKCE S256 challenge', async () => {
      const { authorizationUrl, state } = await start();
      const url = new URL(authorizationUrl);
      expect(`${url.origin}${url.pathname}`).toBe(`${oidc.issuer}/auth`);
      const params = Object.fromEntries(url.searchParams);
      expect(params).toMatchObject({
        client_id: oidc.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid email profile',
        access_type: 'offline',
        prompt: 'consent',
        state,
        code_challenge_method: 'S256',
      });
      expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Each request has its own.
      const other = new URL((await start()).authorizationUrl).searchParams;
      expect(other.get('state')).not.toBe(state);
      expect(other.get('nonce')).not.toBe(params.nonce);
      expect(other.get('code_challenge')).not.toBe(params.code_challenge);
    });

    it('keeps only a hash of the state, with the nonce and verifier, for 10 minutes', async () => {
      const before = Date.now();
      const { state, authorizationUrl } = await start();
      const row = await server.app.database.db
        .selectFrom('oidcStates')
        .selectAll()
        .where('stateHash', '=', sha256Hex(state))
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ purpose: 'sign-in', userId: null, redirectUri });
      expect(row.nonce).toBe(new URL(authorizationUrl).searchParams.get('nonce'));
      const ttl = Date.parse(row.expiresAt) - before;
      expect(ttl).toBeGreaterThan(9 * 60_000);
      expect(ttl).toBeLessThanOrEqual(10 * 60_000 + 1000);
    });

    it.each([
      ['another path', '/dashboard'],
      ['a query string', '/auth/callback?next=/admin'],
    ])('refuses a redirectUri with %s', async (_label, path) => {
      const res = await server.call('POST', '/api/auth/google/start', { body: { redirectUri: server.url + path } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(ERRORS.redirectUriNotCallback);
    });

    it.each([
      [{}, VALIDATION.redirectUriRequired],
      [{ redirectUri: 'javascript:alert(1)' }, VALIDATION.redirectUriInvalid],
      [{ redirectUri: 42 }, 'redirectUri must be text'],
    ])('refuses the start body %j with "%s"', async (body, message) => {
      const res = await server.call('POST', '/api/auth/google/start', { body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });
  });

  describe('first and later sign-ins', () => {
    it('creates an account on the first sign-in and signs in to the same one after', async () => {
      const grace = oidc.addUser({ name: 'Grace Hopper', email: `Grace.Hopper+moon${Date.now()}@gmail.example` });
      const first = await signIn(grace);
      expect(first.status, first.text).toBe(200);
      const { token, user } = first.body as AuthResponse;
      // Counted for "sign-in from a new address" like a password sign-in.
      expect(await rememberedSignInAddresses(server, user.id)).toHaveLength(1);
      expect(token).toMatch(/^mrs_/);
      expect(user).toMatchObject({
        name: 'Grace Hopper',
        email: grace.email!.toLowerCase(),
        googleId: grace.sub,
        isAdmin: false,
        username: 'gracehopper',
      });
      expect(user.apiKey).toMatch(/^mr_/);
      expect((await server.call('GET', '/api/user', { token })).body.id).toBe(user.id);

      const again = await signIn(grace);
      expect(again.status).toBe(200);
      expect(again.body.user.id).toBe(user.id);
      expect(again.body.token).not.toBe(token);
      expect(again.body.user.apiKey).toBe(user.apiKey);

      // No password: the password form cannot open it, and Settings says so.
      const login = await server.call('POST', '/api/auth/login', {
        body: { emailOrUsername: user.email, password: 'anything at all' },
      });
      expect(login.status).toBe(401);
      const methods = await server.call('GET', '/api/user/sign-in-methods', { token });
      expect(methods.body).toEqual({ password: false, google: { enabled: true, name: 'Google', googleId: grace.sub } });
    });

    it('derives a unique username from the email (or the name), within the rules', async () => {
      const taken = await registerUser(server, { username: 'linus_t', email: `linus${Date.now()}@example.com` });
      expect(taken.user.username).toBe('linus_t');
      const first = await signIn(oidc.addUser({ email: 'LINUS_T@gmail.example' }));
      expect(first.body.user.username).toBe('linus_t_2');
      const second = await signIn(oidc.addUser({ email: `linus_t@other.example` }));
      expect(second.body.user.username).toBe('linus_t_3');
      // A local part with nothing usable falls back to the name.
      const short = await signIn(oidc.addUser({ email: 'x@gmail.example', name: 'Ēva Q' }));
      expect(short.body.user.username).toBe('va_Q');
      const long = await signIn(oidc.addUser({ email: `${'a'.repeat(64)}@gmail.example` }));
      expect(long.body.user.username).toBe('a'.repeat(30));
    });

    it('makes an ADMIN_EMAILS identity admin', async () => {
      const res = await signIn(oidc.addUser({ email: 'chief@gmail.example' }));
      expect(res.body.user.isAdmin).toBe(true);
    });
  });

  describe('refusals', () => {
    it('refuses a state it never issued, without asking the provider', async () => {
      const { authorizationUrl } = await start();
      const callback = await callbackFor(authorizationUrl);
      const calls = tokenCalls();
      const res = await finish({ ...callback, state: 'not-a-state-we-issued' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: ERRORS.signInStateInvalid });
      expect(tokenCalls()).toBe(calls);
    });

    it('redeems a state once: the same callback a second time is refused', async () => {
      const { authorizationUrl } = await start();
      const callback = await callbackFor(authorizationUrl, oidc.ada);
      expect((await finish(callback)).status).toBe(200);
      const replay = await finish(callback);
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe(ERRORS.signInStateInvalid);
    });

    it('refuses a code the provider already redeemed, even with a fresh state', async () => {
      const { authorizationUrl } = await start();
      const used = await callbackFor(authorizationUrl, oidc.ada);
      expect((await finish(used)).status).toBe(200);
      const fresh = await start();
      const res = await finish({ ...used, state: fresh.state });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: ERRORS.authorizationCodeRefused });
    });

    it('refuses an expired attempt', async () => {
      const { authorizationUrl, state } = await start();
      const callback = await callbackFor(authorizationUrl);
      await server.app.database.db
        .updateTable('oidcStates')
        .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
        .where('stateHash', '=', sha256Hex(state))
        .execute();
      const res = await finish(callback);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(ERRORS.signInStateInvalid);
    });

    it('refuses another redirectUri than the attempt started with', async () => {
      const { authorizationUrl } = await start();
      const callback = await callbackFor(authorizationUrl);
      const res = await finish({ ...callback, redirectUri: 'http://127.0.0.1:1/auth/callback' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(ERRORS.signInStateRedirectMismatch);
    });

    it('refuses an ID token whose nonce is not the one this attempt sent', async () => {
      const url = new URL((await start()).authorizationUrl);
      url.searchParams.set('nonce', 'a-nonce-from-another-attempt');
      const res = await finish(await callbackFor(url.toString()));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: refused('nonce mismatch') });
    });

    it.each([
      ['another audience', (claims: JWTPayload) => ({ ...claims, aud: 'some-other-app' }), 'wrong audience'],
      [
        'several audiences, not issued to us',
        (claims: JWTPayload) => ({ ...claims, aud: [String(claims.aud), 'other'], azp: 'other' }),
        'issued to another party',
      ],
      [
        'an expiry in the past',
        (claims: JWTPayload) => ({ ...claims, iat: now() - 7200, exp: now() - 3600 }),
        'expired',
      ],
      ['another issuer', (claims: JWTPayload) => ({ ...claims, iss: 'https://evil.example' }), 'wrong issuer'],
    ])('refuses an ID token with %s', async (_label, change, reason) => {
      const { authorizationUrl } = await start();
      const callback = await callbackFor(authorizationUrl);
      oidc.tamperNextIdToken(change);
      const res = await finish(callback);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: refused(reason) });
    });

    it("refuses an ID token not signed with the provider's keys", async () => {
      const { authorizationUrl } = await start();
      const callback = await callbackFor(authorizationUrl);
      oidc.tamperNextIdToken((claims) => claims, 'stranger');
      const res = await finish(callback);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: refused("not signed with the provider's keys") });
    });

    it('error=access_denied: the provider sends the browser back with the error and no code', async () => {
      const { authorizationUrl, state } = await start();
      const back = await oidc.authorize(authorizationUrl, { cancel: true });
      expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe(state);
      expect(back.searchParams.get('code')).toBeNull();
    });

    it('refuses an identity whose email belongs to a password account, and links nothing', async () => {
      const owner = await registerUser(server, { email: `owner${Date.now()}@gmail.example` });
      const twin = oidc.addUser({ email: owner.input.email.toUpperCase(), name: 'Not The Owner' });
      const res = await signIn(twin);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: ERRORS.identityEmailTaken });
      const account = await server.call('GET', '/api/user', { token: owner.token });
      expect(account.body.googleId).toBeNull();
      expect(account.body.name).toBe(owner.user.name);
      const linked = await server.app.database.db
        .selectFrom('users')
        .select('id')
        .where('googleId', '=', twin.sub)
        .execute();
      expect(linked).toEqual([]);
    });

    it('refuses an identity without a verified email', async () => {
      expect((await signIn(oidc.addUser({ emailVerified: false }))).body).toEqual({
        error: ERRORS.identityEmailMissing,
      });
      const res = await signIn(oidc.addUser({ email: undefined }));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(ERRORS.identityEmailMissing);
    });

    it.each([
      [{ state: 's', redirectUri: 'http://x/auth/callback' }, VALIDATION.codeRequired],
      [{ code: '', state: 's', redirectUri: 'http://x/auth/callback' }, VALIDATION.codeRequired],
      [{ code: 'c', redirectUri: 'http://x/auth/callback' }, VALIDATION.stateRequired],
      [{ code: 'c', state: 's' }, VALIDATION.redirectUriRequired],
      [{ code: 'c'.repeat(5000), state: 's', redirectUri: 'http://x/auth/callback' }, VALIDATION.codeTooLong],
      [{ code: ['c'], state: 's', redirectUri: 'http://x/auth/callback' }, 'code must be text'],
    ])('refuses the callback body %j with "%s"', async (body, message) => {
      const res = await finish(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });

    it('refuses a body that is not JSON with 415', async () => {
      const res = await server.call('POST', '/api/auth/google', {
        raw: 'code=c&state=s',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(415);
    });
  });

  describe('a stolen session and a second factor', () => {
    const codeAt = (secret: string, offsetSteps = 0) =>
      generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

    it("cannot link the thief's identity without a proof from the last 10 minutes", async () => {
      const victim = await registerUser(server);
      const thiefIdentity = oidc.addUser();
      // The token was taken later: the session's own proof (its sign-in) is more than 10 minutes old.
      await endSudo(server, victim.user.id);
      const started = await server.call('POST', '/api/user/google/start', {
        token: victim.token,
        body: { redirectUri },
      });
      expect(started).toMatchObject({ status: 403, body: { code: 'sudo_required', methods: ['password'] } });
      // Nor by finishing a link started while the session was proved: the finish asks again.
      await server.call('POST', '/api/auth/sudo', { token: victim.token, body: { password: victim.password } });
      const { authorizationUrl } = await start('/api/user/google/start', victim.token);
      const callback = await callbackFor(authorizationUrl, thiefIdentity);
      await endSudo(server, victim.user.id);
      const link = await server.call('POST', '/api/user/google', { token: victim.token, body: callback });
      expect(link).toMatchObject({ status: 403, body: { code: 'sudo_required' } });
      expect((await signIn(thiefIdentity)).body.user?.id).not.toBe(victim.user.id);
    });

    it('asks an account with a second factor for it after the identity provider, as after the password', async () => {
      const owner = await registerUser(server);
      const identity = oidc.addUser();
      const { authorizationUrl } = await start('/api/user/google/start', owner.token);
      const linked = await server.call('POST', '/api/user/google', {
        token: owner.token,
        body: await callbackFor(authorizationUrl, identity),
      });
      expect(linked.status, linked.text).toBe(200);
      const setup = await server.call('POST', '/api/user/two-factor/totp/setup', {
        token: owner.token,
        body: { password: owner.password },
      });
      const secret = setup.body.secret as string;
      expect(
        (
          await server.call('POST', '/api/user/two-factor/totp/confirm', {
            token: owner.token,
            body: { code: await codeAt(secret) },
          })
        ).status,
      ).toBe(200);

      const viaGoogle = await signIn(identity);
      expect(viaGoogle.status, viaGoogle.text).toBe(200);
      expect(viaGoogle.body).toMatchObject({ twoFactorRequired: true, methods: ['totp'] });
      expect(viaGoogle.body.token).toBeUndefined();
      const wrong = await server.call('POST', '/api/auth/login/two-factor', {
        body: { challenge: viaGoogle.body.challenge, code: '000000' },
      });
      expect(wrong.status).toBe(401);
      const done = await server.call('POST', '/api/auth/login/two-factor', {
        body: { challenge: viaGoogle.body.challenge, code: await codeAt(secret, 1) },
      });
      expect(done.status, done.text).toBe(200);
      expect(done.body.user.id).toBe(owner.user.id);
      const sessions = await server.call('GET', '/api/user/sessions', { token: done.body.token as string });
      expect(sessions.body.sessions.find((session: { current: boolean }) => session.current)).toMatchObject({
        signedInWith: 'google',
        secondFactor: 'code',
      });
    });
  });

  describe('linking from Settings', () => {
    it('links the identity to a signed-in password account; Google sign-in then opens that account', async () => {
      const owner = await registerUser(server, { email: `linker${Date.now()}@gmail.example` });
      const identity = oidc.addUser({ email: owner.input.email });
      // Its own sign-in is refused (the email is taken) ...
      expect((await signIn(identity)).status).toBe(409);
      // ... so the owner links it while signed in.
      const { authorizationUrl } = await start('/api/user/google/start', owner.token);
      const linked = await server.call('POST', '/api/user/google', {
        token: owner.token,
        body: await callbackFor(authorizationUrl, identity),
      });
      expect(linked.status, linked.text).toBe(200);
      expect((linked.body as User).googleId).toBe(identity.sub);
      expect((linked.body as User).id).toBe(owner.user.id);
      const methods = await server.call('GET', '/api/user/sign-in-methods', { token: owner.token });
      expect(methods.body).toEqual({
        password: true,
        google: { enabled: true, name: 'Google', googleId: identity.sub },
      });

      const viaGoogle = await signIn(identity);
      expect(viaGoogle.status).toBe(200);
      expect(viaGoogle.body.user.id).toBe(owner.user.id);

      // Linked already: another link is refused until it is unlinked.
      const again = await server.call('POST', '/api/user/google/start', { token: owner.token, body: { redirectUri } });
      expect(again.status).toBe(409);
      expect(again.body.error).toBe(ERRORS.identityAlreadyLinked);

      // Unlinking keeps the password: the account is not locked out, and Google no longer opens it.
      const unlinked = await server.call('DELETE', '/api/user/google', { token: owner.token });
      expect(unlinked.status).toBe(200);
      expect(unlinked.body.googleId).toBeNull();
      const login = await server.call('POST', '/api/auth/login', {
        body: { emailOrUsername: owner.input.email, password: owner.password },
      });
      expect(login.status).toBe(200);
      expect((await signIn(identity)).status).toBe(409);
      const notLinked = await server.call('DELETE', '/api/user/google', { token: owner.token });
      expect(notLinked.status).toBe(409);
      expect(notLinked.body.error).toBe(ERRORS.identityNotLinked);

      // Both changes are in the audit log, once each.
      const entries = await server.app.database.db
        .selectFrom('auditLog')
        .select('action')
        .where('targetId', '=', owner.user.id)
        .orderBy('createdAt')
        .execute();
      expect(entries.map((entry) => entry.action)).toEqual(['account.google_linked', 'account.google_unlinked']);
    });

    it('refuses an identity that is already linked to another account', async () => {
      const other = await registerUser(server);
      const { authorizationUrl } = await start('/api/user/google/start', other.token);
      const res = await server.call('POST', '/api/user/google', {
        token: other.token,
        body: await callbackFor(authorizationUrl, oidc.ada),
      });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(ERRORS.identityLinkedElsewhere);
    });

    it('never lets an account without a password unlink', async () => {
      const onlyGoogle = await signIn(oidc.addUser());
      const res = await server.call('DELETE', '/api/user/google', { token: onlyGoogle.body.token });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(ERRORS.identityUnlinkNeedsPassword);
      expect((await server.call('GET', '/api/user', { token: onlyGoogle.body.token })).body.googleId).not.toBeNull();
    });

    it('keeps sign-in and link attempts apart, and a link attempt to its own account', async () => {
      const alice = await registerUser(server);
      const bob = await registerUser(server);
      const link = await start('/api/user/google/start', alice.token);
      const linkCallback = await callbackFor(link.authorizationUrl, oidc.addUser());
      // A link attempt cannot sign anyone in ...
      expect((await finish(linkCallback)).body.error).toBe(ERRORS.signInStateInvalid);

      // ... nor be finished by another account ...
      const link2 = await start('/api/user/google/start', alice.token);
      const res = await server.call('POST', '/api/user/google', {
        token: bob.token,
        body: await callbackFor(link2.authorizationUrl, oidc.addUser()),
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(ERRORS.signInStateInvalid);

      // ... and a sign-in attempt cannot link.
      const signInAttempt = await start();
      const asLink = await server.call('POST', '/api/user/google', {
        token: alice.token,
        body: await callbackFor(signInAttempt.authorizationUrl, oidc.addUser()),
      });
      expect(asLink.status).toBe(400);
      expect((await server.call('GET', '/api/user', { token: alice.token })).body.googleId).toBeNull();
    });

    it('needs a signed-in session, not an API key', async () => {
      const user = await registerUser(server);
      for (const [method, path] of [
        ['GET', '/api/user/sign-in-methods'],
        ['POST', '/api/user/google/start'],
        ['POST', '/api/user/google'],
        ['DELETE', '/api/user/google'],
      ] as const) {
        const body = method === 'POST' ? { redirectUri } : undefined;
        expect((await server.call(method, path, { body })).status, path).toBe(401);
        const withKey = await server.call(method, path, { token: user.user.apiKey, body });
        expect(withKey.status, path).toBe(403);
      }
    });

    it("removes an account's pending attempts with the account", async () => {
      const user = await registerUser(server);
      await start('/api/user/google/start', user.token);
      await server.call('DELETE', '/api/user/account', { token: user.token });
      const left = await server.app.database.db
        .selectFrom('oidcStates')
        .select('stateHash')
        .where('userId', '=', user.user.id)
        .execute();
      expect(left).toEqual([]);
    });
  });
});

// The settings around the provider: these need no database engine of their own.
describe('identity provider settings', () => {
  const engine = engines[0]!;

  it('without a client, the button is disabled and the flow answers 404', async () => {
    const server = await startTestServer(engine);
    try {
      expect((await server.call('GET', '/api/auth/providers')).body).toEqual({
        google: { enabled: false, name: 'Google' },
        firstAccount: true,
      });
      const start = await server.call('POST', '/api/auth/google/start', {
        body: { redirectUri: `${server.url}/auth/callback` },
      });
      expect(start.status).toBe(404);
      expect(start.body.error).toBe(ERRORS.identityProviderNotConfigured);
      const finish = await server.call('POST', '/api/auth/google', {
        body: { code: 'c', state: 's', redirectUri: `${server.url}/auth/callback` },
      });
      expect(finish.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('an unreachable provider answers 502 with a clear error, and a later try discovers again', async () => {
    const server = await startTestServer(engine, {
      OIDC_ISSUER_URL: 'http://127.0.0.1:9',
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_PROVIDER_NAME: 'Acme SSO',
    });
    try {
      expect((await server.call('GET', '/api/auth/providers')).body).toEqual({
        google: { enabled: true, name: 'Acme SSO' },
        firstAccount: true,
      });
      for (let i = 0; i < 2; i++) {
        const res = await server.call('POST', '/api/auth/google/start', {
          body: { redirectUri: `${server.url}/auth/callback` },
        });
        expect(res.status).toBe(502);
        expect(res.body).toEqual({ error: ERRORS.identityProviderUnavailable });
      }
    } finally {
      await server.close();
    }
  });

  it('with PUBLIC_URL, only its /auth/callback is accepted', async () => {
    const oidc = await startTestOidcProvider();
    const server = await startTestServer(engine, { ...oidc.env(), PUBLIC_URL: 'https://moonrelay.example.com/' });
    try {
      const other = await server.call('POST', '/api/auth/google/start', {
        body: { redirectUri: `${server.url}/auth/callback` },
      });
      expect(other.status).toBe(400);
      expect(other.body.error).toBe(ERRORS.redirectUriNotCallback);
      const own = await server.call('POST', '/api/auth/google/start', {
        body: { redirectUri: 'https://moonrelay.example.com/auth/callback' },
      });
      expect(own.status).toBe(200);
    } finally {
      await server.close();
      await oidc.close();
    }
  });

  it('reads name and email from the userinfo endpoint when the ID token carries none', async () => {
    const oidc = await startTestOidcProvider({ claimsInIdToken: false });
    const server = await startTestServer(engine, oidc.env());
    const redirectUri = `${server.url}/auth/callback`;
    oidc.allowRedirectUri(redirectUri);
    try {
      const start = await server.call('POST', '/api/auth/google/start', { body: { redirectUri } });
      const back = await oidc.authorize(start.body.authorizationUrl);
      const res = await server.call('POST', '/api/auth/google', {
        body: { code: back.searchParams.get('code'), state: back.searchParams.get('state'), redirectUri },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.user).toMatchObject({ name: 'Ada Lovelace', email: oidc.ada.email, googleId: oidc.ada.sub });
      expect(oidc.requests).toContain('GET /me');
    } finally {
      await server.close();
      await oidc.close();
    }
  });
});
