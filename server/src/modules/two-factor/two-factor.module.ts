import { moduleEntry, type ModuleContext } from '../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { createPasskeysService } from './passkeys.service.ts';
import { mountTwoFactorRoutes, type SessionProofs } from './two-factor.routes.ts';
import { createTwoFactorService } from './two-factor.service.ts';

/** Second factors: authenticator codes, recovery codes and passkeys. */
export function twoFactorModule(ctx: ModuleContext, { audit, users }: { audit: AuditService; users: UsersService }) {
  const { config } = ctx;
  const twoFactor = createTwoFactorService({
    db: ctx.db,
    box: ctx.secretBox('totp-secrets'),
    audit,
    attempts: ctx.loginAttempts,
    // Past the lockout four times in a day, an account's proofs wait for the day's window to end.
    dailyAttempts: ctx.counter('account-proofs-daily', config.loginThrottle.maxFailures * 4, 24 * 60 * 60),
    requireForAdmins: config.requireTwoFactorForAdmins,
    issuer: 'Moonrelay',
  });
  const passkeys = createPasskeysService({ db: ctx.db, audit, twoFactor });
  return moduleEntry({
    services: { twoFactor, passkeys },
    // A change to a second factor is noted on the session that made it: auth's sessions, built
    // after this module (they ask it whether an account has a second factor).
    routes: (api, later: { sessions: SessionProofs }) =>
      mountTwoFactorRoutes(api, ctx.rateLimits, {
        twoFactor,
        passkeys,
        sessions: later.sessions,
        users,
        serverUrl: ctx.serverUrl,
      }),
  });
}
