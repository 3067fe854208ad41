import crypto from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/**
 * The token in a long script's loader URL (`/api/scripts/load/{id}?key=<token>`). A game fetches
 * that URL with no other credential, and the URL is saved inside the user's scripts, so the token is
 * a capability for exactly one thing: reading that one kept script. It is an HS256 JWT signed with a
 * key derived (HKDF) from the server secret under its own label, carrying the user (`sub`), the kept
 * script (`sid`) and the id of the API key the user had when it was issued (`kid`). It does not
 * expire: a saved loader keeps working until the user regenerates their API key, which replaces the
 * key row, so every token bound to the old key id stops working at once (see
 * docs/decisions/011-catalogue-proxy.md). It is neither a session token nor the API key.
 */

const AUDIENCE = 'moonrelay:script-load';
const ALGORITHM = 'HS256';

export interface ScriptTokenClaims {
  userId: string;
  scriptId: string;
  apiKeyId: string;
}

export function createScriptTokens(serverSecret: string) {
  const key = new Uint8Array(crypto.hkdfSync('sha256', serverSecret, 'moonrelay', 'script-load-tokens', 32));

  return {
    issue(claims: ScriptTokenClaims): Promise<string> {
      return new SignJWT({ sid: claims.scriptId, kid: claims.apiKeyId })
        .setProtectedHeader({ alg: ALGORITHM })
        .setSubject(claims.userId)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .sign(key);
    },

    /** The claims of a token this server signed for script loading, or null. */
    async verify(token: string): Promise<ScriptTokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { audience: AUDIENCE, algorithms: [ALGORITHM] });
        const { sub, sid, kid } = payload;
        if (typeof sub !== 'string' || typeof sid !== 'string' || typeof kid !== 'string') return null;
        return { userId: sub, scriptId: sid, apiKeyId: kid };
      } catch {
        // A forged, altered, truncated or foreign token: all simply invalid.
        return null;
      }
    },
  };
}

export type ScriptTokens = ReturnType<typeof createScriptTokens>;
