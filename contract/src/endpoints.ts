import type { z } from 'zod';
import { IdParamsSchema, SuccessResponseSchema } from './common.ts';
import {
  AuthResponseSchema,
  LoginRequestSchema,
  RegenerateKeyResponseSchema,
  RegisterRequestSchema,
  UserSchema,
} from './auth.ts';
import { CreateScriptRequestSchema, ScriptListSchema, ScriptSchema, UpdateScriptRequestSchema } from './scripts.ts';
import { SCRIPT_CODE_MAX_BYTES } from './constants.ts';
import {
  ExecuteCodeRequestSchema,
  ExecuteScriptRequestSchema,
  ExecutionResponseSchema,
  LuaCheckResponseSchema,
  LuaCodeRequestSchema,
  LuaFormatResponseSchema,
} from './executions.ts';

/**
 * The API's routes as data. The server mounts exactly these (validating with their schemas) and
 * the OpenAPI document is generated from them, so the docs cannot drift from the code.
 *
 * auth: 'none' (anyone), 'session' (a signed-in browser session only), 'session-or-key' (a session
 * or the user's API key as Bearer, as the game client and the documented API use).
 * rateLimit: which per-principal budget a call spends (spec section 9).
 */
export type EndpointAuth = 'none' | 'session' | 'session-or-key';
export type RateLimitPolicy = 'general' | 'execution';

export interface Endpoint {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Koa-style path; `:id` becomes `{id}` in the OpenAPI document. */
  path: string;
  tag: 'Auth' | 'User' | 'Scripts' | 'Lua';
  summary: string;
  auth: EndpointAuth;
  rateLimit: RateLimitPolicy;
  params?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Status codes of the documented error answers, besides 429. */
  errors: readonly number[];
  /** Largest JSON body accepted, in bytes (default 1 MB). */
  bodyLimitBytes?: number;
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
    errors: [400, 409],
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
  executeCode: endpoint({
    method: 'post',
    path: '/api/scripts/execute',
    tag: 'Scripts',
    summary:
      'Run code: in the connected game (default target) or in the Lua sandbox (target "sandbox"). Syntax is checked first.',
    auth: 'session-or-key',
    rateLimit: 'execution',
    body: ExecuteCodeRequestSchema,
    response: ExecutionResponseSchema,
    errors: [400, 401, 413, 503],
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
    errors: [400, 401, 404, 503],
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
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;
