import { isTeamPermission, TEAM_HEADER } from '@moonrelay/contract/teams';
import { z } from 'zod';
import {
  APP_NAME,
  APP_VERSION,
  RATE_LIMIT_EXECUTION_PER_MINUTE,
  RATE_LIMIT_GAME_PING_PER_MINUTE,
  RATE_LIMIT_GENERAL_PER_MINUTE,
} from '@moonrelay/contract/constants';
import { ErrorResponseSchema } from '@moonrelay/contract/common';
import { endpoints, type Endpoint, type EndpointName, type RateLimitPolicy } from '@moonrelay/contract/endpoints';
import { EXAMPLES, examplesOf, type EndpointExample } from '@moonrelay/contract/examples';
import { WEBHOOK_HEADERS, type WebhookDelivery } from '@moonrelay/contract/notifications';

/**
 * The OpenAPI 3.1 document, generated from the contract's endpoint list and zod schemas (schemas
 * with a `meta({ id })` become shared components). The API docs page is built from this document.
 * 3.1 because its schemas are JSON Schema 2020-12, which zod writes natively: a nullable field is
 * `type: [..., "null"]` or an `anyOf` with `{ type: "null" }`, valid under any strict reading
 * (3.0's `nullable` needs a `type` beside it that a `$ref` or a union cannot have).
 */

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: the error names the first problem, issues lists them all',
  401: 'Missing or invalid session token or API key, or an API key that expired or was revoked',
  403: 'Not allowed for this kind of caller, or an API key without the scope this call needs (or used from an address its allow list leaves out)',
  404: 'Not found, or not yours',
  409: 'Conflicts with an existing record',
  413: 'Request body too large',
  422: 'Cannot be processed: the Idempotency-Key was already used with a different request, or the code is beyond what the Luau parser takes',
  429: 'Rate limit exceeded; see Retry-After',
  415: 'The body is not JSON (send Content-Type: application/json)',
  502: 'An outside service (Roblox) could not be reached',
  503: 'Briefly unavailable (the database or Redis away, the sandbox or the syntax checker at capacity); try again after Retry-After',
};

/** Seconds to wait before trying again: always on a 429 and on a 503 of a budgeted call (the health checks' 503 has none). */
const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
};

/**
 * The answers every operation can give besides the ones its definition lists, from what the
 * server's shared steps do with its definition: validation (400), authentication (401), a session
 * route called with a key or an admin route by a member (403), the body reader (413, 415), the rate
 * limit (429) and a dependency away (503). Derived, not listed by hand, so a new route is documented
 * as the server treats it.
 */
function sharedErrors(endpoint: Endpoint): number[] {
  const errors: number[] = [];
  if (endpoint.params || endpoint.query || endpoint.body) errors.push(400);
  if (endpoint.auth !== 'none') errors.push(401);
  // A key on a session route, a member on an admin route, or a scoped key without the call's scope
  // or from outside its allowed addresses (docs/decisions/029-scoped-api-keys.md).
  if (endpoint.auth === 'session' || endpoint.auth === 'admin' || endpoint.keyScopes) errors.push(403);
  if (endpoint.idempotent) errors.push(409, 422);
  if (endpoint.body) errors.push(413, 415);
  if (endpoint.rateLimit !== 'none') errors.push(429);
  // Anything that reads a session, a key or a budget reads the database (or Redis).
  if (endpoint.auth !== 'none' || endpoint.rateLimit !== 'none') errors.push(503);
  return errors;
}

/** The header of the calls that enqueue work (docs/operations.md, "Idempotency-Key"). */
const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any 1 to 200 printable characters, new for each action. A retry with the same key within 24 hours answers the first answer and does nothing again; while the first is still running it answers 409, and with a different body 422.',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
};

/** The team a call acts on (docs/decisions/049), on every operation that acts on a team's data. */
const TEAM_HEADER_PARAMETER = {
  name: TEAM_HEADER,
  in: 'header',
  required: false,
  description:
    "The id of a team you belong to (GET /api/teams lists them): the call acts on that team's data with your permissions there. Leave it out to act on your own account. A key acts on the team it was made in.",
  schema: { type: 'string', maxLength: 100 },
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
      target: 'draft-2020-12',
      io,
      uri: (id) => `#/components/schemas/${id}`,
      unrepresentable: 'any',
      override: openObjects,
    });
    for (const [id, schema] of Object.entries(generated)) {
      // A schema used both ways (PlayerData) keeps its answer shape; request-only ones get their input shape.
      if (io === 'input' && components[id] && !bodies.has(id)) continue;
      // A component is named by its key: an `$id` inside it would make its own references relative to it.
      const { $schema: _schema, $id: _$id, id: _id, ...rest } = schema as JsonSchema;
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

/**
 * zod writes `additionalProperties: false` for every object it outputs, but the server strips
 * unknown fields (only `.strict()` objects refuse them): a request with an extra field is accepted,
 * and an answer may gain fields in a later version. The document says so; strict objects stay strict.
 */
function openObjects(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const def = (ctx.zodSchema as { _zod: { def: { type: string; catchall?: { _zod: { def: { type: string } } } } } })
    ._zod.def;
  const strict = def.catchall?._zod.def.type === 'never';
  if (def.type === 'object' && !strict && ctx.jsonSchema.additionalProperties === false) {
    delete ctx.jsonSchema.additionalProperties;
  }
}

/** Path or query parameters, from the endpoint's schema for them (an object of simple fields). */
function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): object[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required?.includes(name) ?? false),
    schema: property,
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
  const statuses = [...new Set([...endpoint.errors, ...sharedErrors(endpoint)])].sort((a, b) => a - b);
  for (const status of statuses) {
    if (status === 503 && endpoint.reportsState) {
      responses[status] = {
        description: 'Not ready: the body says which dependency does not answer',
        content: { 'application/json': { schema: toRef(endpoint.response) } },
      };
      continue;
    }
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      ...((status === 429 || status === 503) && limited ? { headers: RETRY_AFTER_HEADER } : {}),
      content: { 'application/json': { schema: errorRef } },
    };
  }
  const named = new Set([...endpoint.path.matchAll(/:(\w+)/g)].map((m) => m[1]!));
  const fromSchema = parametersOf(endpoint.params, 'path') as { name: string }[];
  const pathParams = [
    // Each `:name` of the path, with its schema (a pattern, a number) where the endpoint gives one.
    ...[...named].map(
      (name) =>
        fromSchema.find((param) => param.name === name) ?? {
          name,
          in: 'path',
          required: true,
          schema: { type: 'string' },
        },
    ),
    ...parametersOf(endpoint.query, 'query'),
    ...(endpoint.idempotent ? [IDEMPOTENCY_KEY_HEADER] : []),
    // A team named in the path needs no header; the game's own calls carry their key, not a team.
    ...(isTeamPermission(endpoint.permission) && !endpoint.path.includes(':teamId') && endpoint.auth !== 'game-key'
      ? [TEAM_HEADER_PARAMETER]
      : []),
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
    // What the caller must hold on the team the request acts on (a team permission), or which
    // caller it serves ('own-account', 'member', 'signed-in', 'anyone', 'instance-admin').
    'x-moonrelay-permission': endpoint.permission,
    ...(pathParams.length ? { parameters: pathParams } : {}),
    ...(endpoint.body
      ? {
          requestBody: {
            // A body whose every field is optional may be left out: the server reads none as {}.
            required: !endpoint.body.safeParse({}).success,
            content: { 'application/json': { schema: toRef(endpoint.body) } },
          },
        }
      : {}),
    responses,
  };
}

type Operation = ReturnType<typeof operation>;
type MediaTypes = Record<string, Record<string, unknown>>;

/** A title as an examples map key: "Code in your game" -> "code-in-your-game". */
const exampleKey = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * The API docs page's examples (contract/src/examples.ts, each run against a real server by the
 * tests) in the document too, where client generators and API tools show them: one `example`, or
 * an `examples` map when the endpoint is called in several ways.
 */
function withExamples(op: Operation, example: EndpointExample | undefined): Operation {
  if (!example) return op;
  const ways = examplesOf(example);
  const examplesOfValue = (pick: (way: EndpointExample) => unknown) => {
    const shown = ways.filter((way) => pick(way) !== undefined);
    if (shown.length === 0) return {};
    if (shown.length === 1) return { example: pick(shown[0]!) };
    return {
      examples: Object.fromEntries(
        shown.map((way, index) => {
          const title = way.title ?? `Example ${index + 1}`;
          return [exampleKey(title), { summary: title, value: pick(way) }];
        }),
      ),
    };
  };
  const addTo = (content: MediaTypes | undefined, pick: (way: EndpointExample) => unknown) => {
    for (const media of Object.values(content ?? {})) Object.assign(media, examplesOfValue(pick));
  };
  const responses = op.responses as Record<string, { content?: MediaTypes }>;
  addTo(responses['200']?.content, (way) => way.response);
  for (const status of new Set(ways.map((way) => way.error.status))) {
    addTo(responses[status]?.content, (way) => (way.error.status === status ? way.error.body : undefined));
  }
  if (op.requestBody) addTo(op.requestBody.content as MediaTypes, (way) => way.body);
  for (const parameter of (op.parameters ?? []) as {
    name: string;
    in: string;
    schema?: JsonSchema;
    example?: unknown;
  }[]) {
    const given =
      parameter.in === 'path'
        ? example.params?.[parameter.name]
        : parameter.in === 'query'
          ? example.query?.[parameter.name]
          : undefined;
    if (given === undefined) continue;
    // The query string carries text; the document's schema says what it means (a number, say).
    const numeric = parameter.schema?.type === 'integer' || parameter.schema?.type === 'number';
    parameter.example = numeric && Number.isFinite(Number(given)) ? Number(given) : given;
  }
  return op;
}

/**
 * Only the components the operations reach (directly or through other components): the contract
 * names schemas that no route answers (a socket event's parts), which would be dead weight here.
 */
function reachable(paths: unknown, components: JsonSchema): JsonSchema {
  const kept: JsonSchema = {};
  const visit = (value: unknown) => {
    for (const [, id] of JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (id && !(id in kept) && id in components) {
        kept[id] = components[id];
        visit(components[id]);
      }
    }
  };
  visit(paths);
  return Object.fromEntries(
    Object.keys(components)
      .filter((id) => id in kept)
      .map((id) => [id, components[id]]),
  );
}

const EXAMPLE_DELIVERY: WebhookDelivery = {
  id: '5f0c8a3e-2b7d-4c19-9e61-3a8d0f4b7c25',
  deliveryId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  type: 'run.failed',
  occurredAt: '2026-11-29T10:15:02.481Z',
  title: 'Run of Greeter failed',
  description: 'The run failed after 12 ms on game (studio).',
  url: 'https://moonrelay.example.com/runs?run=9b1f6c2d-7e4a-4f3b-8c5d-1a2b3c4d5e6f',
  data: {
    runId: '9b1f6c2d-7e4a-4f3b-8c5d-1a2b3c4d5e6f',
    scriptId: 'b6f1a3c2-8d4e-4f5a-9b0c-1d2e3f4a5b6c',
    target: 'game',
    serverId: 'studio',
    startedBy: 'user',
  },
};

/**
 * What Moonrelay sends to a generic webhook destination (Settings > Notifications), an OpenAPI 3.1
 * `webhooks` entry: the receiver's side, with the signature header, the body, and how answers are
 * taken. docs/webhooks.md says how to verify it, with examples the tests run on a real delivery.
 */
function notificationWebhook() {
  const header = (name: string, required: boolean, description: string, schema: JsonSchema) => ({
    name,
    in: 'header',
    required,
    description,
    schema,
  });
  return {
    post: {
      operationId: 'notificationWebhook',
      summary: 'A notification, delivered to your webhook',
      description:
        'Sent to a generic webhook destination for each event it chose (and for Send test). Verify ' +
        '`Moonrelay-Signature` before trusting the body: `v1` is the hex HMAC-SHA256, keyed with the ' +
        'destination’s secret, of `t`, a dot and the raw body bytes; refuse a `t` more than 300 s from your ' +
        'clock and a signature you accepted before (a replay). Delivery is at least once: drop an event ' +
        'whose `id` you already handled. Guide and verification examples: docs/webhooks.md.',
      tags: ['Notifications'],
      security: [],
      parameters: [
        header(
          WEBHOOK_HEADERS.signature,
          true,
          '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, signed afresh for each attempt',
          { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
        ),
        header(WEBHOOK_HEADERS.event, true, 'The event type, as the body’s `type`', { type: 'string' }),
        header(WEBHOOK_HEADERS.eventId, true, 'The event id, as the body’s `id` (the same on a retry)', {
          type: 'string',
        }),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/WebhookDelivery' }, example: EXAMPLE_DELIVERY },
        },
      },
      responses: {
        '200': { description: 'Delivered (any 2xx within 10 s counts; the first 500 bytes are kept in the log)' },
        '400': {
          description: 'Refused for good (as any 4xx other than 404, 408, 410 and 429): the event is not sent again',
        },
        '404': { description: 'The webhook is gone: the destination is paused, its owner told why' },
        '410': { description: 'The webhook is gone: the destination is paused, its owner told why' },
        '429': { description: 'Sent again after Retry-After, not counted as a failure' },
        '503': {
          description:
            'Sent again with backoff (as any 5xx, a 408, a timeout or a dropped connection), for up to 24 hours',
        },
      },
    },
  };
}

export function buildOpenApiDocument(perMinute: RateLimitsPerMinute = DOCUMENTED_RATE_LIMITS) {
  const { toRef, components: allComponents } = collectSchemas();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, endpoint] of Object.entries(endpoints as Record<string, Endpoint>)) {
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][endpoint.method] = withExamples(
      operation(name, endpoint, toRef, perMinute),
      EXAMPLES[name as EndpointName],
    );
  }
  const webhooks = { notification: notificationWebhook() };
  const components = reachable({ paths, webhooks }, { ...allComponents, Error: allComponents.Error });
  return {
    openapi: '3.1.0',
    info: {
      title: `${APP_NAME} API`,
      summary: 'Keep Roblox Luau scripts and run them in your own game.',
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
    webhooks,
  };
}
