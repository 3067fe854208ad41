import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webApp } from './web-app.ts';

const INDEX = '<!doctype html><title>Moonrelay</title><div id="root"></div>'.padEnd(2000, ' ');
const SCRIPT = `console.log(${JSON.stringify('moonrelay '.repeat(500))});`;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes on the wire, still encoded. */
  body: Buffer;
}

/** A raw GET: fetch would decode the body and hide Content-Encoding and Content-Length from the test. */
function get(url: string, acceptEncoding?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('the web app served compressed', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-web-encoding-'));
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    const write = (file: string, text: string) => {
      fs.writeFileSync(path.join(dist, file), text);
      fs.writeFileSync(path.join(dist, `${file}.br`), zlib.brotliCompressSync(text));
      fs.writeFileSync(path.join(dist, `${file}.gz`), zlib.gzipSync(text));
    };
    write('index.html', INDEX);
    write('assets/main-abc123.js', SCRIPT);
    // A file the build left plain (too small to gain from compression).
    fs.writeFileSync(path.join(dist, 'assets', 'tiny-abc123.css'), 'a{}');
    const koa = new Koa();
    koa.use(webApp(dist));
    server = koa.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const decoded = (answer: Answer) => {
    const encoding = answer.headers['content-encoding'];
    if (encoding === 'br') return zlib.brotliDecompressSync(answer.body).toString();
    if (encoding === 'gzip') return zlib.gunzipSync(answer.body).toString();
    return answer.body.toString();
  };

  it('sends brotli to a browser that accepts it', async () => {
    const answer = await get(`${origin}/assets/main-abc123.js`, 'gzip, deflate, br, zstd');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(answer.headers['cache-control']).toContain('immutable');
    expect(decoded(answer)).toBe(SCRIPT);
  });

  it('sends gzip when that is all the browser reads', async () => {
    const answer = await get(`${origin}/assets/main-abc123.js`, 'gzip');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['content-type']).toMatch(/javascript/);
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(decoded(answer)).toBe(SCRIPT);
  });

  it.each([undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0'])('sends the plain file for %j', async (accept) => {
    const answer = await get(`${origin}/assets/main-abc123.js`, accept);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(SCRIPT));
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(answer.body.toString()).toBe(SCRIPT);
  });

  it('still answers a malformed Accept-Encoding, with the plain file', async () => {
    const answer = await get(`${origin}/assets/main-abc123.js`, ';;q=zz,,%%%, br;q=');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString()).toBe(SCRIPT);
  });

  it('sends the page compressed too, never cached without a check', async () => {
    for (const route of ['/', '/editor']) {
      const answer = await get(`${origin}${route}`, 'br');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
      expect(decoded(answer)).toBe(INDEX);
    }
  });

  it('sends a file without compressed copies as it is', async () => {
    const answer = await get(`${origin}/assets/tiny-abc123.css`, 'br, gzip');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-type']).toMatch(/^text\/css/);
    expect(answer.body.toString()).toBe('a{}');
  });
});
