import crypto from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/**
 * The token in a long script's loader URL (`/api/scripts/load/{id}?key=<token>`). A game fetches
 * that URL with no other credential, and the URL is saved inside the user's scripts, so the token is
 * a capability for exactly one thing: reading that one kept script. It is an HS256 JWT signed with a
 * key derived (HKDF) from the server secret under its own label, carrying the user (`sub`), the kept
 * script (`sid`) and the id of the API key the user had when it was issued (`kid`). It expires
 * LOADER_TOKEN_DAYS after it was issued (`exp`), so a URL that leaked in a shared script does not
 * read the code for ever. Before that it stops working when the user regenerates their API key,
 * which replaces the key row, so every token bound to the old key id stops working at once (see
 * docs/decisions/011-catalogue-proxy.md), or deletes the kept script. It is neither a session
 * token nor the API key.
 */

const AUDIENCE = 'moonrelay:script-load';
const ALGORITHM = 'HS256';

export interface ScriptTokenClaims {
  userId: string;
  scriptId: string;
  apiKeyId: string;
}

/** A token issued by this server, read: its claims, or why it is refused. */
export type ScriptTokenCheck = { valid: true; claims: ScriptTokenClaims } | { valid: false; expired: boolean };

export interface ScriptTokenOptions {
  /** Days a token works after it is issued (LOADER_TOKEN_DAYS). */
  lifetimeDays: number;
  /** The clock tokens are issued and checked by. */
  now?: () => number;
}

const DAY_SECONDS = 24 * 60 * 60;

export function createScriptTokens(serverSecret: string, options: ScriptTokenOptions) {
  const key = new Uint8Array(crypto.hkdfSync('sha256', serverSecret, 'moonrelay', 'script-load-tokens', 32));
  const nowSeconds = () => Math.floor((options.now ?? Date.now)() / 1000);

  return {
    /** A token for the claims, and when it stops working. */
    async issue(claims: ScriptTokenClaims): Promise<{ token: string; expiresAt: Date }> {
      const issuedAt = nowSeconds();
      const expiresAt = issuedAt + options.lifetimeDays * DAY_SECONDS;
      const token = await new SignJWT({ sid: claims.scriptId, kid: claims.apiKeyId })
        .setProtectedHeader({ alg: ALGORITHM })
        .setSubject(claims.userId)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, expiresAt: new Date(expiresAt * 1000) };
    },

    /** The claims of an unexpired token this server signed for script loading, or why not. */
    async verify(token: string): Promise<ScriptTokenCheck> {
      try {
        const { payload } = await jwtVerify(token, key, {
          audience: AUDIENCE,
          algorithms: [ALGORITHM],
          currentDate: new Date(nowSeconds() * 1000),
          // Every token this server issues expires; one without exp was not issued here.
          requiredClaims: ['exp'],
        });
        const { sub, sid, kid } = payload;
        if (typeof sub !== 'string' || typeof sid !== 'string' || typeof kid !== 'string') {
          return { valid: false, expired: false };
        }
        return { valid: true, claims: { userId: sub, scriptId: sid, apiKeyId: kid } };
      } catch (error) {
        // The signature is checked before the expiry: an expired token is a genuine one, gone stale.
        // A forged, altered, truncated or foreign token is simply invalid.
        return { valid: false, expired: error instanceof errors.JWTExpired };
      }
    },
  };
}

export type ScriptTokens = ReturnType<typeof createScriptTokens>;
