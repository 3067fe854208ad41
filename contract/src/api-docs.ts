import type { EndpointAuth } from './endpoints.ts';
import type { EndpointExample } from './examples.ts';
import type { SnippetRequest } from './example-snippets.ts';

/**
 * What the API docs page shows, read from GET /api/openapi.json: the tabs (spec section 2: Auth,
 * Scripts, Game, Analytics; then Teams) and the operations under each. The page and the examples
 * test both use listDocsOperations, so the test covers exactly the endpoints a reader sees.
 *
 * User endpoints sit under Auth (they are the account and its key), Lua tools under Scripts, and
 * sharing scripts by link under Teams (docs/decisions/049: a link is how a script reaches another
 * team; copying it lands in one). No Teams call is browser-only: each takes a session token. Admin
 * endpoints are left off: they need an admin's browser session and are not an integration API.
 * The identity-provider sign-in and linking are left off too (BROWSER_ONLY_ENDPOINTS): they run
 * through the browser's redirect to the provider, so no script or game can call them. So are the
 * two-factor step of sign-in and its setup: a person with an authenticator app or a passkey in hand
 * does them on the sign-in screen and in Settings (a passkey answers only the browser's WebAuthn call). Tags not
 * listed here (Catalogue, Operations) are not shown until they are given a tab.
 */
export const API_DOCS_TABS = [
  { id: 'auth', label: 'Auth', tags: ['Auth', 'User'] },
  { id: 'scripts', label: 'Scripts', tags: ['Scripts', 'Lua'] },
  { id: 'game', label: 'Game', tags: ['Game', 'Players'] },
  { id: 'analytics', label: 'Analytics', tags: ['Analytics'] },
  { id: 'teams', label: 'Teams', tags: ['Teams', 'Sharing'] },
] as const;
export type ApiDocsTabId = (typeof API_DOCS_TABS)[number]['id'];
export const DEFAULT_API_DOCS_TAB: ApiDocsTabId = 'scripts';

export const BROWSER_ONLY_ENDPOINTS: readonly string[] = [
  'googleSignInStart',
  'googleSignIn',
  'googleLinkStart',
  'googleLink',
  'googleUnlink',
  'loginTwoFactor',
  'twoFactorStatus',
  'totpSetup',
  'totpConfirm',
  'totpDisable',
  'loginPasskeyOptions',
  'loginPasskey',
  'listPasskeys',
  'passkeyRegistrationOptions',
  'registerPasskey',
  'removePasskey',
  'passkeySignInOptions',
  'passkeySignIn',
  // Settings' own: ending sessions, changing the password or email, and the passkey proof.
  'endSession',
  'endOtherSessions',
  'changePassword',
  'changeEmail',
  'sudoPasskeyOptions',
  'sudoPasskey',
];

/** The parts of an OpenAPI 3.0 document the page reads. */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  /** A header parameter: Idempotency-Key, and Moonrelay-Team where the call acts on a team's data. */
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  'x-auth': EndpointAuth;
  /** The API key is also taken as `key` in the JSON body (the game client's way). */
  'x-key-in-body'?: boolean;
  'x-rate-limit': string;
  /** Absent for calls that are never rate-limited (the health checks). */
  'x-rate-limit-per-minute'?: number;
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface DocsOperation {
  tab: ApiDocsTabId;
  /** The contract's endpoint name (operationId), the key of its examples. */
  name: string;
  method: string;
  /** OpenAPI form: /api/scripts/{id} */
  path: string;
  auth: EndpointAuth;
  /** Also takes the API key as `key` in the body. */
  keyInBody: boolean;
  textResponse: boolean;
  operation: OpenApiOperation;
}

/** The operations the docs page shows, tab by tab, in the document's order. */
export function listDocsOperations(doc: OpenApiDocument): DocsOperation[] {
  const found: DocsOperation[] = [];
  for (const tab of API_DOCS_TABS) {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (!operation.tags.some((tag) => (tab.tags as readonly string[]).includes(tag))) continue;
        if (BROWSER_ONLY_ENDPOINTS.includes(operation.operationId)) continue;
        found.push({
          tab: tab.id,
          name: operation.operationId,
          method,
          path,
          auth: operation['x-auth'],
          keyInBody: operation['x-key-in-body'] === true,
          textResponse: Boolean(operation.responses['200']?.content?.['text/plain']),
          operation,
        });
      }
    }
  }
  return found;
}

/** The request an example makes: the endpoint's, with the example's own way of sending the key if it has one. */
export const snippetRequest = (op: DocsOperation, example: EndpointExample): SnippetRequest => ({
  method: op.method,
  path: op.path,
  auth: example.auth ?? op.auth,
  example,
  textResponse: op.textResponse,
});
