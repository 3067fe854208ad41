import { describe, expect, it } from 'vitest';
import { nonconformance, operationOf, type Answer } from '../../../test/openapi-conformance.ts';

const json = 'application/json; charset=utf-8';
const answer = (overrides: Partial<Answer>): Answer => ({
  method: 'GET',
  path: '/api/scripts',
  status: 200,
  contentType: json,
  body: [],
  headers: new Headers(),
  ...overrides,
});

/** The check every suite's answers go through (test-server.ts `call`, the hostile sweep): it must be able to fail. */
describe('answers held against the OpenAPI document', () => {
  it('passes an answer the document describes', () => {
    expect(nonconformance(answer({}))).toBeNull();
    expect(nonconformance(answer({ status: 401, body: { error: 'Authentication failed' } }))).toBeNull();
  });

  it('names the operation and the status when a status is not documented', () => {
    expect(nonconformance(answer({ status: 418, body: { error: 'teapot' } }))).toMatch(
      /^GET \/api\/scripts \(listScripts\) answered 418, which the document does not list \(it lists 200, 401, 403, 429, 503\)/,
    );
  });

  it('names the field when a body leaves its schema', () => {
    const problem = nonconformance(answer({ path: '/api/scripts/abc', body: { id: 1 } }));
    expect(problem).toMatch(
      /^GET \/api\/scripts\/\{id\} \(getScript\) answered 200 with a body outside its documented schema/,
    );
    expect(nonconformance(answer({ status: 404, path: '/api/scripts/abc', body: { message: 'gone' } }))).toMatch(
      /must have required property 'error'/,
    );
  });

  it('wants Retry-After on 429 and 503, and the documented content type', () => {
    expect(nonconformance(answer({ status: 429, body: { error: 'Too many requests' } }))).toMatch(/Retry-After/);
    expect(
      nonconformance(
        answer({ status: 429, body: { error: 'Too many requests' }, headers: new Headers({ 'retry-after': '3' }) }),
      ),
    ).toBeNull();
    expect(nonconformance(answer({ contentType: 'text/html' }))).toMatch(
      /as text\/html; the document says application\/json/,
    );
  });

  it('matches literal paths before parameters, and leaves routes outside the document to the server’s own 404 and 405', () => {
    expect(operationOf('POST', '/api/scripts/execute')?.operation.operationId).toBe('executeCode');
    expect(operationOf('POST', '/api/scripts/abc/execute')?.operation.operationId).toBe('executeScript');
    expect(nonconformance(answer({ path: '/api/nowhere', status: 404, body: { error: 'Not found' } }))).toBeNull();
    expect(
      nonconformance(answer({ path: '/api/nowhere', status: 404, contentType: 'text/html', body: '<h1>' })),
    ).toMatch(/without the \{ error \} body/);
    expect(nonconformance(answer({ path: '/dashboard', contentType: 'text/html', body: '<html>' }))).toBeNull();
  });
});
