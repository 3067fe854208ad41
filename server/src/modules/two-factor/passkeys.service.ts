import crypto from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type {
  CurrentProof,
  Passkey,
  PasskeyList,
  PasskeyOptions,
  PasskeyRegistered,
  PasskeyRegisterRequest,
  PasskeyLoginRequest,
  TwoFactorStatus,
} from '@moonrelay/contract/two-factor';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import type { Db } from '../../db/database.ts';
import { isoPlus, nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import { AUDIT_ACTIONS, type AuditService } from '../audit/audit.service.ts';
import type { UserRow } from '../users/users.repo.ts';
import { passkeysRepo, type ChallengePurpose, type PasskeyRow } from './passkeys.repo.ts';
import type { RelyingParty } from './relying-party.ts';
import type { TwoFactorService } from './two-factor.service.ts';

/** How long a registration or sign-in challenge answers: as long as the password step's challenge. */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const RP_NAME = 'Moonrelay';

interface Deps {
  db: Db;
  audit: AuditService;
  twoFactor: Pick<TwoFactorService, 'proveCurrent' | 'status' | 'userOrThrow'>;
}

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
});

const transportsOf = (row: PasskeyRow): AuthenticatorTransportFuture[] => {
  try {
    return JSON.parse(row.transports) as AuthenticatorTransportFuture[];
  } catch {
    return [];
  }
};

/** Why a sign-in with a passkey was refused (401), or null when it proved the second factor. */
export type PasskeyRefusal = string | null;

/**
 * Passkeys (WebAuthn credentials) as a second factor: registering them from Settings, naming,
 * listing and removing them, and checking one at sign-in. Each challenge is stored and answers once,
 * within five minutes; the authenticator's signature counter must move forward.
 */
export function createPasskeysService(deps: Deps) {
  const { db, audit } = deps;
  const actorOf = (row: UserRow) => ({ id: row.id, name: row.username });

  async function issueChallenge(userId: string | null, challenge: string, purpose: ChallengePurpose): Promise<void> {
    const now = nowIso();
    await passkeysRepo.putChallenge(db, userId, challenge, purpose, now, isoPlus(now, CHALLENGE_TTL_MS));
  }

  /**
   * The challenge check handed to the verifier: true only for the one request that spends a live
   * challenge of this account and purpose. Whether it was refused is kept, so the answer can say so.
   */
  function challengeSpender(userId: string | null, purpose: ChallengePurpose) {
    const state = { refused: false };
    const check = async (challenge: string) => {
      const spent = await passkeysRepo.spendChallenge(db, userId, challenge, purpose, nowIso());
      state.refused = !spent;
      return spent;
    };
    return { state, check };
  }

  /**
   * Checks a passkey's signature of a live challenge (for `userId`, or for anyone when null) and
   * records its use with a counter past the one last seen. Answers null when it passed, or why not:
   * a replayed answer spends no challenge twice; a counter that did not move forward is a clone.
   */
  async function verifyAnswer(
    key: PasskeyRow,
    credential: PasskeyLoginRequest['credential'],
    rp: RelyingParty,
    challengeFor: { userId: string | null; purpose: ChallengePurpose; userVerified: boolean },
  ): Promise<PasskeyRefusal> {
    const seenCounter = Number(key.counter);
    const challenge = challengeSpender(challengeFor.userId, challengeFor.purpose);
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response: credential as AuthenticationResponseJSON,
        expectedChallenge: challenge.check,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpId,
        credential: {
          id: key.credentialId,
          publicKey: isoBase64URL.toBuffer(key.publicKey),
          counter: seenCounter,
          transports: transportsOf(key),
        },
        requireUserVerification: challengeFor.userVerified,
      });
    } catch {
      return challenge.state.refused ? TWO_FACTOR.passkeyChallengeExpired : TWO_FACTOR.passkeyNotVerified;
    }
    if (!verified.verified) return TWO_FACTOR.passkeyNotVerified;
    const recorded = await passkeysRepo.recordUse(
      db,
      key.id,
      seenCounter,
      verified.authenticationInfo.newCounter,
      nowIso(),
    );
    return recorded ? null : TWO_FACTOR.passkeyNotVerified;
  }

  return {
    async list(userId: string): Promise<PasskeyList> {
      return { passkeys: (await passkeysRepo.listOf(db, userId)).map(toPasskey) };
    },

    /** The options for navigator.credentials.create(), after the current password or a code. */
    async registrationOptions(
      userId: string,
      proof: CurrentProof | 'recent',
      rp: RelyingParty,
    ): Promise<PasskeyOptions> {
      const row = await deps.twoFactor.userOrThrow(userId);
      if (row.passwordHash === null) throw new AppError(409, TWO_FACTOR.noPasswordToConfirm);
      await deps.twoFactor.proveCurrent(row, proof);
      const existing = await passkeysRepo.listOf(db, userId);
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rp.rpId,
        userName: row.username,
        userDisplayName: row.name ?? row.username,
        userID: new TextEncoder().encode(row.id),
        attestationType: 'none',
        excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: transportsOf(key) })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        timeout: CHALLENGE_TTL_MS,
      });
      await issueChallenge(userId, options.challenge, 'register');
      return { options: options as unknown as Record<string, unknown> };
    },

    /** Verifies the browser's answer to a registration challenge and keeps the new passkey. */
    async register(
      userId: string,
      isAdmin: boolean,
      input: PasskeyRegisterRequest,
      rp: RelyingParty,
    ): Promise<PasskeyRegistered> {
      const row = await deps.twoFactor.userOrThrow(userId);
      const challenge = challengeSpender(userId, 'register');
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          response: input.credential as RegistrationResponseJSON,
          expectedChallenge: challenge.check,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpId,
          requireUserVerification: false,
        });
      } catch {
        // Malformed, for another origin or challenge, or a bad attestation: all simply not verified.
        throw new AppError(
          400,
          challenge.state.refused ? TWO_FACTOR.passkeyChallengeExpired : TWO_FACTOR.passkeyNotVerified,
        );
      }
      if (!verified.verified) throw new AppError(400, TWO_FACTOR.passkeyNotVerified);
      const { credential } = verified.registrationInfo;
      if (await passkeysRepo.credentialTaken(db, credential.id))
        throw new AppError(409, TWO_FACTOR.passkeyAlreadyRegistered);
      const key: PasskeyRow = {
        id: crypto.randomUUID(),
        userId,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: JSON.stringify(input.credential.response.transports ?? credential.transports ?? []),
        name: input.name,
        createdAt: nowIso(),
        lastUsedAt: null,
      };
      try {
        await passkeysRepo.insert(db, key);
      } catch {
        // The same credential registered twice at once: the unique credential id refuses the second.
        throw new AppError(409, TWO_FACTOR.passkeyAlreadyRegistered);
      }
      await audit.record({
        actor: actorOf(row),
        action: AUDIT_ACTIONS.accountPasskeyAdded,
        targetType: 'user',
        targetId: row.id,
        details: { username: row.username, passkey: key.name },
      });
      return { passkey: toPasskey(key), status: await deps.twoFactor.status(userId, isAdmin) };
    },

    /** Removes one of the account's passkeys, after the current password or a code. */
    async remove(
      userId: string,
      isAdmin: boolean,
      id: string,
      proof: CurrentProof | 'recent',
    ): Promise<TwoFactorStatus> {
      const row = await deps.twoFactor.userOrThrow(userId);
      const key = (await passkeysRepo.listOf(db, userId)).find((candidate) => candidate.id === id);
      if (!key) throw new AppError(404, TWO_FACTOR.passkeyNotFound);
      const provedWith = await deps.twoFactor.proveCurrent(row, proof);
      if (!(await passkeysRepo.remove(db, userId, id))) throw new AppError(404, TWO_FACTOR.passkeyNotFound);
      await audit.record({
        actor: actorOf(row),
        action: AUDIT_ACTIONS.accountPasskeyRemoved,
        targetType: 'user',
        targetId: row.id,
        details: { username: row.username, passkey: key.name, provedWith },
      });
      return deps.twoFactor.status(userId, isAdmin);
    },

    /** The options for navigator.credentials.get() at sign-in, naming the account's passkeys. */
    async signInOptions(userId: string, rp: RelyingParty): Promise<PasskeyOptions> {
      const keys = await passkeysRepo.listOf(db, userId);
      if (keys.length === 0) throw new AppError(409, TWO_FACTOR.passkeyNone);
      const options = await generateAuthenticationOptions({
        rpID: rp.rpId,
        allowCredentials: keys.map((key) => ({ id: key.credentialId, transports: transportsOf(key) })),
        userVerification: 'preferred',
        timeout: CHALLENGE_TTL_MS,
      });
      await issueChallenge(userId, options.challenge, 'sign-in');
      return { options: options as unknown as Record<string, unknown> };
    },

    /**
     * The options for "Sign in with a passkey" before any account is named: no credentials listed
     * (the authenticator offers its discoverable ones), and user verification required, since the
     * passkey then stands in for the password too.
     */
    async firstFactorOptions(rp: RelyingParty): Promise<PasskeyOptions> {
      const options = await generateAuthenticationOptions({
        rpID: rp.rpId,
        userVerification: 'required',
        timeout: CHALLENGE_TTL_MS,
      });
      await issueChallenge(null, options.challenge, 'passkey-sign-in');
      return { options: options as unknown as Record<string, unknown> };
    },

    /**
     * Checks a first-factor passkey answer: a registered passkey, whose user handle (when sent) is its
     * account's, signing a live first-factor challenge with its user verified and its counter moving
     * forward. Answers the account's id; 401 with why not.
     */
    async verifyFirstFactor(credential: PasskeyLoginRequest['credential'], rp: RelyingParty): Promise<string> {
      const key = await passkeysRepo.findByCredential(db, credential.id);
      if (!key) throw new AppError(401, TWO_FACTOR.passkeyUnknownAnywhere);
      const handle = credential.response.userHandle;
      if (handle !== undefined && handle !== isoBase64URL.fromUTF8String(key.userId)) {
        throw new AppError(401, TWO_FACTOR.passkeyNotVerified);
      }
      const refusal = await verifyAnswer(key, credential, rp, {
        userId: null,
        purpose: 'passkey-sign-in',
        userVerified: true,
      });
      if (refusal) throw new AppError(401, refusal);
      return key.userId;
    },

    /**
     * Checks a passkey's answer at sign-in: one of this account's passkeys, signing a live challenge
     * handed to this account, with a counter past the one last seen. Answers why not, or null.
     */
    async verifySignIn(
      userId: string,
      credential: PasskeyLoginRequest['credential'],
      rp: RelyingParty,
    ): Promise<PasskeyRefusal> {
      const key = await passkeysRepo.findOwned(db, userId, credential.id);
      if (!key) return TWO_FACTOR.passkeyUnknown;
      return verifyAnswer(key, credential, rp, { userId, purpose: 'sign-in', userVerified: false });
    },
  };
}

export type PasskeysService = ReturnType<typeof createPasskeysService>;
