import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_CODE_MAX_BYTES } from '@moonrelay/contract/constants';
import { SCRIPT_BODY_LIMIT_BYTES } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import { engines } from '../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/test-server.ts';

/** Hostile and careless input at the HTTP layer: every answer is a clear 4xx JSON, never a 5xx. */
describe('HTTP edges', () => {
  let server: TestServer;
  let token: string;
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-web-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Moonrelay</title><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    server = await startTestServer(engines[0]!, { WEB_DIST_DIR: webDir });
    ({ token } = await registerUser(server));
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const post = (raw: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    server.call('POST', '/api/scripts', { token, raw, headers });

  it.each([
    ['{"name":', ERRORS.malformedJson],
    ['{name: "x"}', ERRORS.malformedJson],
    ['"just a string"', ERRORS.bodyNotObject],
    ['42', ERRORS.bodyNotObject],
    ['[1,2]', ERRORS.bodyNotObject],
    ['null', ERRORS.bodyNotObject],
  ])('answers 400 JSON for the body %s', async (raw, message) => {
    const res = await post(raw);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body.error).toBe(message);
  });

  it('answers 413 JSON for a 2 MB body, and stores nothing', async () => {
    const before = (await server.call('GET', '/api/scripts', { token })).body.length;
    const res = await post(JSON.stringify({ name: 'huge', code: 'x'.repeat(2 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: ERRORS.bodyTooLarge(SCRIPT_BODY_LIMIT_BYTES, SCRIPT_CODE_MAX_BYTES) });
    expect((await server.call('GET', '/api/scripts', { token })).body.length).toBe(before);
  });

  it('keeps the 1 MB limit on routes that do not carry code', async () => {
    const res = await server.call('POST', '/api/auth/login', {
      raw: JSON.stringify({ emailOrUsername: 'x', password: 'y'.repeat(1100 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
  });

  it.each([
    ['gzip', 400, 'Request body could not be decompressed'],
    ['bogus', 415, 'Unsupported Content-Encoding: bogus'],
  ])('answers a body with Content-Encoding %s with %i', async (encoding, status, message) => {
    const res = await post('{"name":"a","code":"b"}', {
      'content-type': 'application/json',
      'content-encoding': encoding,
    });
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(message);
  });

  it('answers 404 for ids that match nothing, however odd', async () => {
    for (const id of ['x'.repeat(500), '%E0%A4%A', '..%2f..%2fuser', "1' OR '1'='1"]) {
      const res = await server.call('DELETE', `/api/scripts/${id}`, { token });
      expect(res.status, id).toBe(404);
      expect(res.body.error).toBe(ERRORS.scriptNotFound);
    }
  });

  it('refuses text holding NUL (U+0000) with a 400 naming where it is, in a path id, the query or the body', async () => {
    const nul = (path: string) => ({
      error: `${path}: ${ERRORS.textHasNul}`,
      issues: [{ path, message: `${path}: ${ERRORS.textHasNul}` }],
    });
    const before = (await server.call('GET', '/api/scripts', { token })).body.length;
    for (const id of ['%00', 'a%00b']) {
      const res = await server.call('DELETE', `/api/scripts/${id}`, { token });
      expect(res.status, id).toBe(400);
      expect(res.body).toEqual(nul('id'));
    }
    const query = await server.call('GET', '/api/scriptblox/search?q=a%00b', { token });
    expect(query.status).toBe(400);
    expect(query.body).toEqual(nul('q'));
    const created = await post(JSON.stringify({ name: 'a\u0000b', code: 'print(1)' }));
    expect(created.status).toBe(400);
    expect(created.body).toEqual(nul('name'));
    const key = await post(
      JSON.stringify({ name: 'n', code: 'print(1)', autoExecuteGames: { 'a\u0000': { enabled: true } } }),
    );
    expect(key.status).toBe(400);
    expect(key.body).toEqual(nul('autoExecuteGames.a\ufffd'));
    const login = await server.call('POST', '/api/auth/login', { body: { emailOrUsername: '\u0000', password: 'x' } });
    expect(login.status).toBe(400);
    expect(login.body).toEqual(nul('emailOrUsername'));
    expect((await server.call('GET', '/api/scripts', { token })).body.length).toBe(before);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await post('name=x&code=y', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe(ERRORS.bodyNotJson);
  });

  it('answers 404 JSON for unknown API routes and 405 for a wrong method', async () => {
    const unknown = await server.call('GET', '/api/does-not-exist');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: ERRORS.notFound });
    const wrongMethod = await server.call('PATCH', '/api/scripts', { token });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error).toBe('Method not allowed');
  });

  it('never sends a stack trace', async () => {
    for (const raw of ['{"name":', '\u0000', '{"__proto__":{"x":1},"name":"p","code":"print(1)"}']) {
      const res = await post(raw);
      expect(res.status).toBeLessThan(500);
      expect(res.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
    }
  });

  it('sets security headers and a CSP that names no other host, but for the images of Roblox and the catalogue', async () => {
    const res = await server.call('GET', '/');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    const directives = csp.split('; ');
    for (const directive of directives.filter((d) => !d.startsWith('img-src '))) {
      expect(directive).not.toMatch(/https?:\/\/|https:|cdn/i);
    }
    expect(directives.find((d) => d.startsWith('img-src '))).toBe(
      `img-src 'self' data: blob: https://*.rbxcdn.com ${new URL(server.config.catalogue.siteUrl).origin}`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('echoes a plain request id and replaces a forged one', async () => {
    const kept = await server.call('GET', '/api/openapi.json', { headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await server.call('GET', '/api/openapi.json', { headers: { 'x-request-id': 'bad id\tinjected' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  describe('web app', () => {
    it('serves index.html for app routes (SPA fallback)', async () => {
      for (const route of ['/', '/dashboard', '/editor?id=1', '/settings']) {
        const res = await server.call('GET', route);
        expect(res.status).toBe(200);
        expect(res.text).toContain('<div id="root">');
        expect(res.headers.get('cache-control')).toBe('no-cache');
      }
    });

    it('serves hashed assets with a long cache, and a missing asset as 404', async () => {
      const asset = await server.call('GET', '/assets/app-abc123.js');
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect((await server.call('GET', '/assets/missing.js')).status).toBe(404);
    });

    it('does not let a path escape the web folder', async () => {
      // A file beside the web folder, which a path that climbs out would reach.
      const outside = path.join(path.dirname(webDir), `${path.basename(webDir)}-secret.txt`);
      fs.writeFileSync(outside, 'not for the web');
      try {
        for (const escape of [
          `/..%2f${path.basename(outside)}`,
          `/assets/..%2f..%2f${path.basename(outside)}`,
          '/..%2f..%2f..%2fetc%2fpasswd',
          `/%2e%2e/${path.basename(outside)}`,
        ]) {
          const res = await fetch(`${server.url}${escape}`);
          const text = await res.text();
          // Either refused or the app's own page (the SPA fallback), never the file's bytes.
          expect([200, 400, 403, 404]).toContain(res.status);
          if (res.status === 200) expect(text).toContain('<div id="root">');
          expect(text).not.toContain('not for the web');
          expect(text).not.toContain('root:');
        }
      } finally {
        fs.rmSync(outside, { force: true });
      }
    });
  });
});

describe('an unexpected failure', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
  });
  afterAll(() => server.close());

  it('answers a bare 500 with no stack trace, path or SQL, and the rest of the API keeps answering', async () => {
    const { token } = await registerUser(server);
    // A real failure deep in a route: the table the scripts list reads is gone.
    await sql`ALTER TABLE scripts RENAME TO scripts_gone`.execute(server.app.database.db);
    try {
      const res = await server.call('GET', '/api/scripts', {
        token,
        undocumentedBecause: 'an unexpected failure is provoked: no document lists a 500',
      });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: ERRORS.internal });
      expect(res.text).not.toMatch(/\bat .*\.(ts|js):\d+|scripts|SQL|sqlite|SELECT|no such table/i);
      expect(res.text).not.toContain(server.config.dataDir);
      expect((await server.call('GET', '/api/user', { token })).status).toBe(200);
    } finally {
      await sql`ALTER TABLE scripts_gone RENAME TO scripts`.execute(server.app.database.db);
    }
    expect((await server.call('GET', '/api/scripts', { token })).status).toBe(200);
  });
});
