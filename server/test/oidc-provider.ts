import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import type ProviderClass from 'oidc-provider';

/**
 * A real OpenID Connect provider for the tests (panva's `oidc-provider`, the certified
 * implementation), on 127.0.0.1 and an ephemeral port. It has one confidential test client
 * (client_secret_basic, PKCE required) and test users, and its own login and consent pages: plain
 * HTML forms that Playwright fills like a person, and that `authorize()` below drives over plain
 * HTTP for the API suites. Redirect URIs are added at run time, once the app's origin is known.
 *
 * For the refusals a provider would never produce on its own (another audience, an expired or
 * foreign-signed token), `tamperNextIdToken` rewrites the ID token of the next token response and
 * signs it again with the provider's own key (or a stranger's), exactly as it travels on the wire.
 */

export interface TestIdentity {
  /** The subject: what Moonrelay stores as googleId. Google's are 21 digits; these look alike. */
  sub: string;
  username: string;
  password: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

export interface TestOidcProviderOptions {
  /**
   * true (like Google): name and email travel in the ID token. false: the provider conforms to
   * the strict reading of the spec and serves them only from the userinfo endpoint.
   */
  claimsInIdToken?: boolean;
}

export interface AuthorizeOptions {
  /** Who signs in at the provider's login page (default: the first test user). */
  as?: TestIdentity;
  /** Press Cancel on the consent page instead of Allow (the provider answers error=access_denied). */
  cancel?: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The settings that point a Moonrelay server at this provider. */
  env(): Record<string, string>;
  /** Registers a redirect URI for the test client (the app's origin + /auth/callback). */
  allowRedirectUri(uri: string): void;
  addUser(fields?: Partial<Omit<TestIdentity, 'sub'>>): TestIdentity;
  /** The first test user: Ada Lovelace. */
  readonly ada: TestIdentity;
  /**
   * Runs an authorization request the way a browser would (following redirects, keeping the
   * provider's cookies, submitting the login and consent forms) and answers the URL the provider
   * finally sends the browser to: the redirect URI with code and state, or with error.
   */
  authorize(authorizationUrl: string, options?: AuthorizeOptions): Promise<URL>;
  /** Rewrites the claims of the next ID token the token endpoint answers, signed with `signer`. */
  tamperNextIdToken(change: (claims: JWTPayload) => JWTPayload, signer?: 'provider' | 'stranger'): void;
  /** Requests the provider has seen, as "METHOD path" (for checks such as "the token endpoint was not called"). */
  readonly requests: string[];
  close(): Promise<void>;
}

const CLIENT_ID = 'moonrelay-test';
const CLIENT_SECRET = 'moonrelay-test-secret-0123456789abcdef';
const SIGNING_ALG = 'RS256';

let counter = 0;

/** oidc-provider 9 prefers Node 22 and warns once when loaded on 20; it runs fine on 20, which these suites prove. */
async function loadProvider(): Promise<typeof ProviderClass> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
    warn(...args);
  };
  try {
    return (await import('oidc-provider')).default;
  } finally {
    console.warn = warn;
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(prompt: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en" data-prompt="${prompt}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)} - Test Identity Provider</title>
<link rel="icon" href="data:,">
<style>
  body { font-family: system-ui, sans-serif; background: #f1f3f4; margin: 0; display: grid; place-items: center; min-height: 100vh; }
  main { background: #fff; border: 1px solid #dadce0; border-radius: 8px; padding: 40px; width: 360px; }
  h1 { font-size: 24px; font-weight: 400; margin: 0 0 8px; }
  p { color: #5f6368; margin: 0 0 24px; }
  label { display: block; font-size: 14px; margin: 16px 0 4px; }
  input { width: 100%; box-sizing: border-box; padding: 12px; font-size: 16px; border: 1px solid #dadce0; border-radius: 4px; }
  .actions { display: flex; justify-content: space-between; margin-top: 32px; }
  button { padding: 10px 24px; font-size: 14px; border-radius: 4px; border: 0; cursor: pointer; }
  button[type=submit] { background: #1a73e8; color: #fff; }
  button.secondary { background: transparent; color: #1a73e8; }
  .error { color: #d93025; font-size: 14px; margin-top: 16px; }
  ul { color: #3c4043; padding-left: 20px; }
  .brand { font-weight: 600; color: #1a73e8; margin-bottom: 24px; }
</style>
</head>
<body><main>
<div class="brand">Test Identity Provider</div>
${body}
</main></body>
</html>`;
}

function loginPage(uid: string, clientName: string, error?: string): string {
  return page(
    'login',
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to ${escapeHtml(clientName)}</p>
<form method="post" action="/interaction/${uid}/login" autocomplete="off">
  <label for="username">Username</label>
  <input id="username" name="username" required autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" required>
  ${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ''}
  <div class="actions">
    <button type="submit" formaction="/interaction/${uid}/abort" formnovalidate class="secondary">Cancel</button>
    <button type="submit">Sign in</button>
  </div>
</form>`,
  );
}

function consentPage(uid: string, clientName: string, who: TestIdentity): string {
  return page(
    'consent',
    'Allow access',
    `<h1>${escapeHtml(clientName)} wants to access your account</h1>
<p>Signed in as ${escapeHtml(who.email ?? who.username)}</p>
<ul>
  <li>Associate you with your personal info on this provider</li>
  <li>See your name</li>
  <li>See your email address</li>
</ul>
<form method="post" action="/interaction/${uid}/confirm">
  <div class="actions">
    <button type="submit" formaction="/interaction/${uid}/abort" class="secondary">Cancel</button>
    <button type="submit">Allow</button>
  </div>
</form>`,
  );
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startTestOidcProvider(options: TestOidcProviderOptions = {}): Promise<TestOidcProvider> {
  const Provider = await loadProvider();
  const { createMemoryAdapter } = await import('oidc-provider/lib/adapters/memory_adapter.js');

  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const stranger = await generateKeyPair(SIGNING_ALG);
  const kid = crypto.randomBytes(8).toString('hex');
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG, use: 'sig' };

  const users = new Map<string, TestIdentity>();
  const addUser = (fields: Partial<Omit<TestIdentity, 'sub'>> = {}): TestIdentity => {
    counter += 1;
    const sub = `1${String(Date.now()).padStart(13, '0')}${String(counter).padStart(7, '0')}`;
    const identity: TestIdentity = {
      sub,
      username: `person${counter}`,
      password: 'provider password',
      email: `person${counter}.${crypto.randomBytes(3).toString('hex')}@gmail.example`,
      emailVerified: true,
      name: `Person ${counter}`,
      ...fields,
    };
    users.set(sub, identity);
    return identity;
  };
  const ada = addUser({
    username: 'ada',
    name: 'Ada Lovelace',
    email: `ada.lovelace.${crypto.randomBytes(3).toString('hex')}@gmail.example`,
  });
  const byUsername = (username: string) => [...users.values()].find((user) => user.username === username);

  // The test client is served by the adapter, so redirect URIs can be added after the start.
  const redirectUris = new Set<string>();
  const clientMetadata = () => ({
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    client_name: 'Moonrelay',
    redirect_uris: [...redirectUris],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  });
  const memory = createMemoryAdapter();
  const adapter = (model: string) =>
    model === 'Client'
      ? {
          find: async (id: string) => (id === CLIENT_ID ? clientMetadata() : undefined),
          upsert: async () => {},
          destroy: async () => {},
        }
      : memory(model);

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    adapter,
    findAccount: async (_ctx: unknown, sub: string) => {
      const user = users.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          ...(user.email === undefined ? {} : { email: user.email, email_verified: user.emailVerified }),
          ...(user.name === undefined ? {} : { name: user.name, given_name: user.name.split(' ')[0] }),
        }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name'] },
    conformIdTokenClaims: options.claimsInIdToken === false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
    jwks: { keys: [privateJwk] },
    // Explicit lifetimes (seconds), which also keeps the provider from noting its defaults on every run.
    ttl: { AuthorizationCode: 60, AccessToken: 3600, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
  });

  let tamper: { change: (claims: JWTPayload) => JWTPayload; signer: 'provider' | 'stranger' } | undefined;
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (!tamper || ctx.path !== '/token' || ctx.status !== 200 || typeof body?.id_token !== 'string') return;
    const { change, signer } = tamper;
    tamper = undefined;
    const claims = change(decodeJwt(body.id_token));
    const signingKey = signer === 'provider' ? privateKey : stranger.privateKey;
    const headerKid = signer === 'provider' ? kid : 'stranger';
    ctx.body = {
      ...body,
      id_token: await new SignJWT(claims).setProtectedHeader({ alg: SIGNING_ALG, kid: headerKid }).sign(signingKey),
    };
  });

  const requests: string[] = [];
  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    requests.push(`${req.method} ${url.pathname}`);
    const interaction = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?$/.exec(url.pathname);
    if (!interaction) {
      callback(req, res);
      return;
    }
    handleInteraction(req, res, interaction[1]!, interaction[2]).catch((error: unknown) => {
      res.statusCode = 400;
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end(`Interaction failed: ${(error as Error).message}`);
    });
  });

  const html = (res: http.ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  };

  async function handleInteraction(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    uid: string,
    action: string | undefined,
  ): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const clientName = 'Moonrelay';
    if (action === undefined && req.method === 'GET') {
      if (details.prompt.name === 'login') return html(res, 200, loginPage(uid, clientName));
      const who = users.get(details.session?.accountId ?? '');
      if (!who) throw new Error('no signed-in user for the consent page');
      return html(res, 200, consentPage(uid, clientName, who));
    }
    if (req.method !== 'POST')
      return html(res, 405, page('error', 'Method not allowed', '<h1>Method not allowed</h1>'));
    if (action === 'abort') {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
    }
    if (action === 'login') {
      const form = await readForm(req);
      const user = byUsername(form.get('username') ?? '');
      if (!user || user.password !== form.get('password')) {
        return html(res, 200, loginPage(uid, clientName, 'Wrong username or password.'));
      }
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: user.sub } },
        {
          mergeWithLastSubmission: false,
        },
      );
    }
    // confirm: grant what the consent prompt says is missing.
    const accountId = details.session?.accountId;
    if (!accountId) throw new Error('consent without a signed-in user');
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    const missingScope = details.prompt.details.missingOIDCScope as string[] | undefined;
    const missingClaims = details.prompt.details.missingOIDCClaims as string[] | undefined;
    grant.addOIDCScope((missingScope ?? String(details.params.scope).split(' ')).join(' '));
    if (missingClaims) grant.addOIDCClaims(missingClaims);
    const grantId = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  async function authorize(authorizationUrl: string, authorizeOptions: AuthorizeOptions = {}): Promise<URL> {
    const who = authorizeOptions.as ?? ada;
    const jar = new Map<string, string>();
    const keepCookies = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';');
        const [name = '', ...value] = pair.split('=');
        const expires = attributes.find((a) => a.trim().toLowerCase().startsWith('expires='));
        const gone = expires !== undefined && Date.parse(expires.split('=')[1] ?? '') < Date.now();
        if (gone || value.join('=') === '') jar.delete(name.trim());
        else jar.set(name.trim(), value.join('='));
      }
    };
    const send = async (url: URL, form?: Record<string, string>) => {
      const headers: Record<string, string> = {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
      };
      if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
      const response = await fetch(url, {
        method: form ? 'POST' : 'GET',
        headers,
        body: form ? new URLSearchParams(form).toString() : undefined,
        redirect: 'manual',
      });
      keepCookies(response);
      return response;
    };

    let response = await send(new URL(authorizationUrl));
    let url = new URL(authorizationUrl);
    for (let step = 0; step < 12; step += 1) {
      if (response.status >= 300 && response.status < 400) {
        const next = new URL(response.headers.get('location') ?? '', url);
        await response.body?.cancel();
        // Leaving the provider: this is the redirect back to the client.
        if (next.origin !== issuer) return next;
        url = next;
        response = await send(url);
        continue;
      }
      const text = await response.text();
      if (response.status !== 200) throw new Error(`provider answered ${response.status} at ${url}: ${text}`);
      const uid = /action="\/interaction\/([\w-]+)\//.exec(text)?.[1];
      if (text.includes('data-prompt="login"') && uid) {
        if (text.includes('Wrong username or password')) throw new Error('the test user could not sign in');
        if (authorizeOptions.cancel) {
          response = await send(new URL(`/interaction/${uid}/abort`, issuer), {});
        } else {
          response = await send(new URL(`/interaction/${uid}/login`, issuer), {
            username: who.username,
            password: who.password,
          });
        }
      } else if (text.includes('data-prompt="consent"') && uid) {
        const action = authorizeOptions.cancel ? 'abort' : 'confirm';
        response = await send(new URL(`/interaction/${uid}/${action}`, issuer), {});
      } else {
        throw new Error(`unexpected provider page at ${url}: ${text.slice(0, 300)}`);
      }
      url = new URL(response.url || url);
    }
    throw new Error('the authorization did not come back to the client');
  }

  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    env: () => ({ OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET }),
    allowRedirectUri: (uri) => void redirectUris.add(uri),
    addUser,
    ada,
    authorize,
    tamperNextIdToken: (change, signer = 'provider') => {
      tamper = { change, signer };
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
