import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '@moonrelay/contract/endpoints';
import { engines } from '../../../test/engines.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';

describe('GET /api/openapi.json', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
  });
  afterAll(() => server.close());

  it('documents every contract endpoint with its body, answer and errors', async () => {
    const res = await server.call('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    for (const endpoint of Object.values(endpoints)) {
      const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[endpoint.method];
      expect(operation, `${endpoint.method} ${path}`).toBeDefined();
      // Every budgeted call documents its 429; the health checks are never refused.
      expect(Boolean(operation.responses['429'])).toBe(endpoint.rateLimit !== 'none');
      for (const status of endpoint.errors) expect(operation.responses[String(status)]).toBeDefined();
    }
  });

  it('resolves every $ref to a component', async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).body;
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(5);
    for (const ref of refs) expect(doc.components.schemas[ref], ref).toBeDefined();
  });

  it('carries the contract’s rules into the schemas', async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).body;
    const ref: string = doc.paths['/api/auth/register'].post.requestBody.content['application/json'].schema.$ref;
    const register = doc.components.schemas[ref.split('/').pop()!];
    expect(register.required).toEqual(['email', 'username', 'name', 'password']);
    expect(register.properties.username).toMatchObject({ minLength: 3, maxLength: 30 });
    expect(register.properties.email.format).toBe('email');
    expect(doc.components.schemas.Script.properties.autoExecuteGames).toBeDefined();
    expect(doc.paths['/api/scripts'].get.security).toEqual([{ sessionToken: [] }, { apiKey: [] }]);
  });

  it('documents the execute call’s ways, the key it takes in the body, one script by id and the admin’s script field', async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).body;
    const execute = doc.paths['/api/scripts/execute'].post;
    expect(execute['x-key-in-body']).toBe(true);
    expect(Object.keys(execute.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '429']));
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.ExecuteCodeRequest.properties)).toEqual(
      expect.arrayContaining(['code', 'loadstring', 'target', 'serverId', 'key', 'script', 'gameData']),
    );
    expect(schemas.ExecuteCodeResponse.anyOf).toEqual([
      { $ref: '#/components/schemas/ExecutionResponse' },
      { $ref: '#/components/schemas/ScriptForGame' },
    ]);
    expect(schemas.ScriptForGame.required).toEqual(['success', 'code', 'name', 'output']);
    expect(schemas.ExecutionResponse.properties).toHaveProperty('pending');
    expect(doc.paths['/api/scripts/{id}/execute'].post['x-key-in-body']).toBeUndefined();

    const getScript = doc.paths['/api/scripts/{id}'].get;
    expect(getScript.operationId).toBe('getScript');
    expect(getScript.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Script',
    });
    // 403: a scoped API key without scripts:read; 400: an id holding NUL; 503: the database away.
    expect(Object.keys(getScript.responses)).toEqual(['200', '400', '401', '403', '404', '429', '503']);
    expect(getScript['x-key-scopes']).toEqual(['scripts:read']);

    expect(Object.keys(schemas.AdminExecuteScriptRequest.properties)).toEqual(['script', 'code', 'serverId']);
  });
});
