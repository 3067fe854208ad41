import crypto from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/**
 * The challenge login answers when the password was right and a second factor is due: an HS256 JWT
 * (key derived from the server secret under its own label) naming the account, the identifier
 * typed at login and which first step it passed (the password or the identity provider), valid for
 * five minutes. It is no session: it proves only that the password was
 * right, and the code step counts its tries against that identifier's lockout, so the password step
 * cannot be repeated to win more guesses at the code.
 */
const AUDIENCE = 'moonrelay:two-factor-login';
const ALGORITHM = 'HS256';
export const CHALLENGE_TTL_SECONDS = 5 * 60;

export interface ChallengeClaims {
  userId: string;
  /** The login lockout's key (the identifier as typed, or the identity's for a provider sign-in). */
  throttleKey: string;
  /** The first step that was passed: the password, or the identity provider. */
  via: 'password' | 'google';
}

export function createChallenges(serverSecret: string) {
  const key = new Uint8Array(crypto.hkdfSync('sha256', serverSecret, 'moonrelay', 'two-factor-challenges', 32));
  return {
    issue(claims: ChallengeClaims): Promise<string> {
      return new SignJWT({ thr: claims.throttleKey, via: claims.via })
        .setProtectedHeader({ alg: ALGORITHM })
        .setSubject(claims.userId)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${CHALLENGE_TTL_SECONDS}s`)
        .sign(key);
    },

    /** The claims of a live challenge this server issued, or null. */
    async verify(challenge: string): Promise<ChallengeClaims | null> {
      try {
        const { payload } = await jwtVerify(challenge, key, { audience: AUDIENCE, algorithms: [ALGORITHM] });
        if (typeof payload.sub !== 'string' || typeof payload.thr !== 'string') return null;
        return { userId: payload.sub, throttleKey: payload.thr, via: payload.via === 'google' ? 'google' : 'password' };
      } catch {
        // Expired, forged, altered or foreign: all simply invalid.
        return null;
      }
    },
  };
}

export type Challenges = ReturnType<typeof createChallenges>;
