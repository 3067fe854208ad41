import {
  API_DOCS_TABS,
  listDocsOperations,
  snippetRequest,
  type ApiDocsTabId,
  type DocsOperation,
  type JsonSchema,
  type OpenApiDocument,
} from '@moonrelay/contract/api-docs';
import type { EndpointAuth } from '@moonrelay/contract/endpoints';
import type { SnippetRequest } from '@moonrelay/contract/example-snippets';
import { EXAMPLES, examplesOf, TEAM_ID_PLACEHOLDER, type EndpointExample } from '@moonrelay/contract/examples';
import { TEAM_HEADER } from '@moonrelay/contract/teams';

/**
 * What the API docs page shows, read from GET /api/openapi.json (paths, auth, rate limits, schemas,
 * error answers) and joined with the example data kept beside the contract, by endpoint name.
 */

export interface Field {
  name: string;
  type: string;
  required: boolean;
  /** Limits and defaults, in words. */
  notes: string[];
  description?: string;
}

/** One way of calling an endpoint: its example, and how its caller proves itself. */
export interface DocsExample {
  /** Set when the endpoint has several ways. */
  title?: string;
  auth: EndpointAuth;
  headers: { name: string; value: string }[];
  example: EndpointExample;
  snippet: SnippetRequest;
}

export interface DocsEndpoint {
  name: string;
  method: string;
  path: string;
  summary: string;
  auth: EndpointAuth;
  /** Also takes the API key as `key` in the body (the game client's way). */
  keyInBody: boolean;
  /** perMinute is null for calls that are never rate-limited. */
  rateLimit: { policy: string; perMinute: number | null };
  pathParams: Field[];
  queryParams: Field[];
  bodyFields: Field[];
  errors: { status: string; description: string }[];
  textResponse: boolean;
  /** The endpoint's example first, then its other ways of calling it. */
  examples: DocsExample[];
}

export interface DocsTab {
  id: ApiDocsTabId;
  label: string;
  endpoints: DocsEndpoint[];
}

const refName = (ref: string) => ref.split('/').pop() ?? ref;

function resolve(schema: JsonSchema, doc: OpenApiDocument): JsonSchema {
  if (typeof schema.$ref === 'string') return resolve(doc.components.schemas[refName(schema.$ref)] ?? {}, doc);
  const allOf = schema.allOf as JsonSchema[] | undefined;
  if (allOf?.length === 1) return resolve({ ...schema, allOf: undefined, ...allOf[0] }, doc);
  return schema;
}

/** A short type name: string, number, "game" | "sandbox", PlayerData, Result[], ... */
export function typeLabel(schema: JsonSchema, doc: OpenApiDocument): string {
  // OpenAPI 3.1 (JSON Schema): `type: ["string", "null"]`; 3.0's `nullable: true` is read too.
  if (Array.isArray(schema.type)) {
    const types = schema.type as string[];
    const label = types
      .filter((type) => type !== 'null')
      .map((type) => typeLabel({ ...schema, type }, doc))
      .join(' | ');
    return types.includes('null') ? `${label} | null` : label;
  }
  const nullable = schema.nullable === true ? ' | null' : '';
  if (typeof schema.$ref === 'string') return refName(schema.$ref) + nullable;
  const allOf = schema.allOf as JsonSchema[] | undefined;
  if (allOf?.length === 1) return typeLabel(allOf[0]!, doc) + nullable;
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ') + nullable;
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return [...new Set(variants.map((variant) => typeLabel(variant, doc)))].join(' | ') + nullable;
  if (schema.type === 'array') return `${typeLabel((schema.items as JsonSchema) ?? {}, doc)}[]${nullable}`;
  if (schema.type === 'string' && typeof schema.format === 'string') return `string (${schema.format})${nullable}`;
  return String(schema.type ?? 'any') + nullable;
}

function notesOf(schema: JsonSchema): string[] {
  const notes: string[] = [];
  const { minLength, maxLength, minimum, maximum, maxItems } = schema as Record<string, number | undefined>;
  if (minLength !== undefined && maxLength !== undefined) notes.push(`${minLength}–${maxLength} characters`);
  else if (maxLength !== undefined) notes.push(`at most ${maxLength} characters`);
  else if (minLength !== undefined && minLength > 1) notes.push(`at least ${minLength} characters`);
  if (minimum !== undefined && maximum !== undefined) notes.push(`${minimum} to ${maximum}`);
  else if (maximum !== undefined) notes.push(`at most ${maximum}`);
  if (maxItems !== undefined) notes.push(`at most ${maxItems} items`);
  if (typeof schema.pattern === 'string') notes.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

/** The top-level fields of an object schema; the variants of a union are merged (a field required by all is required). */
export function fieldsOf(schema: JsonSchema | undefined, doc: OpenApiDocument): Field[] {
  if (!schema) return [];
  const resolved = resolve(schema, doc);
  const variants = ((resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined)?.map((v) => resolve(v, doc));
  const objects = variants ?? [resolved];
  const byName = new Map<string, JsonSchema[]>();
  for (const object of objects) {
    for (const [name, property] of Object.entries((object.properties as Record<string, JsonSchema>) ?? {})) {
      byName.set(name, [...(byName.get(name) ?? []), property]);
    }
  }
  return [...byName].map(([name, schemas]) => {
    const enums = schemas.every((s) => Array.isArray(s.enum)) ? schemas.flatMap((s) => s.enum as unknown[]) : null;
    const types = [...new Set(schemas.map((s) => typeLabel(s, doc)))];
    const first = schemas[0]!;
    return {
      name,
      type: enums
        ? enums.map((value) => JSON.stringify(value)).join(' | ')
        : types.length > 1
          ? 'depends on type'
          : types[0]!,
      required: objects.every((object) => ((object.required as string[]) ?? []).includes(name)),
      notes: schemas.length === 1 ? notesOf(first) : [],
      ...(typeof first.description === 'string' ? { description: first.description } : {}),
    };
  });
}

const parameterFields = (op: DocsOperation, doc: OpenApiDocument, where: 'path' | 'query'): Field[] =>
  (op.operation.parameters ?? [])
    .filter((parameter) => parameter.in === where)
    .map((parameter) => ({
      name: parameter.name,
      type: typeLabel(parameter.schema, doc),
      required: parameter.required,
      notes: notesOf(parameter.schema),
      ...(typeof parameter.schema.description === 'string' ? { description: parameter.schema.description } : {}),
    }));

const CREDENTIAL: Record<EndpointAuth, string | null> = {
  none: null,
  session: 'Bearer <session token from login>',
  admin: 'Bearer <session token from login>',
  'session-or-key': 'Bearer <your API key>',
  'game-key': null,
};

/** The header naming the team a call acts on (docs/decisions/049), optional: without it, the caller's own account. */
const TEAM_HEADER_ROW = { name: TEAM_HEADER, value: `${TEAM_ID_PLACEHOLDER} (optional: without it, your own account)` };

/**
 * Whether a way of calling shows the team header: on an operation the document says takes it, called
 * with a session. A key needs none (it acts on the team it was made in), so a key's way leaves it off.
 */
const showsTeamHeader = (op: DocsOperation, auth: EndpointAuth) =>
  auth === 'session' &&
  (op.operation.parameters ?? []).some((parameter) => parameter.in === 'header' && parameter.name === TEAM_HEADER);

function exampleView(op: DocsOperation, example: EndpointExample, hasBody: boolean, titled: boolean): DocsExample {
  const auth = example.auth ?? op.auth;
  const credential = CREDENTIAL[auth];
  return {
    ...(titled && example.title ? { title: example.title } : {}),
    auth,
    headers: [
      ...(credential ? [{ name: 'Authorization', value: credential }] : []),
      ...(showsTeamHeader(op, auth) ? [TEAM_HEADER_ROW] : []),
      ...(hasBody ? [{ name: 'Content-Type', value: 'application/json' }] : []),
    ],
    example,
    snippet: snippetRequest(op, example),
  };
}

function endpointView(op: DocsOperation, doc: OpenApiDocument, example: EndpointExample): DocsEndpoint {
  const { operation } = op;
  const body = operation.requestBody?.content['application/json']?.schema;
  const ways = examplesOf(example);
  return {
    name: op.name,
    method: op.method.toUpperCase(),
    path: op.path,
    summary: operation.summary,
    auth: op.auth,
    keyInBody: op.keyInBody,
    rateLimit: { policy: operation['x-rate-limit'], perMinute: operation['x-rate-limit-per-minute'] ?? null },
    pathParams: parameterFields(op, doc, 'path'),
    queryParams: parameterFields(op, doc, 'query'),
    bodyFields: fieldsOf(body, doc),
    errors: Object.entries(operation.responses)
      .filter(([status]) => status !== '200')
      .map(([status, response]) => ({ status, description: response.description })),
    textResponse: op.textResponse,
    examples: ways.map((way) => exampleView(op, way, Boolean(body), ways.length > 1)),
  };
}

/** The tabs in the spec's order. An endpoint without examples is left out here (a test keeps that list empty). */
export function buildDocs(doc: OpenApiDocument): DocsTab[] {
  const operations = listDocsOperations(doc);
  return API_DOCS_TABS.map((tab) => ({
    id: tab.id,
    label: tab.label,
    endpoints: operations.flatMap((op) => {
      const example = EXAMPLES[op.name as keyof typeof EXAMPLES];
      return op.tab === tab.id && example ? [endpointView(op, doc, example)] : [];
    }),
  }));
}
