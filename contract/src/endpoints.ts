import { z } from 'zod';
import { HealthLiveSchema, HealthReadySchema, HealthSchema } from './operations.ts';
import { IdParamsSchema, SuccessResponseSchema } from './common.ts';
import {
  AuthProvidersSchema,
  AuthResponseSchema,
  LoginRequestSchema,
  OidcCallbackRequestSchema,
  OidcStartRequestSchema,
  OidcStartResponseSchema,
  RegenerateKeyResponseSchema,
  RegisterRequestSchema,
  SignInMethodsSchema,
  UserSchema,
} from './auth.ts';
import { CreateScriptRequestSchema, ScriptListSchema, ScriptSchema, UpdateScriptRequestSchema } from './scripts.ts';
import { GAME_PING_BODY_LIMIT_BYTES, SCRIPT_CODE_MAX_BYTES } from './constants.ts';
import { ScriptVersionListSchema, ScriptVersionParamsSchema, ScriptVersionSchema } from './script-versions.ts';
import {
  ExecuteCodeRequestSchema,
  ExecuteCodeResponseSchema,
  ExecuteScriptRequestSchema,
  ExecutionResponseSchema,
  LuaCheckResponseSchema,
  LuaCodeRequestSchema,
  LuaFormatResponseSchema,
} from './executions.ts';
import {
  GameCommandRequestSchema,
  GameCommandResponseSchema,
  GamePingRequestSchema,
  GamePingResponseSchema,
  GameStatusSchema,
  IntegrationScriptsSchema,
  KeyQuerySchema,
  PlayerProfileSchema,
  ProfileQuerySchema,
} from './game.ts';
import { ConsoleErrorCountsSchema, ConsolePageSchema, ConsoleQuerySchema } from './console.ts';
import {
  AdminConnectionListSchema,
  AdminCommandRequestSchema,
  AdminExecuteScriptRequestSchema,
  AdminRegenerateKeyResponseSchema,
  AdminUserIdParamsSchema,
  AdminUserPageSchema,
  AuditPageSchema,
  MassExecutionRequestSchema,
  MassExecutionResponseSchema,
  PageQuerySchema,
  RecentExecutionPageSchema,
  SetRoleRequestSchema,
  MassExecutionParamsSchema,
} from './admin.ts';
import { AnalyticsQuerySchema, ScriptAnalyticsSchema, UsageAnalyticsSchema } from './analytics.ts';
import {
  CatalogueFetchQuerySchema,
  CataloguePageSchema,
  CatalogueScriptParamsSchema,
  CatalogueSearchQuerySchema,
  CatalogueSourceSchema,
  ScriptTokenQuerySchema,
  TempScriptRequestSchema,
  TempScriptResponseSchema,
} from './catalogue.ts';
import { RunListQuerySchema, RunPageSchema, RunSchema } from './runs.ts';

/**
 * The API's routes as data. The server mounts exactly these (validating with their schemas) and
 * the OpenAPI document is generated from them, so the docs cannot drift from the code.
 *
 * auth: 'none' (anyone), 'session' (a signed-in browser session only), 'session-or-key' (a session
 * or the user's API key as Bearer, as the game client and the documented API use), 'game-key' (the
 * API key as `key` in the JSON body or the query string, as the game's ping and loader send it),
 * 'admin' (a signed-in session of an admin; anyone else gets 403).
 * rateLimit: which per-principal budget a call spends (spec section 9); 'game' is one game server's
 * own ping budget, so a game's steady pinging never eats into the user's general budget.
 */
export type EndpointAuth = 'none' | 'session' | 'session-or-key' | 'game-key' | 'admin';
export type RateLimitPolicy = 'general' | 'execution' | 'game' | 'none';

export interface Endpoint {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Koa-style path; `:id` becomes `{id}` in the OpenAPI document. */
  path: string;
  tag: 'Auth' | 'User' | 'Scripts' | 'Lua' | 'Game' | 'Admin' | 'Analytics' | 'Catalogue' | 'Operations';
  summary: string;
  auth: EndpointAuth;
  rateLimit: RateLimitPolicy;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Answers plain text (the Lua loader) instead of JSON. */
  responseType?: 'text/plain';
  /** Status codes of the documented error answers, besides 429. */
  errors: readonly number[];
  /** Largest JSON body accepted, in bytes (default 1 MB). */
  bodyLimitBytes?: number;
  /**
   * A 'session-or-key' endpoint that also takes the API key as `key` in its JSON body, as the game
   * client sends it, when no Authorization header names the caller. Its rate limit and
   * authorization then come after the body is read.
   */
  keyInBody?: true;
  /**
   * Takes an `Idempotency-Key` header: a repeat of a key the caller used in the last 24 hours
   * answers the first answer and does nothing again (docs/operations.md).
   */
  idempotent?: true;
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** A script body may carry 1 MiB of code plus its other fields and JSON escaping. */
export const SCRIPT_BODY_LIMIT_BYTES = Math.floor(SCRIPT_CODE_MAX_BYTES * 1.5);

const endpoint = <E extends Endpoint>(definition: E) => definition;

export const endpoints = {
  register: endpoint({
    method: 'post',
    path: '/api/auth/register',
    tag: 'Auth',
    summary: 'Create an account; answers a session token and the user (with their API key).',
    auth: 'none',
    rateLimit: 'general',
    body: RegisterRequestSchema,
    response: AuthResponseSchema,
    errors: [400, 409, 429],
  }),
  login: endpoint({
    method: 'post',
    path: '/api/auth/login',
    tag: 'Auth',
    summary: 'Sign in with email or username and password.',
    auth: 'none',
    rateLimit: 'general',
    body: LoginRequestSchema,
    response: AuthResponseSchema,
    errors: [400, 401],
  }),
  logout: endpoint({
    method: 'post',
    path: '/api/auth/logout',
    tag: 'Auth',
    summary: 'Revoke the current session token.',
    auth: 'session',
    rateLimit: 'general',
    response: SuccessResponseSchema,
    errors: [401],
  }),
  currentUser: endpoint({
    method: 'get',
    path: '/api/user',
    tag: 'User',
    summary: 'The signed-in user, with their API key.',
    auth: 'session',
    rateLimit: 'general',
    response: UserSchema,
    errors: [401],
  }),
  regenerateKey: endpoint({
    method: 'post',
    path: '/api/user/regenerate-key',
    tag: 'User',
    summary: 'Issue a new API key; the previous one stops working at once.',
    auth: 'session',
    rateLimit: 'general',
    response: RegenerateKeyResponseSchema,
    errors: [401],
  }),
  deleteAccount: endpoint({
    method: 'delete',
    path: '/api/user/account',
    tag: 'User',
    summary: 'Delete the account and everything that belongs to it (scripts, sessions, API key).',
    auth: 'session',
    rateLimit: 'general',
    response: SuccessResponseSchema,
    errors: [401],
  }),
  listScripts: endpoint({
    method: 'get',
    path: '/api/scripts',
    tag: 'Scripts',
    summary: "The user's scripts, most recently updated first. The game client calls it with the API key.",
    auth: 'session-or-key',
    rateLimit: 'general',
    response: ScriptListSchema,
    errors: [401],
  }),
  getScript: endpoint({
    method: 'get',
    path: '/api/scripts/:id',
    tag: 'Scripts',
    summary: "One of the user's scripts, code included. Another user's script answers 404, as an unknown id does.",
    auth: 'session-or-key',
    rateLimit: 'general',
    params: IdParamsSchema,
    response: ScriptSchema,
    errors: [401, 404],
  }),
  createScript: endpoint({
    method: 'post',
    path: '/api/scripts',
    tag: 'Scripts',
    summary: 'Create a script. name and code are required.',
    auth: 'session-or-key',
    rateLimit: 'general',
    body: CreateScriptRequestSchema,
    response: ScriptSchema,
    errors: [400, 401, 413],
    bodyLimitBytes: SCRIPT_BODY_LIMIT_BYTES,
  }),
  updateScript: endpoint({
    method: 'put',
    path: '/api/scripts/:id',
    tag: 'Scripts',
    summary: 'Update a script with the full shape or any part of it (code only, for example).',
    auth: 'session-or-key',
    rateLimit: 'general',
    params: IdParamsSchema,
    body: UpdateScriptRequestSchema,
    response: ScriptSchema,
    errors: [400, 401, 404, 413],
    bodyLimitBytes: SCRIPT_BODY_LIMIT_BYTES,
  }),
  deleteScript: endpoint({
    method: 'delete',
    path: '/api/scripts/:id',
    tag: 'Scripts',
    summary: 'Delete a script.',
    auth: 'session-or-key',
    rateLimit: 'general',
    params: IdParamsSchema,
    response: SuccessResponseSchema,
    errors: [401, 404],
  }),
  listScriptVersions: endpoint({
    method: 'get',
    path: '/api/scripts/:id/versions',
    tag: 'Scripts',
    summary:
      "A script's versions, newest first (the last 100): each save that changed it, who saved it, and how (a session, the API key, or a restore).",
    auth: 'session-or-key',
    rateLimit: 'general',
    params: IdParamsSchema,
    response: ScriptVersionListSchema,
    errors: [401, 404],
  }),
  getScriptVersion: endpoint({
    method: 'get',
    path: '/api/scripts/:id/versions/:n',
    tag: 'Scripts',
    summary: 'One version of a script in full, code included. A version pruned since answers 404.',
    auth: 'session-or-key',
    rateLimit: 'general',
    params: ScriptVersionParamsSchema,
    response: ScriptVersionSchema,
    errors: [400, 401, 404],
  }),
  restoreScriptVersion: endpoint({
    method: 'post',
    path: '/api/scripts/:id/versions/:n/restore',
    tag: 'Scripts',
    summary:
      'Makes the script what that version was (code, name, description, game configuration). The restore is itself a new version; answers the script.',
    auth: 'session-or-key',
    rateLimit: 'general',
    params: ScriptVersionParamsSchema,
    response: ScriptSchema,
    errors: [400, 401, 404],
  }),
  executeCode: endpoint({
    method: 'post',
    path: '/api/scripts/execute',
    tag: 'Scripts',
    summary:
      'Run code: in the connected game (default target; a result not back within 8 s answers queued with `pending`), in the Lua sandbox (target "sandbox"), or in an emulated game server in the sandbox (target "dry-run", answering a summary of what the script changed). ' +
      'Or, as the game client calls it, `key` (your API key) and `script` (the name of one of your scripts): answers that script’s code for the game to run itself, and with `gameData` the commands waiting for that game. Syntax is checked first.',
    auth: 'session-or-key',
    keyInBody: true,
    rateLimit: 'execution',
    body: ExecuteCodeRequestSchema,
    response: ExecuteCodeResponseSchema,
    errors: [400, 401, 404, 409, 413, 422, 503],
    idempotent: true,
    bodyLimitBytes: SCRIPT_BODY_LIMIT_BYTES,
  }),
  executeScript: endpoint({
    method: 'post',
    path: '/api/scripts/:id/execute',
    tag: 'Scripts',
    summary: 'Run a saved script (its executionCount rises on every run).',
    auth: 'session-or-key',
    rateLimit: 'execution',
    params: IdParamsSchema,
    body: ExecuteScriptRequestSchema,
    response: ExecutionResponseSchema,
    errors: [400, 401, 404, 409, 422, 503],
    idempotent: true,
  }),
  checkLua: endpoint({
    method: 'post',
    path: '/api/lua/check',
    tag: 'Lua',
    summary: 'Check Luau syntax; answers diagnostics with line and column.',
    auth: 'session-or-key',
    rateLimit: 'general',
    body: LuaCodeRequestSchema,
    response: LuaCheckResponseSchema,
    errors: [400, 401, 413, 503],
    bodyLimitBytes: SCRIPT_BODY_LIMIT_BYTES,
  }),
  formatLua: endpoint({
    method: 'post',
    path: '/api/lua/format',
    tag: 'Lua',
    summary: 'Format Luau code; code that does not parse answers 400 with the syntax error.',
    auth: 'session-or-key',
    rateLimit: 'general',
    body: LuaCodeRequestSchema,
    response: LuaFormatResponseSchema,
    errors: [400, 401, 413, 503],
    bodyLimitBytes: SCRIPT_BODY_LIMIT_BYTES,
  }),
  gamePing: endpoint({
    method: 'post',
    path: '/api/game/ping',
    tag: 'Game',
    summary:
      'The game server reports its player and takes its pending commands; results of earlier commands ride along. ' +
      'With `wait` the answer is held until a command arrives (long-poll).',
    auth: 'game-key',
    rateLimit: 'game',
    body: GamePingRequestSchema,
    bodyLimitBytes: GAME_PING_BODY_LIMIT_BYTES,
    response: GamePingResponseSchema,
    errors: [400, 401],
  }),
  gameStatus: endpoint({
    method: 'get',
    path: '/api/game/status',
    tag: 'Game',
    summary:
      'Whether a game is connected (a ping in the last 10 s), its last ping and player data, and every live game server.',
    auth: 'session-or-key',
    rateLimit: 'general',
    response: GameStatusSchema,
    errors: [401],
  }),
  gameConsole: endpoint({
    method: 'get',
    path: '/api/game/console',
    tag: 'Game',
    summary:
      "Your game servers' console: what their scripts printed, warned and threw, newest first (cursor paging), filtered by server, time, level and text.",
    auth: 'session-or-key',
    rateLimit: 'general',
    query: ConsoleQuerySchema,
    response: ConsolePageSchema,
    errors: [400, 401],
  }),
  gameConsoleErrors: endpoint({
    method: 'get',
    path: '/api/game/console/errors',
    tag: 'Game',
    summary: 'How many errors each of your game servers logged in the last hour.',
    auth: 'session-or-key',
    rateLimit: 'general',
    response: ConsoleErrorCountsSchema,
    errors: [401],
  }),
  gameCommand: endpoint({
    method: 'post',
    path: '/api/game/command',
    tag: 'Game',
    summary:
      'Queue a command (teleport, heal, speed, reset, execute, script) for one game server, or for every live one when serverId is omitted.',
    auth: 'session-or-key',
    rateLimit: 'general',
    body: GameCommandRequestSchema,
    response: GameCommandResponseSchema,
    errors: [400, 401, 409, 413, 422],
    idempotent: true,
    bodyLimitBytes: SCRIPT_BODY_LIMIT_BYTES,
  }),
  gameLoader: endpoint({
    method: 'get',
    path: '/api/game/loader',
    tag: 'Game',
    summary: 'The full game integration script for the key in the query string, as Luau source (text/plain).',
    auth: 'game-key',
    rateLimit: 'general',
    query: KeyQuerySchema,
    response: z.string(),
    responseType: 'text/plain',
    errors: [401],
  }),
  gameProfile: endpoint({
    method: 'get',
    path: '/api/game/profile',
    tag: 'Game',
    summary: "A Roblox player's profile (name, display name, avatar, ...), fetched from Roblox and cached 10 minutes.",
    auth: 'session-or-key',
    rateLimit: 'general',
    query: ProfileQuerySchema,
    response: PlayerProfileSchema,
    errors: [400, 401, 502],
  }),
  integrationScripts: endpoint({
    method: 'get',
    path: '/api/game/integration-scripts',
    tag: 'Game',
    summary:
      "The Quick Loader, the Full Game Integration Script and the Dashboard Teleport Script, with this server's URL and the user's key.",
    auth: 'session',
    rateLimit: 'general',
    response: IntegrationScriptsSchema,
    errors: [401],
  }),
  adminUsers: endpoint({
    method: 'get',
    path: '/api/admin/users',
    tag: 'Admin',
    summary: 'Every user, newest first, with their API key and script count (paged).',
    auth: 'admin',
    rateLimit: 'general',
    query: PageQuerySchema,
    response: AdminUserPageSchema,
    errors: [400, 401, 403],
  }),
  adminConnections: endpoint({
    method: 'get',
    path: '/api/admin/connections',
    tag: 'Admin',
    summary: 'Every known game server of every user, connected ones first (paged), and how many are connected.',
    auth: 'admin',
    rateLimit: 'general',
    query: PageQuerySchema,
    response: AdminConnectionListSchema,
    errors: [400, 401, 403],
  }),
  adminUserConsole: endpoint({
    method: 'get',
    path: '/api/admin/users/:id/console',
    tag: 'Admin',
    summary: "One user's game console, as that user sees it in GET /api/game/console.",
    auth: 'admin',
    rateLimit: 'general',
    params: AdminUserIdParamsSchema,
    query: ConsoleQuerySchema,
    response: ConsolePageSchema,
    errors: [400, 401, 403, 404],
  }),
  adminAudit: endpoint({
    method: 'get',
    path: '/api/admin/audit',
    tag: 'Admin',
    summary: 'The audit log, newest first (paged). It cannot be changed through the API.',
    auth: 'admin',
    rateLimit: 'general',
    query: PageQuerySchema,
    response: AuditPageSchema,
    errors: [400, 401, 403],
  }),
  adminRecentExecutions: endpoint({
    method: 'get',
    path: '/api/admin/recent-executions',
    tag: 'Admin',
    summary: 'Executions of every user, newest first (paged).',
    auth: 'admin',
    rateLimit: 'general',
    query: PageQuerySchema,
    response: RecentExecutionPageSchema,
    errors: [400, 401, 403],
  }),
  adminRegenerateKey: endpoint({
    method: 'post',
    path: '/api/admin/users/:id/regenerate-key',
    tag: 'Admin',
    summary: 'Issue a new API key for a user; their old key stops working at once. Audited.',
    auth: 'admin',
    rateLimit: 'general',
    params: AdminUserIdParamsSchema,
    response: AdminRegenerateKeyResponseSchema,
    errors: [401, 403, 404],
  }),
  adminCommand: endpoint({
    method: 'post',
    path: '/api/admin/users/:id/command',
    tag: 'Admin',
    summary: "Queue a command for a user's game. Audited.",
    auth: 'admin',
    rateLimit: 'general',
    params: AdminUserIdParamsSchema,
    body: AdminCommandRequestSchema,
    response: GameCommandResponseSchema,
    errors: [400, 401, 403, 404, 409, 413],
    bodyLimitBytes: SCRIPT_BODY_LIMIT_BYTES,
  }),
  adminExecuteScript: endpoint({
    method: 'post',
    path: '/api/admin/users/:id/execute-script',
    tag: 'Admin',
    summary:
      "Run code (`script`; `code` is taken too) on a user's connected game and wait up to 8 s for its output. Audited.",
    auth: 'admin',
    rateLimit: 'execution',
    params: AdminUserIdParamsSchema,
    body: AdminExecuteScriptRequestSchema,
    response: ExecutionResponseSchema,
    errors: [400, 401, 403, 404, 413, 503],
    bodyLimitBytes: SCRIPT_BODY_LIMIT_BYTES,
  }),
  adminSetRole: endpoint({
    method: 'post',
    path: '/api/admin/users/:id/role',
    tag: 'Admin',
    summary: 'Promote a user to admin or demote them; the last admin cannot be demoted. Audited.',
    auth: 'admin',
    rateLimit: 'general',
    params: AdminUserIdParamsSchema,
    body: SetRoleRequestSchema,
    response: SuccessResponseSchema,
    errors: [400, 401, 403, 404, 409],
  }),
  adminMassExecution: endpoint({
    method: 'post',
    path: '/api/admin/mass-execution',
    tag: 'Admin',
    summary:
      'Send one command, or run one script, on each selected user’s game: a job per user; progress arrives as mass:progress events. Audited.',
    auth: 'admin',
    rateLimit: 'execution',
    body: MassExecutionRequestSchema,
    response: MassExecutionResponseSchema,
    errors: [400, 401, 403, 409, 413, 422],
    idempotent: true,
    bodyLimitBytes: SCRIPT_BODY_LIMIT_BYTES,
  }),
  adminMassExecutionProgress: endpoint({
    method: 'get',
    path: '/api/admin/mass-executions/:batchId',
    tag: 'Admin',
    summary:
      'Where each user’s part of a mass execution stands, as recorded in the database (the same as the mass:progress events, for a screen that reloads).',
    auth: 'admin',
    rateLimit: 'general',
    params: MassExecutionParamsSchema,
    response: MassExecutionResponseSchema,
    errors: [401, 403, 404],
  }),
  analyticsUsage: endpoint({
    method: 'get',
    path: '/api/analytics/usage',
    tag: 'Analytics',
    summary:
      'Your API requests over the period: totals, requests by endpoint (route pattern), mean response time, and requests over time.',
    auth: 'session-or-key',
    rateLimit: 'general',
    query: AnalyticsQuerySchema,
    response: UsageAnalyticsSchema,
    errors: [400, 401],
  }),
  analyticsScripts: endpoint({
    method: 'get',
    path: '/api/analytics/scripts',
    tag: 'Analytics',
    summary:
      'Your script runs over the period: totals, the busiest scripts, success rate, mean run time, and runs over time.',
    auth: 'session-or-key',
    rateLimit: 'general',
    query: AnalyticsQuerySchema,
    response: ScriptAnalyticsSchema,
    errors: [400, 401],
  }),
  catalogueFetch: endpoint({
    method: 'get',
    path: '/api/scriptblox/fetch',
    tag: 'Catalogue',
    summary:
      'Browse the script catalogue (ScriptBlox), newest first, 20 a page. Answers are cached 5 minutes and served stale while the catalogue fails.',
    auth: 'session-or-key',
    rateLimit: 'general',
    query: CatalogueFetchQuerySchema,
    response: CataloguePageSchema,
    errors: [400, 401, 502, 503],
  }),
  catalogueSearch: endpoint({
    method: 'get',
    path: '/api/scriptblox/search',
    tag: 'Catalogue',
    summary: 'Search the script catalogue by title (q), 20 a page; cached like browsing.',
    auth: 'session-or-key',
    rateLimit: 'general',
    query: CatalogueSearchQuerySchema,
    response: CataloguePageSchema,
    errors: [400, 401, 502, 503],
  }),
  catalogueTrending: endpoint({
    method: 'get',
    path: '/api/scriptblox/trending',
    tag: 'Catalogue',
    summary: "The catalogue's trending scripts (one page); cached like browsing.",
    auth: 'session-or-key',
    rateLimit: 'general',
    response: CataloguePageSchema,
    errors: [401, 502, 503],
  }),
  catalogueScript: endpoint({
    method: 'get',
    path: '/api/scriptblox/script/:id',
    tag: 'Catalogue',
    summary:
      "One catalogue script's source, for the preview and for import, with the executor-only functions it calls. Cached.",
    auth: 'session-or-key',
    rateLimit: 'general',
    params: CatalogueScriptParamsSchema,
    response: CatalogueSourceSchema,
    errors: [400, 401, 404, 422, 502, 503],
  }),
  createTempScript: endpoint({
    method: 'post',
    path: '/api/scripts/temp',
    tag: 'Scripts',
    summary:
      'Keep code too long to send as a command (over 10000 characters) and answer a one-line loader that fetches it: `loadstring(game:GetService("HttpService"):GetAsync(url))()`. The URL carries a token that reads this script only and stops working when the API key is regenerated.',
    auth: 'session-or-key',
    rateLimit: 'general',
    body: TempScriptRequestSchema,
    response: TempScriptResponseSchema,
    errors: [400, 401, 409, 413],
    bodyLimitBytes: SCRIPT_BODY_LIMIT_BYTES,
  }),
  loadTempScript: endpoint({
    method: 'get',
    path: '/api/scripts/load/:id',
    tag: 'Scripts',
    summary:
      'The code kept by POST /api/scripts/temp, as Luau source (text/plain), for the loader. key is the script token from its URL, not a session token or API key.',
    auth: 'none',
    rateLimit: 'general',
    params: IdParamsSchema,
    query: ScriptTokenQuerySchema,
    response: z.string(),
    responseType: 'text/plain',
    errors: [400, 401, 404],
  }),
  health: endpoint({
    method: 'get',
    path: '/api/health',
    tag: 'Operations',
    summary: 'Whether this instance can serve: the database (503 when it does not answer) and Redis.',
    auth: 'none',
    // Probed every few seconds by load balancers and orchestrators, from one address: never refused.
    rateLimit: 'none',
    response: HealthSchema,
    errors: [503],
  }),
  healthLive: endpoint({
    method: 'get',
    path: '/api/health/live',
    tag: 'Operations',
    summary: 'Liveness: the process answers (restart it if not). Touches no database or Redis; never rate-limited.',
    auth: 'none',
    rateLimit: 'none',
    response: HealthLiveSchema,
    errors: [],
  }),
  healthReady: endpoint({
    method: 'get',
    path: '/api/health/ready',
    tag: 'Operations',
    summary:
      'Readiness: the database, Redis and the workers, each with its state; 503 while the database or Redis does not answer. Never rate-limited.',
    auth: 'none',
    rateLimit: 'none',
    response: HealthReadySchema,
    errors: [503],
  }),
  authProviders: endpoint({
    method: 'get',
    path: '/api/auth/providers',
    tag: 'Auth',
    summary: 'Which identity-provider sign-in buttons this server offers (Google, or another OpenID Connect issuer).',
    auth: 'none',
    rateLimit: 'general',
    response: AuthProvidersSchema,
    errors: [],
  }),
  googleSignInStart: endpoint({
    method: 'post',
    path: '/api/auth/google/start',
    tag: 'Auth',
    summary:
      "Start signing in with the identity provider: answers the provider's authorization URL (with state, nonce and a PKCE S256 challenge, valid once for 10 minutes).",
    auth: 'none',
    rateLimit: 'general',
    body: OidcStartRequestSchema,
    response: OidcStartResponseSchema,
    errors: [400, 404, 502],
  }),
  googleSignIn: endpoint({
    method: 'post',
    path: '/api/auth/google',
    tag: 'Auth',
    summary:
      'Finish signing in: exchanges the code, verifies the ID token and signs in the account linked to it, creating one on first sign-in. Never joins an existing account by email.',
    auth: 'none',
    rateLimit: 'general',
    body: OidcCallbackRequestSchema,
    response: AuthResponseSchema,
    errors: [400, 404, 409, 502],
  }),
  signInMethods: endpoint({
    method: 'get',
    path: '/api/user/sign-in-methods',
    tag: 'User',
    summary: 'How the signed-in user can sign in: whether they have a password, and their linked Google ID.',
    auth: 'session',
    rateLimit: 'general',
    response: SignInMethodsSchema,
    errors: [401],
  }),
  googleLinkStart: endpoint({
    method: 'post',
    path: '/api/user/google/start',
    tag: 'User',
    summary: "Start linking the identity provider to the signed-in account: answers the provider's authorization URL.",
    auth: 'session',
    rateLimit: 'general',
    body: OidcStartRequestSchema,
    response: OidcStartResponseSchema,
    errors: [400, 401, 404, 409, 502],
  }),
  googleLink: endpoint({
    method: 'post',
    path: '/api/user/google',
    tag: 'User',
    summary: 'Finish linking: the identity in the verified ID token becomes a way to sign in to this account.',
    auth: 'session',
    rateLimit: 'general',
    body: OidcCallbackRequestSchema,
    response: UserSchema,
    errors: [400, 401, 404, 409, 502],
  }),
  googleUnlink: endpoint({
    method: 'delete',
    path: '/api/user/google',
    tag: 'User',
    summary: 'Unlink the identity provider; refused when the account has no password (it would be locked out).',
    auth: 'session',
    rateLimit: 'general',
    response: UserSchema,
    errors: [401, 409],
  }),
  listExecutions: endpoint({
    method: 'get',
    path: '/api/executions',
    tag: 'Scripts',
    summary:
      'Your runs, newest first: filter by scriptId, target, serverId, status (pending, succeeded, failed, limit, not_connected) and time (from, to); page with the answered nextCursor.',
    auth: 'session-or-key',
    rateLimit: 'general',
    query: RunListQuerySchema,
    response: RunPageSchema,
    errors: [400, 401],
  }),
  getExecution: endpoint({
    method: 'get',
    path: '/api/executions/:id',
    tag: 'Scripts',
    summary:
      'One of your runs: the code that ran, its output and error, where and how long it ran, and who started it.',
    auth: 'session-or-key',
    rateLimit: 'general',
    params: IdParamsSchema,
    response: RunSchema,
    errors: [401, 404],
  }),
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;
