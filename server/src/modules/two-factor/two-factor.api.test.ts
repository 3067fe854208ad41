import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, TWO_FACTOR } from '@moonrelay/contract/messages';
import { describeEachEngine } from '../../../test/engines.ts';
import { endSudo, registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

const LIMIT = 5;
/** The code an authenticator app shows `offsetSteps` steps of 30 seconds from now. */
const codeAt = (secret: string, offsetSteps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

describeEachEngine('two-factor sign-in with an authenticator app', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { LOGIN_MAX_FAILURES: String(LIMIT) });
  });
  afterAll(() => server.close());

  const login = (emailOrUsername: string, password: string) =>
    server.call('POST', '/api/auth/login', { body: { emailOrUsername, password } });
  const secondStep = (challenge: string, code: string) =>
    server.call('POST', '/api/auth/login/two-factor', { body: { challenge, code } });
  const auditActions = async (userId: string) =>
    (
      await server.app.database.db
        .selectFrom('auditLog')
        .select('action')
        .where('targetId', '=', userId)
        .orderBy('createdAt')
        .execute()
    ).map((row) => row.action);

  /** A registered account with an authenticator app set up and confirmed. */
  async function enrolled() {
    const account = await registerUser(server);
    const setup = await server.call('POST', '/api/user/two-factor/totp/setup', {
      token: account.token,
      body: { password: account.password },
    });
    expect(setup.status).toBe(200);
    const secret = setup.body.secret as string;
    const confirm = await server.call('POST', '/api/user/two-factor/totp/confirm', {
      token: account.token,
      body: { code: await codeAt(secret) },
    });
    expect(confirm.status).toBe(200);
    return { ...account, secret, setup: setup.body, recoveryCodes: confirm.body.recoveryCodes as string[] };
  }

  it('sets up with the current password, answering a secret, an otpauth URL and a QR code, inactive until confirmed', async () => {
    const account = await registerUser(server);
    const wrong = await server.call('POST', '/api/user/two-factor/totp/setup', {
      token: account.token,
      body: { password: 'not my password' },
    });
    expect(wrong).toMatchObject({ status: 403, body: { error: TWO_FACTOR.wrongPassword } });

    const setup = await server.call('POST', '/api/user/two-factor/totp/setup', {
      token: account.token,
      body: { password: account.password },
    });
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUrl).toBe(
      `otpauth://totp/Moonrelay:${encodeURIComponent(account.input.email)}?secret=${setup.body.secret}&issuer=Moonrelay`,
    );
    expect(setup.body.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);

    // Not asked for yet: the login still answers a session.
    const before = await login(account.input.username, account.password);
    expect(before.status).toBe(200);
    expect(before.body.token).toBeTruthy();
    const status = await server.call('GET', '/api/user/two-factor', { token: account.token });
    expect(status.body).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: 0,
      requiredForAdmins: false,
      setupRequired: false,
    });

    // The secret is sealed at rest.
    const row = await server.app.database.db
      .selectFrom('totpFactors')
      .selectAll()
      .where('userId', '=', account.user.id)
      .executeTakeFirstOrThrow();
    expect(row.secretSealed).not.toContain(setup.body.secret);
    expect(row.confirmedAt).toBeNull();
  });

  it('confirms with a code, answering ten recovery codes stored only as hashes, and audits it', async () => {
    const account = await registerUser(server);
    const setup = await server.call('POST', '/api/user/two-factor/totp/setup', {
      token: account.token,
      body: { password: account.password },
    });
    const wrong = await server.call('POST', '/api/user/two-factor/totp/confirm', {
      token: account.token,
      body: { code: await codeAt(setup.body.secret, -4) },
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: TWO_FACTOR.wrongSetupCode } });

    const confirm = await server.call('POST', '/api/user/two-factor/totp/confirm', {
      token: account.token,
      body: { code: await codeAt(setup.body.secret) },
    });
    expect(confirm.status).toBe(200);
    const codes = confirm.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(confirm.body.status).toMatchObject({ totp: true, recoveryCodesLeft: 10 });

    const stored = await server.app.database.db
      .selectFrom('recoveryCodes')
      .select('codeHash')
      .where('userId', '=', account.user.id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const { codeHash } of stored) expect(codes.some((code) => codeHash.includes(code))).toBe(false);
    expect(await auditActions(account.user.id)).toContain('account.two_factor_enabled');

    const again = await server.call('POST', '/api/user/two-factor/totp/setup', {
      token: account.token,
      body: { password: account.password },
    });
    expect(again).toMatchObject({ status: 409, body: { error: TWO_FACTOR.alreadyOn } });
  });

  it('asks for a code after the password, and accepts each step of the app once', async () => {
    const account = await enrolled();
    const first = await login(account.input.email, account.password);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ twoFactorRequired: true, methods: ['totp'], challenge: expect.any(String) });

    // A code of a step too far back is refused.
    const stale = await secondStep(first.body.challenge, await codeAt(account.secret, -3));
    expect(stale).toMatchObject({ status: 401, body: { error: TWO_FACTOR.wrongCode } });
    // The confirming code's step was spent by the confirmation; the next step's code signs in.
    const next = await codeAt(account.secret, 1);
    const signedIn = await secondStep(first.body.challenge, next);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(account.user.id);
    expect((await server.call('GET', '/api/user', { token: signedIn.body.token })).status).toBe(200);

    // The same code a second time: refused, with a new challenge too.
    const second = await login(account.input.email, account.password);
    const reused = await secondStep(second.body.challenge, next);
    expect(reused).toMatchObject({ status: 401, body: { error: TWO_FACTOR.wrongCode } });
  });

  it('accepts each recovery code once, however typed, and audits its use', async () => {
    const account = await enrolled();
    const [code] = account.recoveryCodes;
    const { body } = await login(account.input.username, account.password);
    const typed = code!.toLowerCase().replace('-', ' ');
    const signedIn = await secondStep(body.challenge, typed);
    expect(signedIn.status).toBe(200);

    const again = await login(account.input.username, account.password);
    expect((await secondStep(again.body.challenge, code!)).status).toBe(401);
    expect((await secondStep(again.body.challenge, account.recoveryCodes[1]!)).status).toBe(200);
    const status = await server.call('GET', '/api/user/two-factor', { token: signedIn.body.token });
    expect(status.body.recoveryCodesLeft).toBe(8);
    expect((await auditActions(account.user.id)).filter((a) => a === 'account.recovery_code_used')).toHaveLength(2);
  });

  it('counts wrong codes sent at once against the login lockout, and then refuses the right one', async () => {
    const account = await enrolled();
    const { body } = await login(account.input.username, account.password);
    // The password spent one attempt of the budget, and was not cleared by itself.
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => secondStep(body.challenge, String(100000 + i * 7919).slice(0, 6))),
    );
    const statuses = guesses.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401).length).toBe(LIMIT - 1);
    expect(statuses.filter((status) => status === 429).length).toBe(20 - (LIMIT - 1));
    const refused = guesses.find((answer) => answer.status === 429)!;
    expect(refused.body.error).toBe(ERRORS.tooManyLoginAttempts(Number(refused.headers.get('retry-after'))));

    const right = await secondStep(body.challenge, await codeAt(account.secret, 1));
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(account.input.username, account.password)).status).toBe(429);
    expect((await auditActions(account.user.id)).filter((a) => a === 'security.login_locked')).toHaveLength(1);
  });

  it('counts code guesses per account too: typing the email, then the username, wins no second budget', async () => {
    const account = await enrolled();
    const viaEmail = await login(account.input.email, account.password);
    const first = await Promise.all(
      Array.from({ length: LIMIT }, (_, i) => secondStep(viaEmail.body.challenge, String(200000 + i * 7919))),
    );
    // The email's password step spent one of its budget; the account's own budget went on the codes.
    expect(first.map((answer) => answer.status).sort()).toEqual([...Array(LIMIT - 1).fill(401), 429]);
    // The username's own budget is fresh, but the account has room for one more guess only.
    const viaUsername = await login(account.input.username, account.password);
    expect(viaUsername.body.twoFactorRequired).toBe(true);
    expect((await secondStep(viaUsername.body.challenge, '123456')).status).toBe(401);
    const more = await secondStep(viaUsername.body.challenge, '654321');
    const wait = Number(more.headers.get('retry-after'));
    expect(more).toMatchObject({ status: 429, body: { error: ERRORS.tooManyLoginAttempts(wait) } });
  });

  it('refuses a challenge that is forged or not one at all', async () => {
    const account = await enrolled();
    const { body } = await login(account.input.username, account.password);
    const [head, payload] = (body.challenge as string).split('.');
    const forged = await secondStep(`${head}.${payload}.AAAA`, await codeAt(account.secret, 1));
    expect(forged).toMatchObject({ status: 401, body: { error: TWO_FACTOR.challengeInvalid } });
    expect((await secondStep('nonsense', '123456')).status).toBe(401);
    const missing = await server.call('POST', '/api/auth/login/two-factor', { body: { challenge: body.challenge } });
    expect(missing).toMatchObject({ status: 400, body: { error: TWO_FACTOR.codeRequired } });
    const notText = await server.call('POST', '/api/auth/login/two-factor', { body: { challenge: ['x'], code: '1' } });
    expect(notText).toMatchObject({ status: 400, body: { error: 'challenge must be text' } });
    const long = await secondStep(body.challenge as string, '1'.repeat(33));
    expect(long).toMatchObject({ status: 400, body: { error: TWO_FACTOR.codeTooLong } });
  });

  it('turns off with the current password or a current code, not without', async () => {
    const byPassword = await enrolled();
    const off = (token: string, body: unknown) =>
      server.call('POST', '/api/user/two-factor/totp/disable', { token, body });
    await endSudo(server, byPassword.user.id);
    expect(await off(byPassword.token, {})).toMatchObject({
      status: 403,
      body: { code: 'sudo_required', methods: ['password', 'code'] },
    });
    expect(await off(byPassword.token, { password: 'wrong password' })).toMatchObject({
      status: 403,
      body: { error: TWO_FACTOR.wrongPassword },
    });
    expect(await off(byPassword.token, { code: '000000' })).toMatchObject({
      status: 403,
      body: { error: TWO_FACTOR.wrongCode },
    });
    const done = await off(byPassword.token, { password: byPassword.password });
    expect(done).toMatchObject({ status: 200, body: { totp: false, recoveryCodesLeft: 0 } });
    expect((await login(byPassword.input.username, byPassword.password)).body.token).toBeTruthy();
    expect(await off(byPassword.token, { password: byPassword.password })).toMatchObject({
      status: 409,
      body: { error: TWO_FACTOR.notOn },
    });
    expect(await auditActions(byPassword.user.id)).toContain('account.two_factor_disabled');

    const byCode = await enrolled();
    expect((await off(byCode.token, { code: byCode.recoveryCodes[0]! })).status).toBe(200);
    expect(
      await server.app.database.db
        .selectFrom('recoveryCodes')
        .select('id')
        .where('userId', '=', byCode.user.id)
        .execute(),
    ).toEqual([]);
  });
});

describe.each([true, false])('REQUIRE_TWO_FACTOR_FOR_ADMINS=%s', (required) => {
  let server: TestServer;
  beforeAll(async () => {
    const { engines } = await import('../../../test/engines.ts');
    server = await startTestServer(engines[0]!, { REQUIRE_TWO_FACTOR_FOR_ADMINS: String(required) });
  });
  afterAll(() => server.close());

  it(required ? 'refuses admin routes to an admin until they set it up' : 'lets an admin in without it', async () => {
    const admin = await registerUser(server);
    expect(admin.user.isAdmin).toBe(true);
    const status = await server.call('GET', '/api/user/two-factor', { token: admin.token });
    expect(status.body).toMatchObject({ requiredForAdmins: required, setupRequired: required });
    const before = await server.call('GET', '/api/admin/users', { token: admin.token });
    if (!required) {
      expect(before.status).toBe(200);
      return;
    }
    expect(before).toMatchObject({ status: 403, body: { error: TWO_FACTOR.adminSetupRequired } });
    // A member is told they are not an admin, as before.
    const member = await registerUser(server);
    expect((await server.call('GET', '/api/admin/users', { token: member.token })).body.error).toBe(ERRORS.adminsOnly);

    const setup = await server.call('POST', '/api/user/two-factor/totp/setup', {
      token: admin.token,
      body: { password: admin.password },
    });
    await server.call('POST', '/api/user/two-factor/totp/confirm', {
      token: admin.token,
      body: { code: await codeAt(setup.body.secret) },
    });
    expect((await server.call('GET', '/api/admin/users', { token: admin.token })).status).toBe(200);
    const after = await server.call('GET', '/api/user/two-factor', { token: admin.token });
    expect(after.body).toMatchObject({ totp: true, setupRequired: false });
  });
});
