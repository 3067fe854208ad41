import { z } from 'zod';
import {
  APP_NAME,
  APP_VERSION,
  RATE_LIMIT_EXECUTION_PER_MINUTE,
  RATE_LIMIT_GAME_PING_PER_MINUTE,
  RATE_LIMIT_GENERAL_PER_MINUTE,
} from '@moonrelay/contract/constants';
import { ErrorResponseSchema } from '@moonrelay/contract/common';
import { endpoints, type Endpoint, type RateLimitPolicy } from '@moonrelay/contract/endpoints';

/**
 * The OpenAPI 3.0 document, generated from the contract's endpoint list and zod schemas (schemas
 * with a `meta({ id })` become shared components). The API docs page is built from this document.
 */

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: the error names the first problem, issues lists them all',
  401: 'Missing or invalid session token or API key, or an API key that expired or was revoked',
  403: 'Not allowed for this kind of caller, or an API key without the scope this call needs (or used from an address its allow list leaves out)',
  404: 'Not found, or not yours',
  409: 'Conflicts with an existing record',
  413: 'Request body too large',
  422: 'The Idempotency-Key was already used with a different request',
  429: 'Rate limit exceeded; see Retry-After',
  502: 'An outside service (Roblox) could not be reached',
  503: 'Busy: the sandbox or the syntax checker is at capacity; try again shortly',
};

/** The header of the calls that enqueue work (docs/operations.md, "Idempotency-Key"). */
const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any 1 to 200 printable characters, new for each action. A retry with the same key within 24 hours answers the first answer and does nothing again; while the first is still running it answers 409, and with a different body 422.',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
};

const SECURITY: Record<Endpoint['auth'], object[]> = {
  none: [],
  session: [{ sessionToken: [] }],
  'session-or-key': [{ sessionToken: [] }, { apiKey: [] }],
  // The key travels in the body or the query string (documented per operation), not a header.
  'game-key': [],
  admin: [{ sessionToken: [] }],
};

type JsonSchema = Record<string, unknown>;

/**
 * Every schema the contract named with `meta({ id })`, including those only nested inside others
 * (PlayerData inside GameStatus, say): each becomes one shared component. Zod keeps them in its
 * global registry by id.
 */
function namedSchemas(): z.ZodType[] {
  const registry = z.globalRegistry as unknown as { _idmap: Map<string, z.ZodType> };
  return [...registry._idmap.values()];
}

/**
 * Schemas with a `meta({ id })` become shared components: answers in their output shape, request
 * bodies in their input shape (what a caller sends, before the contract trims or transforms it).
 */
function collectSchemas(): { toRef: (schema: z.ZodType) => JsonSchema; components: JsonSchema } {
  const all = Object.values(endpoints as Record<string, Endpoint>);
  const components: JsonSchema = {};
  const ids = new Map<z.ZodType, string>();
  const bodies = new Set(all.map((e) => (e.body ? z.globalRegistry.get(e.body)?.id : undefined)));
  const generate = (schemas: (z.ZodType | undefined)[], io: 'input' | 'output') => {
    const registry = z.registry<{ id: string }>();
    for (const schema of schemas) {
      const id = schema ? z.globalRegistry.get(schema)?.id : undefined;
      if (schema && id && !registry.has(schema)) {
        registry.add(schema, { id });
        ids.set(schema, id);
      }
    }
    const { schemas: generated } = z.toJSONSchema(registry, {
      target: 'openapi-3.0',
      io,
      uri: (id) => `#/components/schemas/${id}`,
      unrepresentable: 'any',
    });
    for (const [id, schema] of Object.entries(generated)) {
      // A schema used both ways (PlayerData) keeps its answer shape; request-only ones get their input shape.
      if (io === 'input' && components[id] && !bodies.has(id)) continue;
      const { $schema: _schema, id: _id, ...rest } = schema as JsonSchema;
      components[id] = rest;
    }
  };
  generate(
    [...all.filter((e) => !e.responseType).map((e) => e.response), ErrorResponseSchema, ...namedSchemas()],
    'output',
  );
  generate([...all.map((e) => e.body), ...namedSchemas()], 'input');
  const toRef = (schema: z.ZodType): JsonSchema => {
    const id = ids.get(schema);
    if (!id) throw new Error('Every request and response schema of the contract needs meta({ id })');
    return { $ref: `#/components/schemas/${id}` };
  };
  return { toRef, components };
}

/** Query string parameters, from the endpoint's query schema (an object of simple fields). */
function queryParameters(endpoint: Endpoint): object[] {
  if (!endpoint.query) return [];
  const json = z.toJSONSchema(endpoint.query, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema,
  }));
}

/** Requests per minute of each budget, as this server enforces them (the documented defaults unless configured). */
export type RateLimitsPerMinute = Record<Exclude<RateLimitPolicy, 'none'>, number>;

const DOCUMENTED_RATE_LIMITS: RateLimitsPerMinute = {
  general: RATE_LIMIT_GENERAL_PER_MINUTE,
  execution: RATE_LIMIT_EXECUTION_PER_MINUTE,
  game: RATE_LIMIT_GAME_PING_PER_MINUTE,
};

function operation(
  name: string,
  endpoint: Endpoint,
  toRef: (s: z.ZodType) => JsonSchema,
  perMinute: RateLimitsPerMinute,
) {
  const errorRef = { $ref: '#/components/schemas/Error' };
  const success = endpoint.responseType
    ? { [endpoint.responseType]: { schema: { type: 'string' } } }
    : { 'application/json': { schema: toRef(endpoint.response) } };
  const responses: Record<string, unknown> = { 200: { description: 'Success', content: success } };
  const limited = endpoint.rateLimit !== 'none';
  // A scoped key without the scope a call needs is refused with 403 (docs/decisions/029).
  const errors = endpoint.keyScopes && !endpoint.errors.includes(403) ? [...endpoint.errors, 403] : endpoint.errors;
  for (const status of limited ? [...errors, 429] : errors) {
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { 'application/json': { schema: errorRef } },
    };
  }
  const pathParams = [
    ...[...endpoint.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...queryParameters(endpoint),
    ...(endpoint.idempotent ? [IDEMPOTENCY_KEY_HEADER] : []),
  ];
  return {
    // The contract's endpoint name: the API docs page finds the endpoint's examples by it.
    operationId: name,
    summary: endpoint.summary,
    tags: [endpoint.tag],
    security: SECURITY[endpoint.auth],
    'x-rate-limit': endpoint.rateLimit,
    ...(limited ? { 'x-rate-limit-per-minute': perMinute[endpoint.rateLimit as keyof RateLimitsPerMinute] } : {}),
    // Who may call it, in the contract's words (game-key: the API key travels in the body or query).
    'x-auth': endpoint.auth,
    // What a scoped API key needs to make this call: any one of these scopes ('any': any key).
    ...(endpoint.keyScopes ? { 'x-key-scopes': endpoint.keyScopes } : {}),
    // The game client's way besides the header: the API key as `key` in the JSON body.
    ...(endpoint.keyInBody ? { 'x-key-in-body': true } : {}),
    ...(pathParams.length ? { parameters: pathParams } : {}),
    ...(endpoint.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toRef(endpoint.body) } } } }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(perMinute: RateLimitsPerMinute = DOCUMENTED_RATE_LIMITS) {
  const { toRef, components } = collectSchemas();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, endpoint] of Object.entries(endpoints as Record<string, Endpoint>)) {
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][endpoint.method] = operation(name, endpoint, toRef, perMinute);
  }
  return {
    openapi: '3.0.3',
    info: {
      title: `${APP_NAME} API`,
      version: APP_VERSION.replace(/^v/, ''),
      description:
        'Errors answer `{ "error": "..." }` with a 4xx status. Every call is rate limited per session, API key ' +
        'or IP (RateLimit-* headers; 429 with Retry-After when exceeded).',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        sessionToken: { type: 'http', scheme: 'bearer', description: 'The token from login or register' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'Your API key (mr_...), as the game client sends it' },
      },
      schemas: components,
    },
    paths,
  };
}
