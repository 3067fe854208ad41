import type { EndpointAuth } from './endpoints.ts';
import { API_KEY_PLACEHOLDER, SESSION_TOKEN_PLACEHOLDER, type EndpointExample } from './examples.ts';

/**
 * Renders an endpoint's example as the cURL, JavaScript and Lua (Roblox HttpService) code the API
 * docs page shows. The page and the examples test both call this, so the test runs exactly the
 * text a reader copies. Each snippet prints the answer: cURL as sent, JavaScript as JSON, Lua the
 * first field of the answer (or the text of a text answer).
 */

export interface SnippetRequest {
  method: string;
  /** The OpenAPI path (`/api/scripts/{id}`) or the Koa one (`/api/scripts/:id`). */
  path: string;
  auth: EndpointAuth;
  example: EndpointExample;
  /** Answers text rather than JSON. */
  textResponse?: boolean;
}

export interface SnippetContext {
  /** Where the reader reaches Moonrelay, e.g. https://moonrelay.example.com (no trailing slash). */
  origin: string;
  /** The reader's API key, put in place of the placeholder when known. */
  apiKey?: string | null;
}

export interface Snippets {
  curl: string;
  javascript: string;
  lua: string;
}

/** Which credential an endpoint takes in the Authorization header (game-key endpoints carry the key in the request). */
export function bearerFor(auth: EndpointAuth): string | null {
  if (auth === 'session' || auth === 'admin') return SESSION_TOKEN_PLACEHOLDER;
  if (auth === 'session-or-key') return API_KEY_PLACEHOLDER;
  return null;
}

/** Replaces the API key placeholder wherever it appears in a value (body fields, query values). */
export function withKey<T>(value: T, apiKey: string | null | undefined): T {
  if (!apiKey) return value;
  return JSON.parse(JSON.stringify(value).replaceAll(API_KEY_PLACEHOLDER, apiKey)) as T;
}

export function exampleUrl(request: SnippetRequest, context: SnippetContext): string {
  const { params = {}, query } = request.example;
  const path = request.path.replace(/\{(\w+)\}|:(\w+)/g, (_match, braced: string, colon: string) =>
    encodeURIComponent(params[braced ?? colon] ?? `{${braced ?? colon}}`),
  );
  const search = query ? `?${new URLSearchParams(withKey(query, context.apiKey)).toString()}` : '';
  return `${context.origin}${path}${search}`;
}

export function exampleHeaders(request: SnippetRequest, context: SnippetContext): [string, string][] {
  const headers: [string, string][] = [];
  const bearer = bearerFor(request.auth);
  if (bearer) headers.push(['Authorization', `Bearer ${withKey(bearer, context.apiKey)}`]);
  if (request.example.body) headers.push(['Content-Type', 'application/json']);
  return headers;
}

// --- cURL -------------------------------------------------------------------------------------

/** A POSIX shell single-quoted string. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function curl(request: SnippetRequest, context: SnippetContext): string {
  const method = request.method.toUpperCase();
  const lines = [`curl${method === 'GET' ? '' : ` -X ${method}`} ${shellQuote(exampleUrl(request, context))}`];
  for (const [name, value] of exampleHeaders(request, context)) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  if (request.example.body) {
    lines.push(`  -d ${shellQuote(JSON.stringify(withKey(request.example.body, context.apiKey), null, 2))}`);
  }
  return lines.join(' \\\n');
}

// --- JavaScript -------------------------------------------------------------------------------

const jsString = (text: string) =>
  `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n').replaceAll('\r', '\\r')}'`;
const jsKey = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : jsString(key));

function jsValue(value: unknown, indent: string): string {
  if (typeof value === 'string') return jsString(value);
  if (value === null || typeof value !== 'object') return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${jsValue(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${jsKey(key)}: ${jsValue(item, inner)},`).join('\n')}\n${indent}}`;
}

function javascript(request: SnippetRequest, context: SnippetContext): string {
  const method = request.method.toUpperCase();
  const options: string[] = [];
  if (method !== 'GET') options.push(`  method: '${method}',`);
  const headers = exampleHeaders(request, context);
  if (headers.length) {
    options.push('  headers: {');
    for (const [name, value] of headers) options.push(`    ${jsKey(name)}: ${jsString(value)},`);
    options.push('  },');
  }
  if (request.example.body) {
    options.push(`  body: JSON.stringify(${jsValue(withKey(request.example.body, context.apiKey), '  ')}),`);
  }
  const url = jsString(exampleUrl(request, context));
  const call = options.length ? `fetch(${url}, {\n${options.join('\n')}\n})` : `fetch(${url})`;
  return [
    `const response = await ${call};`,
    'if (!response.ok) throw new Error(`${response.status}: ${(await response.json()).error}`);',
    request.textResponse
      ? 'const text = await response.text();\nconsole.log(text);'
      : 'const data = await response.json();\nconsole.log(JSON.stringify(data, null, 2));',
  ].join('\n');
}

// --- Lua (Roblox) -----------------------------------------------------------------------------

const LUA_KEYWORDS = new Set(
  'and break do else elseif end false for function if in local nil not or repeat return then true until while continue'.split(
    ' ',
  ),
);

const luaString = (text: string) =>
  `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n').replaceAll('\r', '\\r')}"`;
const luaKey = (key: string) => (/^[A-Za-z_]\w*$/.test(key) && !LUA_KEYWORDS.has(key) ? key : `[${luaString(key)}]`);

function luaValue(value: unknown, indent: string): string {
  if (typeof value === 'string') return luaString(value);
  if (value === null || value === undefined) return 'nil';
  if (typeof value !== 'object') return String(value);
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((item) => `${inner}${luaValue(item, inner)},`)
    : Object.entries(value)
        .filter(([, item]) => item !== null && item !== undefined)
        .map(([key, item]) => `${inner}${luaKey(key)} = ${luaValue(item, inner)},`);
  return entries.length ? `{\n${entries.join('\n')}\n${indent}}` : '{}';
}

/** The lines that use the answer: the example's own, or its first field, or how many items a list has. */
function luaPrint(request: SnippetRequest): string[] {
  if (request.textResponse) return ['print(response.Body)'];
  const { response } = request.example;
  const decode = 'local data = HttpService:JSONDecode(response.Body)';
  if (request.example.luaAnswer) return [decode, ...request.example.luaAnswer];
  if (Array.isArray(response)) return [decode, 'print(#data .. " items")'];
  const first = response && typeof response === 'object' ? Object.keys(response)[0] : undefined;
  if (!first) return [decode];
  const field =
    /^[A-Za-z_]\w*$/.test(first) && !LUA_KEYWORDS.has(first) ? `data.${first}` : `data[${luaString(first)}]`;
  return [decode, `print(${field})`];
}

function lua(request: SnippetRequest, context: SnippetContext): string {
  const fields = [
    `  Url = ${luaString(exampleUrl(request, context))},`,
    `  Method = ${luaString(request.method.toUpperCase())},`,
  ];
  const headers = exampleHeaders(request, context);
  if (headers.length) {
    fields.push('  Headers = {');
    for (const [name, value] of headers) fields.push(`    [${luaString(name)}] = ${luaString(value)},`);
    fields.push('  },');
  }
  if (request.example.body) {
    fields.push(`  Body = HttpService:JSONEncode(${luaValue(withKey(request.example.body, context.apiKey), '  ')}),`);
  }
  return [
    'local HttpService = game:GetService("HttpService")',
    '',
    'local response = HttpService:RequestAsync({',
    ...fields,
    '})',
    'if not response.Success then',
    '  error("Moonrelay answered " .. response.StatusCode .. ": " .. response.Body)',
    'end',
    ...luaPrint(request),
  ].join('\n');
}

export function renderSnippets(request: SnippetRequest, context: SnippetContext): Snippets {
  return { curl: curl(request, context), javascript: javascript(request, context), lua: lua(request, context) };
}
