import http from 'node:http';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT_BYTES, endpoints, type Endpoint, type EndpointName } from '@moonrelay/contract/endpoints';
import {
  API_KEY_PLACEHOLDER,
  EXAMPLES,
  fillPlaceholders,
  SCRIPT_ID_PLACEHOLDER,
  SCRIPT_TOKEN_PLACEHOLDER,
  TEMP_SCRIPT_ID_PLACEHOLDER,
} from '@moonrelay/contract/examples';
import { describeEachEngine } from '../../test/engines.ts';
import { nonconformance } from '../../test/openapi-conformance.ts';
import { registerUser, startTestServer, TEST_SIGN_IN, type TestServer } from '../../test/test-server.ts';

/**
 * Hostile input against every endpoint of the contract: whatever a client sends (malformed or
 * oversized JSON, wrong types, odd numbers and characters, prototype keys, odd query strings, path
 * parameters and credentials), the answer comes within a few seconds, is never a 5xx (but a 502 or
 * 503 the endpoint documents: an outside service it cannot reach, a busy sandbox), never carries a
 * stack trace, and every error is JSON with a string `error`. Where the contract's own schema refuses the
 * input, the answer must be a 4xx. The endpoints, their fields and their valid requests all come from
 * the contract (endpoints.ts and examples.ts), so a new endpoint is swept without touching this file.
 *
 * Each endpoint is called by an account of its own (so a revoked session, a new key or a deleted
 * account stays with the endpoint that caused it), with a fresh session per request where the
 * endpoint takes one. Afterwards the server must still be healthy and every account's data intact.
 */

/**
 * A hang detector, not a speed bound: every request of a group is in flight at once, with the
 * sandbox and argon2 busy, and on a loaded two-core machine a deep JSON body or a sandbox run
 * answered in 5 to 8 s. A request that never answers still fails here (how fast belongs in bench/).
 */
const ANSWER_WITHIN_MS = 20_000;
/** Nothing listens here: calls to outside services fail at once instead of reaching the internet. */
const UNREACHABLE = 'http://127.0.0.1:9';
const DEEP = 10_000;
const LONG_STRING = 1024 * 1024;

type EndpointEntry = [EndpointName, Endpoint];
const ALL = Object.entries(endpoints) as EndpointEntry[];

// ---------------------------------------------------------------------------------------------
// Reading the contract's schemas (as JSON Schema): field paths, and a plausible value for each.

interface JsonSchema {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
}

interface Field {
  /** Property names, and 0 for the first item of an array. */
  path: (string | number)[];
  /** JSON types the contract accepts there ('string', 'number', 'object', ...). */
  types: Set<string>;
  /** A valid value for each container on the path (path.slice(0, i + 1)), for bodies that lack it. */
  parents: unknown[];
}

class SchemaView {
  readonly root: JsonSchema;
  constructor(schema: z.ZodType) {
    this.root = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  }

  private resolve(node: JsonSchema): JsonSchema {
    let current = node;
    while (current.$ref) current = this.root.$defs?.[current.$ref.split('/').pop()!] ?? {};
    return current;
  }

  /** The node and every alternative or part of it (anyOf, oneOf, allOf), resolved. */
  private variants(node: JsonSchema): JsonSchema[] {
    const resolved = this.resolve(node);
    const parts = [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.allOf ?? [])];
    return [resolved, ...parts.flatMap((part) => this.variants(part))];
  }

  private typesOf(node: JsonSchema): Set<string> {
    const types = new Set<string>();
    for (const variant of this.variants(node)) {
      for (const type of [variant.type ?? []].flat()) types.add(type === 'integer' ? 'number' : type);
      if (variant.const !== undefined) types.add(typeof variant.const);
    }
    return types;
  }

  /** Every property at the top and one level down (playerData.position, data.code, results.0.output, ...). */
  fields(node: JsonSchema = this.root, prefix: (string | number)[] = [], parents: unknown[] = []): Field[] {
    const out: Field[] = [];
    for (const variant of this.variants(node)) {
      for (const [name, child] of Object.entries(variant.properties ?? {})) {
        const path = [...prefix, name];
        // A property of several alternatives (a command's data) is listed once, its insides for each.
        if (!out.some((field) => field.path.join('.') === path.join('.'))) {
          out.push({ path, types: this.typesOf(child), parents });
        }
        if (prefix.length > 0) continue;
        const items = this.variants(child).find((part) => part.items)?.items;
        const below = items
          ? this.fields(items, [...path, 0], [...parents, [this.sample(items)], this.sample(items)])
          : this.fields(child, path, [...parents, this.sample(child)]);
        out.push(...below.filter((field) => !out.some((known) => known.path.join('.') === field.path.join('.'))));
      }
    }
    return out;
  }

  /** A value of the right shape: required properties only, the first alternative of a union. */
  sample(node: JsonSchema = this.root): unknown {
    const resolved = this.resolve(node);
    if (resolved.const !== undefined) return resolved.const;
    if (resolved.enum) return resolved.enum[0];
    const alternative = resolved.oneOf?.[0] ?? resolved.anyOf?.[0];
    if (alternative) return this.sample(alternative);
    if (resolved.allOf) return Object.assign({}, ...resolved.allOf.map((part) => this.sample(part)));
    switch ([resolved.type ?? 'string'].flat()[0]) {
      case 'object':
        return Object.fromEntries(
          (resolved.required ?? []).map((name) => [name, this.sample(resolved.properties?.[name] ?? {})]),
        );
      case 'array':
        return resolved.minItems ? [this.sample(resolved.items ?? {})] : [];
      case 'number':
      case 'integer':
        return resolved.minimum ?? (resolved.exclusiveMinimum ?? 0) + 1;
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return sampleString(resolved);
    }
  }
}

function sampleString(schema: JsonSchema): string {
  const candidates = [
    schema.format === 'email' ? 'hostile@example.com' : undefined,
    'print(1)',
    'studio',
    '156',
    'https://example.com/auth/callback',
  ];
  const fits = (text: string) =>
    (!schema.pattern || new RegExp(schema.pattern).test(text)) &&
    text.length >= (schema.minLength ?? 0) &&
    text.length <= (schema.maxLength ?? Infinity);
  return (
    candidates.find((text): text is string => text !== undefined && fits(text)) ?? 'x'.repeat(schema.minLength ?? 1)
  );
}

// ---------------------------------------------------------------------------------------------
// JSON with values JSON.stringify cannot write (1e309, -0, a duplicated key...).

class RawJson {
  constructor(readonly json: string) {}
}

function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.json;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A copy of `base` (an object) with `value` at `path`; a missing container on the way is filled in
 * with a valid one (`parents`), so that only the one value is wrong.
 */
function withValue(
  base: unknown,
  path: (string | number)[],
  value: unknown,
  parents: unknown[] = [],
): Record<string, unknown> {
  const root: Record<string, unknown> = isObject(base) ? structuredClone(base) : {};
  let parent = root;
  path.slice(0, -1).forEach((key, index) => {
    const current = parent[key];
    const fits = typeof path[index + 1] === 'number' ? Array.isArray(current) && current.length > 0 : isObject(current);
    if (!fits) parent[key] = structuredClone(parents[index] ?? {});
    parent = parent[key] as Record<string, unknown>;
  });
  parent[path.at(-1)!] = value;
  return root;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Inserts raw `"key":value` members at the start of a JSON object's text. */
const prependMembers = (objectJson: string, members: string) =>
  objectJson === '{}' ? `{${members}}` : `{${members},${objectJson.slice(1)}`;

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Koa's reading of a query string (koa/lib/search-params.js). */
function parseQuery(query: string): Record<string, string | string[]> {
  const params = new URLSearchParams(query);
  const parsed: Record<string, string | string[]> = {};
  for (const key of params.keys()) {
    const values = params.getAll(key);
    Object.defineProperty(parsed, key, {
      value: values.length <= 1 ? values[0] : values,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return parsed;
}

/** @koa/router's reading of a path parameter. */
function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

const describeValue = (value: unknown): string => {
  const text =
    value instanceof RawJson ? value.json : typeof value === 'string' ? JSON.stringify(value) : toJson(value);
  return text.length > 40 ? `${text.slice(0, 30)}...(${text.length} chars)` : text;
};

// ---------------------------------------------------------------------------------------------
// The battery.

/** A valid request of the endpoint (from its documented example, else from its schemas). */
interface Baseline {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  limit: number;
}

interface Case {
  label: string;
  /** Raw (already percent-encoded) path parameters; the baseline's otherwise. */
  params?: Record<string, string>;
  /** Raw query string (without `?`); the baseline's otherwise. */
  query?: string;
  /** The body's bytes; the baseline body as JSON otherwise (for endpoints that take one). */
  body?: string | Buffer;
  /** Replaces the default headers (Content-Type: application/json when there is a body). */
  headers?: Record<string, string>;
  /** Replaces the caller's credentials; null sends none. */
  authorization?: string | null;
  /** The answer must be a 4xx (the contract refuses the input, or the group demands it). */
  refused: boolean;
}

interface Tools {
  endpoint: Endpoint;
  base: Baseline;
  body?: SchemaView;
  query?: SchemaView;
  apiKey: string;
}

/** Whether the contract refuses this body text, as the server reads it (JSON.parse, then the schema). */
function bodyRefused(endpoint: Endpoint, text: string | Buffer, limit: number): boolean {
  if (!endpoint.body) return false;
  if (Buffer.byteLength(text) > limit) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString());
  } catch {
    return true;
  }
  return !isObject(parsed) || !endpoint.body.safeParse(parsed).success;
}

const queryRefused = (endpoint: Endpoint, query: string) =>
  endpoint.query ? !endpoint.query.safeParse(parseQuery(query)).success : false;

const encodeQuery = (query: Record<string, string>) => new URLSearchParams(query).toString();

/** A body case checked against the contract. */
function bodyCase(tools: Tools, label: string, body: string | Buffer): Case {
  return { label, body, refused: bodyRefused(tools.endpoint, body, tools.base.limit) };
}

/** One case per field and value, the field set on the valid body. */
function fieldCases(tools: Tools, values: (field: Field) => unknown[]): Case[] {
  return (tools.body?.fields() ?? []).flatMap((field) =>
    values(field).map((value) =>
      bodyCase(
        tools,
        `${field.path.join('.')} = ${describeValue(value)}`,
        toJson(withValue(tools.base.body, field.path, value, field.parents)),
      ),
    ),
  );
}

const WRONG_TYPES: unknown[] = [null, true, -1, 1.5, '', 'text', ['x'], { a: 1 }];
const ODD_NUMBERS: unknown[] = [
  new RawJson('1e309'),
  new RawJson('-1e309'),
  new RawJson('-0'),
  new RawJson('1e-400'),
  new RawJson('9007199254740993'),
  new RawJson('123456789012345678901234567890'),
  'NaN',
  'Infinity',
  '1e309',
  '0x10',
];
const ODD_TEXT: unknown[] = [
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202egnp.exe\ufeff',
  "'; DROP TABLE users; --",
  '../../../etc/passwd',
  '%00%E0%A4%A',
  '<script>alert(1)</script>',
];
const PROTO = '{"__proto__":{"polluted":true,"isAdmin":true},"constructor":{"prototype":{"polluted":true}}}';

interface Group {
  title: string;
  applies(endpoint: Endpoint): boolean;
  /** 'refused': every case must answer a 4xx; 'contract': where the contract refuses it; 'answered': no 5xx. */
  verdict(endpoint: Endpoint): 'refused' | 'contract' | 'answered';
  cases(tools: Tools): Case[];
  /**
   * No value of its cases reaches SQL as sent: each is refused or ignored before the body becomes
   * a value (the body parser, the content type), or is looked up only by its SHA-256 (a credential).
   * The engine cannot change the answer, so the group runs on SQLite only.
   */
  engineFree?: true;
}

const GROUPS: Group[] = [
  {
    title: 'malformed JSON',
    engineFree: true,
    applies: (e) => Boolean(e.body),
    verdict: () => 'refused',
    cases: () =>
      [
        '{"a":',
        '{name: "x"}',
        '{"a":1}}',
        "{'a':1}",
        '{"a":1,}',
        '\u0000',
        '{"a":"\\x41"}',
        '{"a":"\\ud800\\u"}',
        'NaN',
      ].map((raw) => ({ label: describeValue(raw), body: raw, refused: true })),
  },
  {
    title: 'JSON that is not an object',
    applies: (e) => Boolean(e.body),
    verdict: () => 'contract',
    cases: (tools) => [
      ...['[]', '[{}]', '42', '-0', '"text"', 'null', 'true', '1e309'].map((raw) => ({
        label: raw,
        body: raw,
        refused: true,
      })),
      bodyCase(tools, '{}', '{}'),
    ],
  },
  {
    title: 'fields of the wrong type',
    applies: (e) => Boolean(e.body),
    verdict: () => 'contract',
    cases: (tools) => fieldCases(tools, () => WRONG_TYPES),
  },
  {
    title: 'odd numbers (1e309, -0, NaN as text)',
    applies: (e) => Boolean(e.body),
    verdict: () => 'contract',
    cases: (tools) => fieldCases(tools, (field) => (field.types.has('number') ? ODD_NUMBERS : [])),
  },
  {
    title: 'NUL, lone-surrogate and other odd characters',
    applies: (e) => Boolean(e.body),
    verdict: () => 'contract',
    cases: (tools) => {
      const json = toJson(tools.base.body);
      const invalidUtf8 = Buffer.concat([
        Buffer.from(json.slice(0, -1) + ',"odd":"'),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]);
      return [
        ...fieldCases(tools, (field) => (field.types.has('string') ? ODD_TEXT : [])),
        bodyCase(tools, 'invalid UTF-8 bytes', invalidUtf8),
      ];
    },
  },
  {
    title: 'extremely long strings',
    applies: (e) => Boolean(e.body),
    verdict: () => 'contract',
    cases: (tools) => {
      const { limit } = tools.base;
      // As long as the body limit allows, up to 1 MiB.
      const long = 'x'.repeat(Math.min(LONG_STRING, limit - 16 * 1024));
      return [
        ...fieldCases(tools, (field) => (field.types.has('string') ? [long] : [])),
        bodyCase(
          tools,
          'a body just over its limit',
          toJson(withValue(tools.base.body, ['padding'], 'x'.repeat(limit))),
        ),
        bodyCase(tools, 'a body of 3 MB', toJson(withValue(tools.base.body, ['padding'], 'x'.repeat(3 * 1024 * 1024)))),
      ];
    },
  },
  {
    title: 'deeply nested JSON',
    applies: (e) => Boolean(e.body),
    verdict: () => 'contract',
    cases: (tools) => {
      const base = toJson(tools.base.body);
      const deepest = Math.floor((tools.base.limit - base.length - 64) / 2);
      return [
        bodyCase(tools, `an array ${DEEP} levels deep`, nested(DEEP)),
        bodyCase(tools, `an object ${DEEP} levels deep`, nestedObject(DEEP)),
        bodyCase(tools, `an extra field ${DEEP} levels deep`, prependMembers(base, `"deep":${nestedObject(DEEP)}`)),
        bodyCase(tools, `an extra field ${deepest} levels deep`, prependMembers(base, `"deep":${nested(deepest)}`)),
        ...fieldCases(tools, () => [new RawJson(nested(DEEP))]),
      ];
    },
  },
  {
    title: '__proto__ and constructor keys',
    applies: (e) => Boolean(e.body),
    verdict: () => 'contract',
    cases: (tools) => {
      const base = toJson(tools.base.body);
      return [
        bodyCase(tools, '__proto__ and constructor at the top', prependMembers(base, PROTO.slice(1, -1))),
        bodyCase(tools, '__proto__: null', prependMembers(base, '"__proto__":null')),
        bodyCase(
          tools,
          'toString, valueOf and hasOwnProperty',
          prependMembers(base, '"toString":1,"valueOf":"x","hasOwnProperty":[]'),
        ),
        bodyCase(tools, 'a duplicated key', prependMembers(base, base.slice(1, -1) || '"a":1')),
        ...fieldCases(tools, () => [new RawJson(PROTO)]),
      ];
    },
  },
  {
    title: 'a valid body with the wrong content type',
    engineFree: true,
    applies: (e) => Boolean(e.body),
    verdict: () => 'refused',
    cases: (tools) => {
      const body = toJson(tools.base.body);
      const wrong: Record<string, string>[] = [
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        { 'content-type': 'multipart/form-data; boundary=x' },
        { 'content-type': 'application/xml' },
        { 'content-type': 'application/jsonp' },
        { 'content-type': ';;;' },
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        { 'content-type': 'application/json', 'content-encoding': 'deflate' },
        { 'content-type': 'application/json', 'content-encoding': 'bogus' },
        {},
      ];
      return wrong.map((headers) => ({ label: JSON.stringify(headers), body, headers, refused: true }));
    },
  },
  {
    title: 'a body it does not take',
    engineFree: true,
    applies: (e) => !e.body,
    verdict: () => 'answered',
    cases: (): Case[] => [
      { label: 'malformed JSON', body: '{"a":', refused: false },
      { label: 'a 2 MB body', body: `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`, refused: false },
      { label: `an array ${DEEP} levels deep`, body: nested(DEEP), refused: false },
      {
        label: 'a form',
        body: 'a=1&b=2',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        refused: false,
      },
      {
        label: 'gzip that is not',
        body: '{}',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        refused: false,
      },
    ],
  },
  {
    title: 'odd query strings',
    applies: () => true,
    verdict: (e) => (e.query ? 'contract' : 'answered'),
    cases: (tools) => {
      const { endpoint, base } = tools;
      const queryCase = (label: string, query: string): Case => ({
        label,
        query,
        refused: queryRefused(endpoint, query),
      });
      const rest = (name: string) =>
        encodeQuery(Object.fromEntries(Object.entries(base.query).filter(([k]) => k !== name)));
      const join = (...parts: string[]) => parts.filter(Boolean).join('&');
      const perField = (tools.query?.fields() ?? []).flatMap(({ path: [name] }) => {
        const field = String(name);
        const valid = encodeURIComponent(base.query[field] ?? '1');
        const values = [
          '',
          '-1',
          '0',
          '1.5',
          '1e309',
          '-0',
          'NaN',
          'Infinity',
          '0x10',
          '%201',
          '1%20',
          '99999999999999999999999',
          'x'.repeat(8000),
          '%00',
          '%E0%A4%A',
          '%F0%9F%98%80',
          '%ED%A0%80',
          '%',
          '%2e%2e%2f',
          '__proto__',
        ];
        return [
          ...values.map((value) =>
            queryCase(`${field}=${describeValue(value)}`, join(rest(field), `${field}=${value}`)),
          ),
          queryCase(`${field} twice`, join(rest(field), `${field}=${valid}&${field}=${valid}`)),
          queryCase(`${field}=1&${field}=2`, join(rest(field), `${field}=1&${field}=2`)),
          queryCase(`${field}[]=`, join(rest(field), `${field}[]=${valid}`)),
          queryCase(`${field}[a]=`, join(rest(field), `${field}[a]=${valid}`)),
          queryCase(`without ${field}`, rest(field)),
        ];
      });
      const junk = [
        '__proto__=1',
        '__proto__[polluted]=1',
        'constructor=x',
        'constructor[prototype][polluted]=1',
        'toString=1&valueOf=1&hasOwnProperty=1',
        '&&==&=',
        '%=%',
        'page=1&page=2',
        `x=${'y'.repeat(8000)}`,
      ];
      return [
        ...perField,
        ...junk.map((extra) => queryCase(describeValue(extra), join(encodeQuery(base.query), extra))),
      ];
    },
  },
  {
    title: 'odd path parameters',
    applies: (e) => Boolean(e.params),
    verdict: () => 'contract',
    cases: ({ endpoint, base }) => {
      const values = [
        'x'.repeat(4000),
        '..%2F..%2Fuser',
        '..%2f..%2f..%2fetc%2fpasswd',
        '..',
        '.',
        '%2e%2e',
        '..%5C..%5Cwindows',
        '%00',
        'a%00b',
        '%F0%9F%98%80',
        encodeURIComponent('ünïcödé'),
        '%ED%A0%80',
        '%E0%A4%A',
        '%',
        '%ZZ',
        encodeURIComponent("1' OR '1'='1"),
        '__proto__',
        'constructor',
        'null',
        '-1',
        '1e309',
        '%20',
        '+',
      ];
      return Object.keys(base.params).flatMap((name) =>
        values.map((value) => ({
          label: `${name} = ${describeValue(value)}`,
          params: { [name]: value },
          refused: !endpoint.params!.safeParse({ ...base.params, [name]: decodeParam(value) }).success,
        })),
      );
    },
  },
  {
    title: 'odd credentials',
    engineFree: true,
    applies: () => true,
    verdict: (e) => (['session', 'session-or-key', 'admin'].includes(e.auth) ? 'refused' : 'answered'),
    cases: ({ endpoint, apiKey }) => {
      const refused = ['session', 'session-or-key', 'admin'].includes(endpoint.auth);
      return [
        `Bearer ${'x'.repeat(8000)}`,
        `Bearer mr_${'A'.repeat(500)}`,
        `Bearer mrs_${'A'.repeat(500)}`,
        'Bearer mr_',
        'Bearer mrs_',
        `Bearer ${apiKey.toUpperCase()}`,
        `Bearer ${apiKey}x`,
        'Basic Zm9vOmJhcg==',
        'Bearer',
        'Bearer a b',
        `Bearer ${'\u00ff'.repeat(40)}`,
      ].map((authorization) => ({ label: describeValue(authorization), authorization, refused }));
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Sending: node:http, so that any bytes, headers and methods (a GET with a body) can be sent.

interface Answer {
  method: string;
  path: string;
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
}

function send(
  agent: http.Agent,
  url: URL,
  request: { method: string; path: string; headers: Record<string, string>; body?: string | Buffer },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: request.method,
      path: request.path,
      headers,
      agent,
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        resolve({
          method: request.method,
          path: request.path,
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          headers: answerHeaders,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    // Once the answer is in, a refused upload (413) may end in EPIPE or ECONNRESET: that is not the server's fault.
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(request.body);
  });
}

/** Traces of a stack: frames ("\n    at ..."), file:line:column, Node's internals. Linear, for megabyte answers. */
const STACK_TRACE = [/(?:\n|\\n)\s*at \S/, /\.(?:[cm]?js|ts):\d+:\d+/, /\bnode:internal\//, /node_modules/];

/** What is wrong with an answer, if anything. */
function problemsOf(endpoint: Endpoint, testCase: Case, answer: Answer): string[] {
  const problems: string[] = [];
  const { status } = answer;
  const documentedUnavailable = status !== 500 && endpoint.errors.includes(status);
  if (status >= 500 && !documentedUnavailable) problems.push(`answered ${status}`);
  if (testCase.refused && (status < 400 || status >= 500)) problems.push(`answered ${status} where a 4xx was due`);
  let parsed: unknown;
  let json = false;
  try {
    parsed = JSON.parse(answer.text);
    json = true;
  } catch {
    // Checked below.
  }
  if (status >= 400) {
    if (!/^application\/json/.test(answer.contentType))
      problems.push(`error answered as ${answer.contentType || 'no type'}`);
    const error = isObject(parsed) ? parsed.error : undefined;
    if (typeof error !== 'string' || error === '') problems.push('error answer without a string error');
  } else if (endpoint.responseType !== 'text/plain' && !json) {
    problems.push('success answer that is not JSON');
  }
  if (STACK_TRACE.some((pattern) => pattern.test(answer.text))) problems.push('answer holds a stack trace');
  // And as the OpenAPI document describes the operation: a documented status, a body in its schema.
  const drift = nonconformance({ ...answer, body: json ? parsed : answer.text });
  if (drift) problems.push(`differs from the OpenAPI document: ${drift}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------

describeEachEngine('hostile input to every endpoint', (engine) => {
  let server: TestServer;
  let url: URL;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

  interface Account {
    userId: string;
    token: string;
    apiKey: string;
    /** Made before the sweep and never named in a request: it must come out unchanged. */
    keeper: Record<string, unknown>;
    /** The script the endpoint's example names (SCRIPT_ID): updated, run or deleted by the sweep. */
    scratchId: string;
    tempId: string;
    tempToken: string;
  }
  let admin: Account;
  let victim: Account;
  const accounts = new Map<EndpointName, Account>();
  const everyAccount: Account[] = [];
  const deletedBy = new Set<EndpointName>();
  const swept = new Set<EndpointName>();
  let requests = 0;

  async function openAccount(): Promise<Account> {
    const { token, user } = await registerUser(server);
    const create = async (name: string) => {
      const res = await server.call('POST', '/api/scripts', {
        token,
        body: { name, description: 'Made before the sweep', code: `print(${JSON.stringify(name)})` },
      });
      expect(res.status, res.text).toBe(200);
      return res.body as Record<string, unknown>;
    };
    const keeper = await create('Keeper');
    const scratch = await create('Scratch');
    const temp = await server.call('POST', '/api/scripts/temp', { token, body: { script: 'print("temp")' } });
    expect(temp.status, temp.text).toBe(200);
    const account: Account = {
      userId: user.id,
      token,
      apiKey: user.apiKey,
      keeper,
      scratchId: scratch.id as string,
      tempId: temp.body.id,
      tempToken: new URL(temp.body.url).searchParams.get('key')!,
    };
    everyAccount.push(account);
    return account;
  }

  const accountExists = async (userId: string) =>
    Boolean(await server.app.database.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst());

  /** The endpoint's own account; a new one when a request of this endpoint deleted it. */
  async function callerOf(name: EndpointName): Promise<Account> {
    const current = accounts.get(name);
    if (current && (await accountExists(current.userId))) return current;
    if (current) deletedBy.add(name);
    const fresh = await openAccount();
    accounts.set(name, fresh);
    return fresh;
  }

  async function credentialsFor(endpoint: Endpoint, account: Account): Promise<string | undefined> {
    const { sessions } = server.app.services;
    switch (endpoint.auth) {
      case 'session':
        return `Bearer ${await sessions.create(account.userId, TEST_SIGN_IN)}`;
      case 'admin':
        return `Bearer ${await sessions.create(admin.userId, TEST_SIGN_IN)}`;
      case 'session-or-key':
        return `Bearer ${account.apiKey}`;
      default:
        return undefined;
    }
  }

  function toolsFor(name: EndpointName, endpoint: Endpoint, account: Account): Tools {
    const example = EXAMPLES[name];
    const fill = <T>(value: T): T =>
      JSON.parse(
        fillPlaceholders(JSON.stringify(value), {
          [API_KEY_PLACEHOLDER]: account.apiKey,
          [SCRIPT_ID_PLACEHOLDER]: account.scratchId,
          [TEMP_SCRIPT_ID_PLACEHOLDER]: account.tempId,
          [SCRIPT_TOKEN_PLACEHOLDER]: account.tempToken,
        }),
      ) as T;
    const body = endpoint.body ? new SchemaView(endpoint.body) : undefined;
    const query = endpoint.query ? new SchemaView(endpoint.query) : undefined;
    const paramNames = [...endpoint.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    const base: Baseline = {
      // Without an example, a path id names a real user (the one the admin routes act on).
      params: fill(example?.params ?? Object.fromEntries(paramNames.map((param) => [param, victim.userId]))),
      query: fill(
        example?.query ??
          (Object.fromEntries(
            Object.entries((query?.sample() as Record<string, unknown>) ?? {}).map(([k, v]) => [k, String(v)]),
          ) as Record<string, string>),
      ),
      body: endpoint.body ? fill(example?.body ?? body!.sample()) : undefined,
      limit: endpoint.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    };
    return { endpoint, base, body, query, apiKey: account.apiKey };
  }

  /** The requests of one endpoint run one after another (its account may be deleted by one of them). */
  const queues = new Map<EndpointName, Promise<unknown>>();
  function oneAtATime<T>(name: EndpointName, work: () => Promise<T>): Promise<T> {
    const run = (queues.get(name) ?? Promise.resolve()).then(work);
    queues.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  }

  /** Sends every case of the group; answers each problem found, named by its case. */
  function sweep(name: EndpointName, endpoint: Endpoint, group: Group): Promise<string[]> {
    return oneAtATime(name, async () => {
      swept.add(name);
      const failures: string[] = [];
      let account = await callerOf(name);
      let tools = toolsFor(name, endpoint, account);
      let cases = group.cases(tools);
      for (let index = 0; index < cases.length; index += 1) {
        const caller = await callerOf(name);
        if (caller !== account) {
          // A request deleted the account: the rest of the cases are made again for the new one.
          account = caller;
          tools = toolsFor(name, endpoint, account);
          cases = group.cases(tools);
        }
        const { base } = tools;
        const testCase = cases[index]!;
        const path = endpoint.path.replace(
          /:(\w+)/g,
          (_, param: string) => testCase.params?.[param] ?? encodeURIComponent(base.params[param]!),
        );
        const query = testCase.query ?? encodeQuery(base.query);
        const body = testCase.body ?? (endpoint.body ? toJson(base.body) : undefined);
        const headers: Record<string, string> = {
          ...(testCase.headers ?? (body !== undefined ? { 'content-type': 'application/json' } : {})),
        };
        const authorization =
          testCase.authorization === undefined ? await credentialsFor(endpoint, account) : testCase.authorization;
        if (authorization) headers.authorization = authorization;
        requests += 1;
        try {
          const answer = await send(agent, url, {
            method: endpoint.method.toUpperCase(),
            path: query ? `${path}?${query}` : path,
            headers,
            body,
          });
          for (const problem of problemsOf(endpoint, testCase, answer)) {
            failures.push(`${testCase.label}: ${problem} (${answer.status} ${answer.text.slice(0, 200)})`);
          }
        } catch (error) {
          failures.push(`${testCase.label}: ${(error as Error).message}`);
        }
      }
      return failures;
    });
  }

  beforeAll(async () => {
    server = await startTestServer(engine, {
      RATE_LIMIT_GAME_PING_PER_MINUTE: '100000',
      LOGIN_MAX_FAILURES: '100000',
      SCRIPTBLOX_API_URL: UNREACHABLE,
      SCRIPTBLOX_SITE_URL: UNREACHABLE,
      SCRIPTBLOX_TIMEOUT_MS: '2000',
      SCRIPTBLOX_MIN_INTERVAL_MS: '0',
      ROBLOX_USERS_API_URL: UNREACHABLE,
      ROBLOX_THUMBNAILS_API_URL: UNREACHABLE,
      ROBLOX_OPEN_CLOUD_URL: UNREACHABLE,
      OIDC_ISSUER_URL: UNREACHABLE,
      OIDC_CLIENT_ID: 'moonrelay-test',
      OIDC_CLIENT_SECRET: 'moonrelay-test-secret',
    });
    url = new URL(server.url);
    // The first account is the admin.
    admin = await openAccount();
    victim = await openAccount();
  });
  afterAll(async () => {
    agent.destroy();
    await server?.close();
  });

  // Group by group, so the requests in flight at once are to different endpoints.
  describe.concurrent('the sweep', () => {
    for (const group of GROUPS.filter((each) => engine.name === 'SQLite' || !each.engineFree)) {
      for (const [name, endpoint] of ALL.filter(([, e]) => group.applies(e))) {
        const verdict = group.verdict(endpoint);
        const outcome = {
          refused: 'with a 4xx and an error',
          contract: 'with a 4xx and an error wherever the contract refuses it',
          answered: 'without a server error',
        }[verdict];
        it(
          `${endpoint.method.toUpperCase()} ${endpoint.path} answers ${group.title} ${outcome}`,
          { timeout: 120_000 },
          async () => {
            expect(await sweep(name, endpoint, group)).toEqual([]);
          },
        );
      }
    }
  });

  describe('after the sweep', () => {
    it('swept every endpoint of the contract', () => {
      expect([...swept].sort()).toEqual(ALL.map(([name]) => name).sort());
      expect(requests).toBeGreaterThan(1000);
    });

    it('GET /api/health still answers that the server is ok', async () => {
      const res = await server.call('GET', '/api/health');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('ok');
    });

    it("keeps every account's script made before the sweep unchanged", async () => {
      for (const account of everyAccount) {
        if (!(await accountExists(account.userId))) continue;
        const token = await server.app.services.sessions.create(account.userId, TEST_SIGN_IN);
        const res = await server.call('GET', '/api/scripts', { token });
        expect(res.status).toBe(200);
        expect(res.body.find((script: { id: string }) => script.id === account.keeper.id)).toEqual(account.keeper);
      }
    });

    it('lets only DELETE /api/user/account delete its caller', async () => {
      expect([...deletedBy].filter((name) => endpoints[name] !== endpoints.deleteAccount)).toEqual([]);
      for (const account of [admin, victim]) expect(await accountExists(account.userId)).toBe(true);
    });

    it('leaves Object.prototype unpolluted', () => {
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(Object.prototype).not.toHaveProperty('isAdmin');
    });
  });
});
