import crypto from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';
import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';

/**
 * The relying-party side of OpenID Connect (authorization-code flow with PKCE), written against
 * the specs rather than one provider: the endpoints come from the issuer's discovery document, the
 * ID token is verified with `jose` against the issuer's JWKS (signature, issuer, audience, expiry
 * with 60 s of clock tolerance, and the nonce of this attempt). Name and email come from the ID
 * token (Google puts them there) or, when it carries no email, from the userinfo endpoint.
 *
 * Failures: the provider unreachable or answering nonsense is 502; a code or token it (or we)
 * refuse is 400 (what the browser relayed is not acceptable), with the reason after the message.
 * Not 401: that answer means the caller's own Moonrelay session is bad, and the web app signs out
 * on it, which would be wrong when a link attempt fails. Nothing secret is logged.
 */

export const OIDC_SCOPE = 'openid email profile';
const HTTP_TIMEOUT_MS = 10_000;
const CLOCK_TOLERANCE_SECONDS = 60;
/** Asymmetric algorithms only: a JWKS holds public keys, and 'none' or HS* must never verify. */
const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
/** Google's ID tokens name their issuer with or without the scheme (its documentation says to accept both). */
const GOOGLE_ISSUER = 'https://accounts.google.com';

const DiscoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
});
type Discovery = z.infer<typeof DiscoverySchema>;

const TokenResponseSchema = z.object({ id_token: z.string().min(1), access_token: z.string().optional() });

const UserInfoSchema = z.object({
  sub: z.string(),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.string()]).optional(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
});

/** Who the provider says signed in. `sub` is stable per provider and account; the rest may change. */
export interface VerifiedIdentity {
  sub: string;
  email: string | undefined;
  /** undefined: the provider did not say. */
  emailVerified: boolean | undefined;
  name: string | undefined;
}

export interface OidcClientSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge: string;
}

const unavailable = () => new AppError(502, ERRORS.identityProviderUnavailable);
const tokenRefused = (reason: string) => new AppError(400, `${ERRORS.idTokenRefused}: ${reason}`);

/** `base64url(sha256(verifier))`: the S256 code challenge of RFC 7636. */
export const codeChallengeOf = (verifier: string): string =>
  crypto.createHash('sha256').update(verifier).digest('base64url');

/** client_secret_basic: both parts form-encoded before base64 (RFC 6749 section 2.3.1). */
function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

function claimText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** email_verified is a boolean in the spec; some providers have sent the string "true". */
function claimFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

function nameOf(claims: Record<string, unknown>): string | undefined {
  const joined = [claimText(claims.given_name), claimText(claims.family_name)].filter(Boolean).join(' ');
  return claimText(claims.name) ?? (joined || undefined);
}

/** Names why jose refused a token, in words the API can answer with. */
function refusalReason(error: unknown): string | undefined {
  if (error instanceof joseErrors.JWTExpired) return 'expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'wrong audience';
    if (error.claim === 'iss') return 'wrong issuer';
    if (error.claim === 'iat' || error.claim === 'nbf') return 'not valid yet';
    return `invalid ${error.claim} claim`;
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey) {
    return "not signed with the provider's keys";
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed || error instanceof joseErrors.JOSENotSupported) {
    return 'unexpected signing algorithm';
  }
  if (error instanceof joseErrors.JWTInvalid || error instanceof joseErrors.JWSInvalid) return 'malformed';
  return undefined;
}

export function createOidcClient(settings: OidcClientSettings, logger: Logger) {
  const issuer = settings.issuerUrl.replace(/\/+$/, '');
  const acceptedIssuers = issuer === GOOGLE_ISSUER ? [GOOGLE_ISSUER, 'accounts.google.com'] : [issuer];

  let discovered: Promise<{ doc: Discovery; jwks: ReturnType<typeof createRemoteJWKSet> }> | undefined;

  async function fetchJson(url: string, init: RequestInit, what: string): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        headers: { accept: 'application/json', ...init.headers },
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      logger.warn({ err: error, url: url.split('?')[0] }, `identity provider ${what} unreachable`);
      throw unavailable();
    }
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      logger.warn({ status: response.status, url: url.split('?')[0] }, `identity provider ${what} answered no JSON`);
      if (response.status >= 400 && response.status < 500) return { status: response.status, body: {} };
      throw unavailable();
    }
  }

  /** Discovery, once; a failure is not remembered, so the next sign-in tries again. */
  function discover() {
    discovered ??= (async () => {
      const { status, body } = await fetchJson(`${issuer}/.well-known/openid-configuration`, {}, 'discovery');
      const parsed = DiscoverySchema.safeParse(body);
      // The document must be the issuer's own (OpenID Connect Discovery 1.0, section 4.3).
      if (status !== 200 || !parsed.success || parsed.data.issuer.replace(/\/+$/, '') !== issuer) {
        logger.warn({ status, issuer }, 'identity provider discovery document is not valid for this issuer');
        throw unavailable();
      }
      const jwks = createRemoteJWKSet(new URL(parsed.data.jwks_uri), { timeoutDuration: HTTP_TIMEOUT_MS });
      return { doc: parsed.data, jwks };
    })();
    discovered.catch(() => (discovered = undefined));
    return discovered;
  }

  /** Name and email from the userinfo endpoint, for providers that keep them out of the ID token. */
  async function userInfo(doc: Discovery, accessToken: string, sub: string) {
    if (!doc.userinfo_endpoint) return undefined;
    const { status, body } = await fetchJson(
      doc.userinfo_endpoint,
      { headers: { authorization: `Bearer ${accessToken}` } },
      'userinfo',
    );
    const parsed = UserInfoSchema.safeParse(body);
    if (status !== 200 || !parsed.success) {
      logger.warn({ status }, 'identity provider userinfo answer not usable');
      return undefined;
    }
    // Userinfo about someone else must never fill in this identity (OpenID Connect Core 5.3.2).
    if (parsed.data.sub !== sub) throw tokenRefused('userinfo is about another subject');
    return parsed.data;
  }

  return {
    async authorizationUrl(request: AuthorizationRequest): Promise<string> {
      const { doc } = await discover();
      const url = new URL(doc.authorization_endpoint);
      const params: Record<string, string> = {
        client_id: settings.clientId,
        redirect_uri: request.redirectUri,
        response_type: 'code',
        scope: OIDC_SCOPE,
        // Google's names for "issue a refresh token" and "always show the consent screen" (spec section 7).
        access_type: 'offline',
        prompt: 'consent',
        state: request.state,
        nonce: request.nonce,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
      };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return url.toString();
    },

    /**
     * Redeems the code at the token endpoint (client_secret_basic, with the PKCE verifier) and
     * answers the verified identity. `nonce` is the one this attempt sent.
     */
    async redeem(input: { code: string; redirectUri: string; codeVerifier: string; nonce: string }) {
      const { doc, jwks } = await discover();
      const { status, body } = await fetchJson(
        doc.token_endpoint,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basicAuthorization(settings.clientId, settings.clientSecret),
          },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: input.code,
            redirect_uri: input.redirectUri,
            code_verifier: input.codeVerifier,
          }).toString(),
        },
        'token endpoint',
      );
      if (status >= 400 && status < 500) {
        const error = (body as { error?: unknown }).error;
        // invalid_client means our own settings are wrong: worth an operator's look.
        const level = error === 'invalid_client' || error === 'unauthorized_client' ? 'error' : 'info';
        logger[level]({ status, error }, 'identity provider refused the authorization code');
        throw new AppError(400, ERRORS.authorizationCodeRefused);
      }
      const tokens = TokenResponseSchema.safeParse(body);
      if (status !== 200 || !tokens.success) {
        logger.warn({ status }, 'identity provider token endpoint answered without an ID token');
        throw unavailable();
      }

      let claims: JWTPayload;
      try {
        const algorithms = ASYMMETRIC_ALGORITHMS.filter(
          (alg) => doc.id_token_signing_alg_values_supported?.includes(alg) ?? alg === 'RS256',
        );
        ({ payload: claims } = await jwtVerify(tokens.data.id_token, jwks, {
          issuer: acceptedIssuers,
          audience: settings.clientId,
          algorithms,
          requiredClaims: ['sub', 'iat', 'exp'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        }));
      } catch (error) {
        const reason = refusalReason(error);
        if (!reason) {
          // The JWKS could not be fetched (a timeout, a 5xx): the provider, not the token, failed.
          logger.warn({ err: error }, 'identity provider keys unavailable');
          throw unavailable();
        }
        logger.info({ reason }, 'ID token refused');
        throw tokenRefused(reason);
      }
      // With several audiences the token must say it was issued to us (OpenID Connect Core 3.1.3.7).
      const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      if (claims.azp !== undefined ? claims.azp !== settings.clientId : audiences.length > 1) {
        throw tokenRefused('issued to another party');
      }
      if (typeof claims.nonce !== 'string' || claims.nonce !== input.nonce) {
        logger.info('ID token nonce does not match its sign-in attempt');
        throw tokenRefused('nonce mismatch');
      }
      const sub = claimText(claims.sub);
      if (!sub) throw tokenRefused('no subject');

      let identity: VerifiedIdentity = {
        sub,
        email: claimText(claims.email),
        emailVerified: claimFlag(claims.email_verified),
        name: nameOf(claims),
      };
      if (!identity.email && tokens.data.access_token) {
        const info = await userInfo(doc, tokens.data.access_token, sub);
        if (info) {
          identity = {
            sub,
            email: claimText(info.email),
            emailVerified: claimFlag(info.email_verified),
            name: identity.name ?? nameOf(info),
          };
        }
      }
      return identity;
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
