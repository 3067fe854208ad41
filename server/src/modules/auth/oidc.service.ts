import { AUDIT_ACTIONS, type AuditAction, type AuditService } from '../audit/audit.service.ts';
import crypto from 'node:crypto';
import type {
  AuthProviders,
  OidcCallbackRequest,
  OidcStartResponse,
  SignInMethods,
  User,
} from '@moonrelay/contract/auth';
import { OIDC_CALLBACK_PATH, OIDC_STATE_TTL_MS } from '@moonrelay/contract/constants';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { isoPlus, nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import { sha256Hex } from '../../security/digest.ts';
import { usersRepo, type UserRow } from '../users/users.repo.ts';
import type { UsersService } from '../users/users.service.ts';
import type { AccountsService } from './accounts.service.ts';
import type { Device } from './sessions.service.ts';
import type { LoginResponse } from '@moonrelay/contract/two-factor';
import { codeChallengeOf, createOidcClient, type VerifiedIdentity } from './oidc-client.ts';
import { oidcStatesRepo } from './oidc-states.repo.ts';

type Purpose = 'sign-in' | 'link';

interface Deps {
  db: Db;
  oidc: Config['oidc'];
  /** When set, the only redirect URI accepted is PUBLIC_URL + /auth/callback. */
  publicUrl: string | undefined;
  accounts: AccountsService;
  users: UsersService;
  logger: Logger;
  audit: AuditService;
}

/**
 * Sign-in and account linking with the identity provider (docs/decisions/012).
 *
 * `start` makes the authorization request: a fresh state, nonce and PKCE verifier (256 random bits
 * each), kept server-side under the state's SHA-256 for 10 minutes with the redirect URI and what
 * the attempt is for (a sign-in, or linking one named account). The callback redeems the state
 * once: an unknown, expired, reused or other-purpose state, or another redirect URI, is refused
 * before the provider is asked anything. Then the code is exchanged and the ID token verified
 * against the attempt's nonce (oidc-client.ts).
 *
 * Unlinking is refused when the account has no password: it would have no way left to sign in.
 */
export function createOidcService(deps: Deps) {
  const { db, oidc, publicUrl, accounts, users, logger, audit } = deps;
  /** Linking and unlinking change how an account can be entered: worth an entry in the audit log. */
  const auditIdentity = (row: UserRow, action: AuditAction) =>
    audit.record({ actor: { id: row.id, name: row.username }, action, targetType: 'user', targetId: row.id });
  const log = logger.child({ module: 'oidc' });
  const client = oidc.client
    ? createOidcClient({ issuerUrl: oidc.issuerUrl, clientId: oidc.client.id, clientSecret: oidc.client.secret }, log)
    : undefined;

  function requireClient() {
    if (!client) throw new AppError(404, ERRORS.identityProviderNotConfigured);
    return client;
  }

  /** The redirect URI must be this site's callback page: the provider checks it too, against its own list. */
  function checkRedirectUri(redirectUri: string): void {
    let url: URL;
    try {
      url = new URL(redirectUri);
    } catch {
      throw new AppError(400, ERRORS.redirectUriNotCallback);
    }
    const plain = url.pathname === OIDC_CALLBACK_PATH && !url.search && !url.hash && !url.username && !url.password;
    const expected = publicUrl ? `${publicUrl}${OIDC_CALLBACK_PATH}` : undefined;
    if (!plain || (expected !== undefined && redirectUri !== expected)) {
      throw new AppError(400, ERRORS.redirectUriNotCallback);
    }
  }

  async function requireUser(userId: string): Promise<UserRow> {
    const row = await usersRepo.findById(db, userId);
    // The session was valid a moment ago; the account was deleted in between.
    if (!row) throw new AppError(401, ERRORS.authenticationFailed);
    return row;
  }

  async function start(purpose: Purpose, redirectUri: string, userId: string | null): Promise<OidcStartResponse> {
    const provider = requireClient();
    checkRedirectUri(redirectUri);
    if (userId !== null && (await requireUser(userId)).googleId !== null) {
      throw new AppError(409, ERRORS.identityAlreadyLinked);
    }
    const state = crypto.randomBytes(32).toString('base64url');
    const nonce = crypto.randomBytes(32).toString('base64url');
    const codeVerifier = crypto.randomBytes(32).toString('base64url');
    const authorizationUrl = await provider.authorizationUrl({
      redirectUri,
      state,
      nonce,
      codeChallenge: codeChallengeOf(codeVerifier),
    });
    const now = nowIso();
    await oidcStatesRepo.deleteExpired(db, now);
    await oidcStatesRepo.insert(db, {
      stateHash: sha256Hex(state),
      purpose,
      userId,
      nonce,
      codeVerifier,
      redirectUri,
      createdAt: now,
      expiresAt: isoPlus(now, OIDC_STATE_TTL_MS),
    });
    return { authorizationUrl, state };
  }

  /** Redeems the attempt named by `state` (once), then the code; answers who signed in at the provider. */
  async function finish(
    purpose: Purpose,
    input: OidcCallbackRequest,
    userId: string | null,
  ): Promise<VerifiedIdentity> {
    const provider = requireClient();
    const attempt = await oidcStatesRepo.take(db, sha256Hex(input.state));
    if (!attempt || attempt.expiresAt <= nowIso() || attempt.purpose !== purpose || attempt.userId !== userId) {
      log.info({ purpose, found: Boolean(attempt) }, 'sign-in state refused');
      throw new AppError(400, ERRORS.signInStateInvalid);
    }
    if (attempt.redirectUri !== input.redirectUri) throw new AppError(400, ERRORS.signInStateRedirectMismatch);
    return provider.redeem({
      code: input.code,
      redirectUri: attempt.redirectUri,
      codeVerifier: attempt.codeVerifier,
      nonce: attempt.nonce,
    });
  }

  const google = () => ({ enabled: client !== undefined, name: oidc.providerName });

  return {
    /**
     * What the sign-in screen shows before anyone signs in: the provider's button, and whether any
     * account exists yet (a yes or no, never how many).
     */
    async providers(): Promise<AuthProviders> {
      return { google: google(), firstAccount: !(await usersRepo.anyExists(db)) };
    },

    startSignIn: (redirectUri: string) => start('sign-in', redirectUri, null),

    async signIn(input: OidcCallbackRequest, device: Device): Promise<LoginResponse> {
      return accounts.signInWithIdentity(await finish('sign-in', input, null), device);
    },

    startLink: (userId: string, redirectUri: string) => start('link', redirectUri, userId),

    /** Links the identity to the signed-in account; an identity belongs to one account at most. */
    async link(userId: string, input: OidcCallbackRequest): Promise<User> {
      const identity = await finish('link', input, userId);
      const row = await requireUser(userId);
      if (row.googleId === identity.sub) return users.toUser(row);
      if (row.googleId !== null) throw new AppError(409, ERRORS.identityAlreadyLinked);
      const owner = await usersRepo.findByGoogleId(db, identity.sub);
      if (owner) throw new AppError(409, ERRORS.identityLinkedElsewhere);
      const now = nowIso();
      try {
        if (!(await usersRepo.setGoogleId(db, userId, identity.sub, now))) {
          throw new AppError(409, ERRORS.identityAlreadyLinked);
        }
      } catch (error) {
        // Linked to another account between the check above and this write.
        if (uniqueViolation(error) === 'google_id') throw new AppError(409, ERRORS.identityLinkedElsewhere);
        throw error;
      }
      await auditIdentity(row, AUDIT_ACTIONS.accountGoogleLinked);
      return users.toUser({ ...row, googleId: identity.sub, updatedAt: now });
    },

    async unlink(userId: string): Promise<User> {
      const row = await requireUser(userId);
      if (row.googleId === null) throw new AppError(409, ERRORS.identityNotLinked);
      if (row.passwordHash === null) throw new AppError(409, ERRORS.identityUnlinkNeedsPassword);
      const now = nowIso();
      await usersRepo.setGoogleId(db, userId, null, now);
      await auditIdentity(row, AUDIT_ACTIONS.accountGoogleUnlinked);
      return users.toUser({ ...row, googleId: null, updatedAt: now });
    },

    async signInMethods(userId: string): Promise<SignInMethods> {
      const row = await requireUser(userId);
      return { password: row.passwordHash !== null, google: { ...google(), googleId: row.googleId } };
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
