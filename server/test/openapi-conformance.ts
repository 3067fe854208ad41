import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../src/modules/openapi/openapi.ts';

/**
 * Every answer the server suites receive through the shared HTTP helper (test-server.ts `call`) is
 * held against the served OpenAPI document: the status must be one the operation documents, and a
 * JSON answer must match the schema documented for that status (text answers: their content type).
 * Drift between what the server does and what the document promises then fails the suite that saw
 * it, naming the operation and the difference, whichever route it is and whenever it was added.
 */

type JsonSchema = Record<string, unknown>;
interface MediaType {
  schema?: JsonSchema;
}
interface OperationObject {
  operationId: string;
  responses: Record<string, { content?: Record<string, MediaType>; headers?: Record<string, { required?: boolean }> }>;
}
interface Route {
  method: string;
  pattern: RegExp;
  /** Literal segments match before parameters (/api/scripts/execute before /api/scripts/{id}). */
  params: number;
  path: string;
  operation: OperationObject;
}

export interface Answer {
  method: string;
  /** The request's path, with or without a query string. */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
  headers: Headers;
}

const DOCUMENT_ID = 'moonrelay-openapi';

let built: { ajv: Ajv2020; routes: Route[] } | undefined;

function load() {
  if (built) return built;
  const doc = buildOpenApiDocument() as unknown as {
    components: JsonSchema;
    paths: Record<string, Record<string, OperationObject>>;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  // References are document-relative (#/components/schemas/X): the components are added under one id.
  ajv.addSchema({ $id: DOCUMENT_ID, components: doc.components });
  const routes: Route[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+');
      routes.push({
        method: method.toUpperCase(),
        pattern: new RegExp(`^${source}$`),
        params: (path.match(/\{/g) ?? []).length,
        path,
        operation,
      });
    }
  }
  routes.sort((a, b) => a.params - b.params);
  built = { ajv, routes };
  return built;
}

const validators = new Map<string, ValidateFunction>();

function validatorFor(schema: JsonSchema): ValidateFunction | undefined {
  const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
  if (!ref?.startsWith('#/components/schemas/')) return undefined;
  let validate = validators.get(ref);
  if (!validate) {
    validate = load().ajv.getSchema(`${DOCUMENT_ID}${ref}`);
    if (!validate) throw new Error(`The document has no schema ${ref}`);
    validators.set(ref, validate);
  }
  return validate;
}

/** The operation that answers this request, if the document has one. */
export function operationOf(method: string, path: string): { path: string; operation: OperationObject } | undefined {
  const pathname = path.split('?')[0]!;
  let decoded = pathname;
  try {
    decoded = decodeURI(pathname);
  } catch {
    // A malformed escape: matched as sent.
  }
  const route = load().routes.find(
    (candidate) =>
      candidate.method === method.toUpperCase() &&
      (candidate.pattern.test(pathname) || candidate.pattern.test(decoded)),
  );
  return route && { path: route.path, operation: route.operation };
}

/** What is wrong with the answer, as the document describes its operation; null when nothing is. */
export function nonconformance(answer: Answer): string | null {
  const method = answer.method.toUpperCase();
  if (method === 'HEAD' || method === 'OPTIONS' || !answer.path.startsWith('/api/')) return null;
  const found = operationOf(method, answer.path);
  const isJson = answer.contentType?.startsWith('application/json') ?? false;
  if (!found) {
    // No operation (an unknown route, another method): the server's own 404 / 405, as `{ error }`.
    if (answer.status !== 404 && answer.status !== 405) return null;
    const validate = validatorFor({ $ref: '#/components/schemas/Error' })!;
    return isJson && validate(answer.body)
      ? null
      : `${method} ${answer.path} answered ${answer.status} without the { error } body`;
  }
  const name = `${method} ${found.path} (${found.operation.operationId})`;
  const documented = found.operation.responses[String(answer.status)];
  if (!documented) {
    const listed = Object.keys(found.operation.responses).join(', ');
    return `${name} answered ${answer.status}, which the document does not list (it lists ${listed}): ${JSON.stringify(answer.body).slice(0, 300)}`;
  }
  for (const [header, spec] of Object.entries(documented.headers ?? {})) {
    if (spec.required && !answer.headers.get(header)) {
      return `${name} answered ${answer.status} without the documented ${header} header`;
    }
  }
  const content = documented.content ?? {};
  const types = Object.keys(content);
  if (types.length === 0) return null;
  if (!types.some((type) => answer.contentType?.startsWith(type))) {
    return `${name} answered ${answer.status} as ${answer.contentType ?? 'no content type'}; the document says ${types.join(' or ')}`;
  }
  if (!isJson) return null;
  const validate = validatorFor(content['application/json']?.schema ?? {});
  if (!validate || validate(answer.body)) return null;
  const [first] = validate.errors ?? [];
  return `${name} answered ${answer.status} with a body outside its documented schema: ${first?.instancePath || '(root)'} ${first?.message ?? ''} ${JSON.stringify(first?.params ?? {})}; body ${JSON.stringify(answer.body).slice(0, 300)}`;
}
