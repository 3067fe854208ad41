import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { buildOpenApiDocument } from './openapi.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * What an integrator does with /api/openapi.json: generate types with openapi-typescript and call
 * the API through openapi-fetch. The generated client must type-check (and refuse a wrong call),
 * and its calls must work against a real server.
 */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export async function run(baseUrl: string, token: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });
  const created = await client.POST('/api/scripts', { body: { name: 'Typed', code: 'print("typed")' } });
  if (!created.data) throw new Error('create failed: ' + created.error?.error);
  const id: string = created.data.id;
  const read = await client.GET('/api/scripts/{id}', { params: { path: { id } } });
  const version: number | undefined = read.data?.version;
  const ran = await client.POST('/api/scripts/{id}/execute', { params: { path: { id } }, body: { target: 'sandbox' } });
  const output: string | undefined = ran.data?.output;
  const runs = await client.GET('/api/executions', { params: { query: { scriptId: id, limit: 5 } } });
  const names: (string | null)[] = runs.data?.runs.map((run) => run.scriptName) ?? [];
  const missing = await client.GET('/api/scripts/{id}', { params: { path: { id: 'no-such-script' } } });
  const refusal: string | undefined = missing.error?.error;
  return { id, version, output, names, status: missing.response.status, refusal };
}
`;

/** A call the types must refuse: the path parameter is missing. */
const WRONG_CALL = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });
void client.GET('/api/scripts/{id}', { params: { path: {} } });
`;

function typeErrors(dir: string, file: string): string[] {
  const program = ts.createProgram([path.join(dir, file)], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('a client generated from the OpenAPI document', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
    // Inside node_modules, so that the client's `openapi-fetch` resolves as an integrator's would.
    dir = fs.mkdtempSync(path.join(REPO_ROOT, 'node_modules', '.typed-client-'));
    const served = (await server.call('GET', '/api/openapi.json')).body;
    expect(served.openapi).toBe(buildOpenApiDocument().openapi);
    fs.writeFileSync(path.join(dir, 'schema.ts'), astToString(await openapiTS(served)));
    fs.writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    fs.writeFileSync(path.join(dir, 'wrong.ts'), WRONG_CALL);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks, and refuses a call that leaves out a path parameter', () => {
    expect(typeErrors(dir, 'client.ts')).toEqual([]);
    expect(typeErrors(dir, 'wrong.ts').join('\n')).toMatch(/Property 'id' is missing/);
  });

  it('makes real calls with it: create, read, run in the sandbox, list runs, and a typed refusal', async () => {
    const { token } = await registerUser(server);
    const compiled = ts.transpileModule(CLIENT, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const file = path.join(dir, 'client.mjs');
    fs.writeFileSync(file, compiled);
    const { run } = (await import(pathToFileURL(file).href)) as {
      run(baseUrl: string, token: string): Promise<Record<string, unknown>>;
    };
    expect(await run(server.url, token)).toEqual({
      id: expect.any(String),
      version: 1,
      output: 'typed\n',
      names: ['Typed'],
      status: 404,
      refusal: 'Script not found',
    });
  });
});
