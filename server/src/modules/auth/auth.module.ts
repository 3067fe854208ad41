import { moduleEntry, type ModuleContext } from '../module.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { createChallenges } from '../two-factor/challenges.ts';
import type { PasskeysService } from '../two-factor/passkeys.service.ts';
import type { TwoFactorService } from '../two-factor/two-factor.service.ts';
import type { UsersService } from '../users/users.service.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import type { SocketIdentity } from '../../realtime/socket-hub.ts';
import { createAccountSecurity } from './account-security.service.ts';
import { mountAccountSecurityRoutes } from './account-security.routes.ts';
import { createAccountsService } from './accounts.service.ts';
import { mountAuthRoutes } from './auth.routes.ts';
import { adminNeedsTwoFactor, authenticate } from './authenticate.ts';
import { mountOidcRoutes } from './oidc.routes.ts';
import { createOidcService } from './oidc.service.ts';
import { mountPasskeySignInRoutes } from './passkey-sign-in.routes.ts';
import { createSessionsService, type SessionSecondFactor } from './sessions.service.ts';

declare module '../../platform/reactions.ts' {
  interface ReactionEvents {
    /** Someone signed in (any way), from this address: notifications tell of a new one. */
    'auth:signed-in': { userId: string; address: string };
  }
}

/**
 * Signing in and staying signed in: accounts, sessions (with sudo mode), Google sign-in, the
 * account's security screen, and who a request or a socket is.
 */
export function authModule(
  ctx: ModuleContext,
  needs: {
    users: UsersService;
    apiKeys: ApiKeysService;
    audit: AuditService;
    twoFactor: TwoFactorService;
    passkeys: PasskeysService;
    teams: TeamsService;
  },
) {
  const { db, bus, config, logger, rateLimits, reactions } = ctx;
  const { users, apiKeys, audit, twoFactor, passkeys, teams } = needs;
  const sessions = createSessionsService({ db, bus });
  const accounts = createAccountsService({
    db,
    users,
    sessions,
    apiKeys,
    loginAttempts: ctx.loginAttempts,
    twoFactor,
    challenges: createChallenges(ctx.serverSecret),
    adminEmails: config.adminEmails,
    audit,
    bus,
  });
  const oidc = createOidcService({
    db,
    oidc: config.oidc,
    publicUrl: config.publicUrl,
    accounts,
    users,
    logger,
    audit,
  });
  const accountSecurity = createAccountSecurity({ db, sessions, twoFactor, passkeys, users, audit });
  // Accounts registered per IP address (REGISTRATIONS_PER_IP_PER_HOUR): sign-ups cannot be scripted at will.
  const registrations = ctx.counter('registrations', config.registrationsPerIpPerHour, 3600);
  const signedIn = (userId: string, address: string) => void reactions.tell('auth:signed-in', { userId, address });

  // A socket gets the admins' room (every user's runs and audit entries) only on the terms the admin
  // routes set: REQUIRE_TWO_FACTOR_FOR_ADMINS asks of the session that it passed a second factor.
  const adminPowers = (session: { isAdmin: boolean; secondFactor: SessionSecondFactor | null }) =>
    session.isAdmin && !adminNeedsTwoFactor(config.requireTwoFactorForAdmins, session);
  const identifySocket = async (token: string, team?: string): Promise<SocketIdentity | null> => {
    const session = await sessions.resolve(token);
    if (!session) return null;
    const identity = { sessionId: session.sessionId, userId: session.userId, isAdmin: adminPowers(session) };
    if (team === undefined || team === session.userId) return identity;
    // A view of a team: only for its members, with what they hold there now.
    const held = await teams.accessOf(session.userId, team);
    return held ? { ...identity, team: { id: team, held } } : null;
  };
  const socketSessionsStillValid = async (sessionIds: string[]) => {
    const valid = await sessions.stillValid(sessionIds);
    return new Map([...valid].map(([id, session]) => [id, { isAdmin: adminPowers(session) }]));
  };

  return moduleEntry({
    services: {
      sessions,
      accounts,
      oidc,
      accountSecurity,
      registrations,
      identifySocket,
      socketSessionsStillValid,
      /** Who is calling: a session or an API key (never refuses; each route says whom it accepts). */
      authenticate: authenticate({
        sessions,
        apiKeys,
        requireTwoFactorForAdmins: config.requireTwoFactorForAdmins,
        sudoMethods: accountSecurity.sudoMethods,
      }),
    },
    routes: (api) => {
      mountAuthRoutes(api, rateLimits, accounts, registrations, signedIn);
      mountOidcRoutes(api, rateLimits, oidc, signedIn);
      mountPasskeySignInRoutes(api, rateLimits, { accounts, passkeys, serverUrl: ctx.serverUrl, onSignIn: signedIn });
      mountAccountSecurityRoutes(api, rateLimits, accountSecurity, ctx.serverUrl);
    },
  });
}
