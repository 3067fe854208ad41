import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type Endpoint } from '@moonrelay/contract/endpoints';
import { EXAMPLES } from '@moonrelay/contract/examples';
import { ErrorResponseSchema } from '@moonrelay/contract/common';
import { ERRORS, TWO_FACTOR } from '@moonrelay/contract/messages';
import { describeOnSQLite, engines } from '../../../test/engines.ts';
import { createSoftAuthenticator, type SoftAuthenticator } from '../../../test/soft-authenticator.ts';
import {
  endSudo,
  registerUser,
  rememberedSignInAddresses,
  startTestServer,
  type TestServer,
} from '../../../test/test-server.ts';

const LIMIT = 8;
const codeAt = (secret: string, offsetSteps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

type Account = Awaited<ReturnType<typeof registerUser>>;

describeOnSQLite('passkeys as a second factor', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { LOGIN_MAX_FAILURES: String(LIMIT) });
  });
  afterAll(() => server.close());

  const login = (account: Account) =>
    server.call('POST', '/api/auth/login', {
      body: { emailOrUsername: account.input.username, password: account.password },
    });
  const registrationOptions = (account: Account, proof: unknown = { password: account.password }) =>
    server.call('POST', '/api/user/two-factor/passkeys/options', { token: account.token, body: proof });
  const auditOf = async (userId: string) =>
    server.app.database.db
      .selectFrom('auditLog')
      .select(['action', 'actorName', 'details'])
      .where('targetId', '=', userId)
      .orderBy('createdAt')
      .execute();

  /** Registers the authenticator's passkey to the account under `name`. */
  async function addPasskey(account: Account, authenticator: SoftAuthenticator, name = 'Laptop') {
    const options = await registrationOptions(account);
    expect(options.status).toBe(200);
    return server.call('POST', '/api/user/two-factor/passkeys', {
      token: account.token,
      body: { name, credential: authenticator.register(options.body.options, server.url) },
    });
  }

  /** The password step, then the passkey options for its challenge. */
  async function passkeyStep(account: Account) {
    const first = await login(account);
    expect(first.status).toBe(200);
    const options = await server.call('POST', '/api/auth/login/passkey/options', {
      body: { challenge: first.body.challenge },
    });
    expect(options.status).toBe(200);
    return { challenge: first.body.challenge as string, options: options.body.options as Record<string, unknown> };
  }
  const finish = (challenge: string, credential: unknown) =>
    server.call('POST', '/api/auth/login/passkey', { body: { challenge, credential } });

  it('adds a named passkey after the current password, lists it, and audits it', async () => {
    const account = await registerUser(server);
    expect(await registrationOptions(account, { password: 'not my password' })).toMatchObject({
      status: 403,
      body: { error: TWO_FACTOR.wrongPassword },
    });
    // No proof in the body: the sign-in a moment ago is proof enough (sudo mode) for 10 minutes, not after.
    await endSudo(server, account.user.id);
    expect(await registrationOptions(account, {})).toMatchObject({
      status: 403,
      body: { code: 'sudo_required', methods: ['password'] },
    });

    const options = await registrationOptions(account);
    expect(options.body.options).toMatchObject({
      rp: { name: 'Moonrelay', id: '127.0.0.1' },
      user: { name: account.input.username },
      attestation: 'none',
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
    });
    const authenticator = createSoftAuthenticator();
    const added = await server.call('POST', '/api/user/two-factor/passkeys', {
      token: account.token,
      body: { name: '  Work laptop ', credential: authenticator.register(options.body.options, server.url) },
    });
    expect(added.status).toBe(200);
    expect(added.body.passkey).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    expect(added.body.status).toMatchObject({ totp: false, passkeys: 1 });

    const list = await server.call('GET', '/api/user/two-factor/passkeys', { token: account.token });
    expect(list.body.passkeys).toEqual([
      { id: added.body.passkey.id, name: 'Work laptop', createdAt: expect.any(String), lastUsedAt: null },
    ]);
    // Another account sees none of it.
    const other = await registerUser(server);
    expect((await server.call('GET', '/api/user/two-factor/passkeys', { token: other.token })).body).toEqual({
      passkeys: [],
    });
    const audit = await auditOf(account.user.id);
    expect(audit.map((entry) => entry.action)).toContain('account.passkey_added');

    // The same credential again (a second registration from the same authenticator) is refused.
    expect((await addPasskey(account, authenticator)).status).toBe(409);
  });

  it('asks for a passkey after the password, signs in with it once, and records its use', async () => {
    const account = await registerUser(server);
    const authenticator = createSoftAuthenticator();
    expect((await addPasskey(account, authenticator)).status).toBe(200);

    const first = await login(account);
    expect(first.body).toEqual({ twoFactorRequired: true, methods: ['passkey'], challenge: expect.any(String) });
    const { challenge, options } = await passkeyStep(account);
    expect(options.rpId).toBe('127.0.0.1');
    expect(options.allowCredentials).toEqual([
      { id: authenticator.credentialId, type: 'public-key', transports: ['internal'] },
    ]);

    const answer = authenticator.signIn(options, server.url);
    const signedIn = await finish(challenge, answer);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(account.user.id);
    expect((await server.call('GET', '/api/user', { token: signedIn.body.token })).status).toBe(200);
    // The password step alone remembered nothing; the passkey step counts as the sign-in.
    expect(await rememberedSignInAddresses(server, account.user.id)).toHaveLength(1);
    const [key] = (await server.call('GET', '/api/user/two-factor/passkeys', { token: account.token })).body.passkeys;
    expect(key.lastUsedAt).toEqual(expect.any(String));

    // The same answer again, with a fresh password step: its challenge was spent.
    const again = await passkeyStep(account);
    expect(await finish(again.challenge, answer)).toMatchObject({
      status: 401,
      body: { error: TWO_FACTOR.passkeyChallengeExpired },
    });
    // A fresh answer signs in.
    expect(
      (await finish(again.challenge, authenticator.signIn((await passkeyStep(account)).options, server.url))).status,
    ).toBe(200);
  });

  it('refuses a counter that did not move forward, an expired challenge and a challenge it never gave', async () => {
    const account = await registerUser(server);
    const authenticator = createSoftAuthenticator();
    await addPasskey(account, authenticator);
    const step = await passkeyStep(account);
    expect((await finish(step.challenge, authenticator.signIn(step.options, server.url))).status).toBe(200);

    // A clone of the authenticator still at counter 1.
    const cloned = await passkeyStep(account);
    expect(await finish(cloned.challenge, authenticator.signIn(cloned.options, server.url, 1))).toMatchObject({
      status: 401,
      body: { error: TWO_FACTOR.passkeyNotVerified },
    });

    const expired = await passkeyStep(account);
    await server.app.database.db
      .updateTable('passkeyChallenges')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('challenge', '=', expired.options.challenge as string)
      .execute();
    expect(await finish(expired.challenge, authenticator.signIn(expired.options, server.url))).toMatchObject({
      status: 401,
      body: { error: TWO_FACTOR.passkeyChallengeExpired },
    });

    const made = await passkeyStep(account);
    const madeUp = authenticator.signIn({ ...made.options, challenge: 'bm90LWEtY2hhbGxlbmdlLWdpdmVu' }, server.url);
    expect(await finish(made.challenge, madeUp)).toMatchObject({
      status: 401,
      body: { error: TWO_FACTOR.passkeyChallengeExpired },
    });
    // A sign-in challenge does not register a passkey, nor a registration challenge sign in.
    const crossed = await server.call('POST', '/api/user/two-factor/passkeys', {
      token: account.token,
      body: {
        name: 'Crossed',
        credential: createSoftAuthenticator().register({ ...made.options, rp: { id: '127.0.0.1' } }, server.url),
      },
    });
    expect(crossed).toMatchObject({ status: 400, body: { error: TWO_FACTOR.passkeyChallengeExpired } });
  });

  it("refuses another account's passkey, another site's answer and malformed answers with a 4xx", async () => {
    const owner = await registerUser(server);
    const ownerKey = createSoftAuthenticator();
    await addPasskey(owner, ownerKey);
    const account = await registerUser(server);
    await addPasskey(account, createSoftAuthenticator());

    // The owner's passkey answering the other account's sign-in.
    const step = await passkeyStep(account);
    expect(await finish(step.challenge, ownerKey.signIn(step.options, server.url))).toMatchObject({
      status: 401,
      body: { error: TWO_FACTOR.passkeyUnknown },
    });

    // An answer made for another origin.
    const options = await registrationOptions(account);
    const phished = await server.call('POST', '/api/user/two-factor/passkeys', {
      token: account.token,
      body: {
        name: 'Phished',
        credential: createSoftAuthenticator().register(options.body.options, 'https://evil.example'),
      },
    });
    expect(phished).toMatchObject({ status: 400, body: { error: TWO_FACTOR.passkeyNotVerified } });

    const malformed: [unknown, number][] = [
      ['not a credential', 400],
      [{ id: 'abc', rawId: 'abc', type: 'public-key' }, 400],
      [{ id: 'a b', rawId: 'abc', type: 'public-key', response: {} }, 400],
      [{ id: 'abc', rawId: 'abc', type: 'password', response: {} }, 400],
    ];
    for (const [credential, status] of malformed) {
      const login2 = await passkeyStep(account);
      const answer = await finish(login2.challenge, credential);
      expect(answer.status, JSON.stringify(credential)).toBe(status);
      expect(answer.body.error).toEqual(expect.any(String));
      const added = await server.call('POST', '/api/user/two-factor/passkeys', {
        token: account.token,
        body: { name: 'Bad', credential },
      });
      expect(added.status, JSON.stringify(credential)).toBe(status);
    }
    // Well-formed base64url that is no WebAuthn answer at all.
    const garbage = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
    };
    const mine = createSoftAuthenticator();
    await addPasskey(account, mine, 'Second');
    const garbageStep = await passkeyStep(account);
    expect(
      await finish(garbageStep.challenge, { ...garbage, id: mine.credentialId, rawId: mine.credentialId }),
    ).toMatchObject({
      status: 401,
      body: { error: TWO_FACTOR.passkeyNotVerified },
    });
    await registrationOptions(account);
    const garbageRegistration = await server.call('POST', '/api/user/two-factor/passkeys', {
      token: account.token,
      body: {
        name: 'Bad',
        credential: { ...garbage, response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' } },
      },
    });
    expect(garbageRegistration).toMatchObject({ status: 400, body: { error: TWO_FACTOR.passkeyNotVerified } });
    const noName = await server.call('POST', '/api/user/two-factor/passkeys', {
      token: account.token,
      body: { name: ' ', credential: garbage },
    });
    expect(noName).toMatchObject({ status: 400, body: { error: TWO_FACTOR.passkeyNameRequired } });
    // No challenge of the password step: refused before any passkey is named.
    expect(
      await server.call('POST', '/api/auth/login/passkey/options', { body: { challenge: 'nonsense' } }),
    ).toMatchObject({ status: 401, body: { error: TWO_FACTOR.challengeInvalid } });
  });

  it('removes a passkey after the current password or a code, audited; then the password alone signs in', async () => {
    const account = await registerUser(server);
    const added = await addPasskey(account, createSoftAuthenticator());
    const id = added.body.passkey.id as string;
    const remove = (passkeyId: string, token: string, body: unknown) =>
      server.call('POST', `/api/user/two-factor/passkeys/${passkeyId}/remove`, { token, body });

    expect(await remove(id, account.token, { password: 'wrong password' })).toMatchObject({
      status: 403,
      body: { error: TWO_FACTOR.wrongPassword },
    });
    const other = await registerUser(server);
    expect(await remove(id, other.token, { password: other.password })).toMatchObject({
      status: 404,
      body: { error: TWO_FACTOR.passkeyNotFound },
    });
    const done = await remove(id, account.token, { password: account.password });
    expect(done).toMatchObject({ status: 200, body: { passkeys: 0 } });
    expect((await login(account)).body.token).toBeTruthy();
    const removal = (await auditOf(account.user.id)).find((entry) => entry.action === 'account.passkey_removed');
    expect(removal).toBeDefined();

    // With an authenticator app too, a recovery code proves it as well.
    const withApp = await registerUser(server);
    const setup = await server.call('POST', '/api/user/two-factor/totp/setup', {
      token: withApp.token,
      body: { password: withApp.password },
    });
    const confirm = await server.call('POST', '/api/user/two-factor/totp/confirm', {
      token: withApp.token,
      body: { code: await codeAt(setup.body.secret) },
    });
    const key = await addPasskey(withApp, createSoftAuthenticator());
    expect((await login(withApp)).body.methods).toEqual(['totp', 'passkey']);
    const recovery = confirm.body.recoveryCodes[0] as string;
    expect((await remove(key.body.passkey.id, withApp.token, { code: recovery })).status).toBe(200);
  });

  it('lets a user who lost the app sign in and turn it off with recovery codes, one field for either proof', async () => {
    const account = await registerUser(server);
    const setup = await server.call('POST', '/api/user/two-factor/totp/setup', {
      token: account.token,
      body: { password: account.password },
    });
    const confirm = await server.call('POST', '/api/user/two-factor/totp/confirm', {
      token: account.token,
      body: { code: await codeAt(setup.body.secret) },
    });
    const [first, second] = confirm.body.recoveryCodes as string[];
    const step = await login(account);
    const signedIn = await server.call('POST', '/api/auth/login/two-factor', {
      body: { challenge: step.body.challenge, code: first },
    });
    expect(signedIn.status).toBe(200);
    // Settings' one field sends what was typed as both; a recovery code proves it.
    const off = await server.call('POST', '/api/user/two-factor/totp/disable', {
      token: signedIn.body.token,
      body: { password: second, code: second },
    });
    expect(off).toMatchObject({ status: 200, body: { totp: false } });
    const actions = (await auditOf(account.user.id)).map((entry) => entry.action);
    expect(actions.filter((action) => action === 'account.recovery_code_used')).toHaveLength(2);
    expect(actions).toContain('account.two_factor_disabled');
    // Neither: one clear refusal.
    const again = await registerUser(server);
    await addPasskey(again, createSoftAuthenticator());
    expect(
      await server.call('POST', '/api/user/two-factor/passkeys/options', {
        token: again.token,
        body: { password: 'AAAAA-BBBBB', code: 'AAAAA-BBBBB' },
      }),
    ).toMatchObject({ status: 403, body: { error: TWO_FACTOR.wrongProof } });
  });

  it('signs in with a passkey alone when it verified its user, for the account it belongs to', async () => {
    const account = await registerUser(server);
    const setup = await server.call('POST', '/api/user/two-factor/totp/setup', {
      token: account.token,
      body: { password: account.password },
    });
    await server.call('POST', '/api/user/two-factor/totp/confirm', {
      token: account.token,
      body: { code: await codeAt(setup.body.secret) },
    });
    const authenticator = createSoftAuthenticator();
    await addPasskey(account, authenticator);
    const start = async () => {
      const answer = await server.call('POST', '/api/auth/passkey/options');
      expect(answer.status).toBe(200);
      return answer.body.options as Record<string, unknown>;
    };
    const signIn = (credential: unknown) => server.call('POST', '/api/auth/passkey', { body: { credential } });

    const options = await start();
    expect(options).toMatchObject({ rpId: '127.0.0.1', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);
    const answer = authenticator.signIn(options, server.url);
    const signedIn = await signIn(answer);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(account.user.id);
    expect(await rememberedSignInAddresses(server, account.user.id)).toHaveLength(1);
    // Replayed: its challenge is spent.
    expect(await signIn(answer)).toMatchObject({ status: 401, body: { error: TWO_FACTOR.passkeyChallengeExpired } });
    // Without user verification it is one factor only: refused.
    expect(
      await signIn(authenticator.signIn(await start(), server.url, undefined, { userVerified: false })),
    ).toMatchObject({ status: 401, body: { error: TWO_FACTOR.passkeyNotVerified } });
    // Claiming another account's user handle.
    const other = await registerUser(server);
    const otherHandle = Buffer.from(other.user.id).toString('base64url');
    expect(
      await signIn(authenticator.signIn(await start(), server.url, undefined, { userHandle: otherHandle })),
    ).toMatchObject({ status: 401, body: { error: TWO_FACTOR.passkeyNotVerified } });
    // A passkey Moonrelay never registered.
    expect(await signIn(createSoftAuthenticator().signIn(await start(), server.url))).toMatchObject({
      status: 401,
      body: { error: TWO_FACTOR.passkeyUnknownAnywhere },
    });
    // A second-step challenge does not sign in alone.
    const step = await passkeyStep(account);
    expect(await signIn(authenticator.signIn(step.options, server.url))).toMatchObject({
      status: 401,
      body: { error: TWO_FACTOR.passkeyChallengeExpired },
    });
    expect((await signIn('nonsense')).status).toBe(400);
  });

  it("lets an admin reset a user's two-factor sign-in, audited, as the last resort", async () => {
    const admin = await registerUser(server);
    await server.app.database.db.updateTable('users').set({ isAdmin: 1 }).where('id', '=', admin.user.id).execute();
    const member = await registerUser(server);
    const setup = await server.call('POST', '/api/user/two-factor/totp/setup', {
      token: member.token,
      body: { password: member.password },
    });
    await server.call('POST', '/api/user/two-factor/totp/confirm', {
      token: member.token,
      body: { code: await codeAt(setup.body.secret) },
    });
    await addPasskey(member, createSoftAuthenticator());
    const reset = (token: string, userId: string) =>
      server.call('POST', `/api/admin/users/${userId}/two-factor/reset`, { token });

    expect(await reset(member.token, member.user.id)).toMatchObject({
      status: 403,
      body: { error: ERRORS.adminsOnly },
    });
    expect(await reset(admin.token, 'no-such-user')).toMatchObject({ status: 404 });
    expect(await reset(admin.token, member.user.id)).toMatchObject({ status: 200, body: { success: true } });
    expect((await login(member)).body.token).toBeTruthy();
    const status = await server.call('GET', '/api/user/two-factor', { token: member.token });
    expect(status.body).toMatchObject({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
    const entry = (await auditOf(member.user.id)).find((row) => row.action === 'admin.two_factor_reset');
    expect(entry?.actorName).toBe(admin.input.username);
    expect(await reset(admin.token, member.user.id)).toMatchObject({
      status: 409,
      body: { error: TWO_FACTOR.adminResetNothing },
    });
  });
});

describe('passkeys and the address Moonrelay is reached at', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!, {
      PUBLIC_URL: 'https://moonrelay.example',
      REQUIRE_TWO_FACTOR_FOR_ADMINS: 'true',
    });
  });
  afterAll(() => server.close());

  it("binds passkeys to PUBLIC_URL whatever the request names, and counts one as an admin's second factor", async () => {
    const admin = await registerUser(server);
    expect(admin.user.isAdmin).toBe(true);
    expect((await server.call('GET', '/api/admin/users', { token: admin.token })).status).toBe(403);

    const options = await server.call('POST', '/api/user/two-factor/passkeys/options', {
      token: admin.token,
      body: { password: admin.password },
    });
    expect(options.body.options.rp.id).toBe('moonrelay.example');
    const authenticator = createSoftAuthenticator();
    // Answered for the address the request came to, not the public one: refused.
    const local = await server.call('POST', '/api/user/two-factor/passkeys', {
      token: admin.token,
      body: { name: 'Key', credential: authenticator.register(options.body.options, server.url) },
    });
    expect(local).toMatchObject({ status: 400, body: { error: TWO_FACTOR.passkeyNotVerified } });

    const again = await server.call('POST', '/api/user/two-factor/passkeys/options', {
      token: admin.token,
      body: { password: admin.password },
    });
    const added = await server.call('POST', '/api/user/two-factor/passkeys', {
      token: admin.token,
      body: { name: 'Key', credential: authenticator.register(again.body.options, 'https://moonrelay.example') },
    });
    expect(added.status).toBe(200);
    expect(added.body.status).toMatchObject({ setupRequired: false, passkeys: 1 });
    expect((await server.call('GET', '/api/admin/users', { token: admin.token })).status).toBe(200);
  });
});

describe('the passkey endpoints in the contract', () => {
  const names = [
    'listPasskeys',
    'passkeyRegistrationOptions',
    'registerPasskey',
    'removePasskey',
    'loginPasskeyOptions',
    'loginPasskey',
    'adminResetTwoFactor',
    'passkeySignInOptions',
    'passkeySignIn',
  ] as const;

  it.each(names)('%s: its example request, answer and error match the contract', (name) => {
    const endpoint = (endpoints as Record<string, Endpoint>)[name]!;
    const example = EXAMPLES[name]!;
    expect(example, name).toBeDefined();
    expect(endpoint.response.safeParse(example.response).error).toBeUndefined();
    if (endpoint.body) expect(endpoint.body.safeParse(example.body).error).toBeUndefined();
    else expect(example.body).toBeUndefined();
    for (const param of endpoint.path.matchAll(/:(\w+)/g)) expect(example.params?.[param[1]!]).toBeDefined();
    expect(ErrorResponseSchema.safeParse(example.error.body).error).toBeUndefined();
    expect(endpoint.errors).toContain(example.error.status);
  });
});
