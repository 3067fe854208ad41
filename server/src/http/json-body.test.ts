import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa, { type Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorAnswer } from './error-handler.ts';
import { isPlainJsonRequest, readPlainJson } from './json-body.ts';

/**
 * The direct reader of plain JSON bodies answers exactly what koa-body (configured as endpoint.ts
 * configured it before) answers: the same parsed value, or the same error answer, for every body.
 */
const LIMIT = 256;
/** Room for JSON nested deeper than JSON.stringify can write back. */
const DEEP_LIMIT = 4 * 1024 * 1024;

describe('the plain JSON body reader', () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    const library = (limit: number) =>
      koaBody({
        json: true,
        jsonStrict: true,
        jsonLimit: limit,
        urlencoded: false,
        text: false,
        multipart: false,
      }) as unknown as Middleware;
    const libraries = { [LIMIT]: library(LIMIT), [DEEP_LIMIT]: library(DEEP_LIMIT) };
    const koa = new Koa();
    koa.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        const known = errorAnswer(error);
        ctx.status = known?.status ?? 500;
        ctx.body = known?.body ?? { unexpected: String(error) };
      }
    });
    koa.use(async (ctx) => {
      const deep = ctx.query.deep !== undefined;
      const limit = deep ? DEEP_LIMIT : LIMIT;
      let value: unknown;
      if (ctx.path === '/plain') {
        expect(isPlainJsonRequest(ctx.req)).toBe(true);
        value = await readPlainJson(ctx.req, limit);
      } else {
        await libraries[limit]!(ctx, async () => {});
        value = (ctx.request as { body?: unknown }).body;
      }
      ctx.body = deep ? { parsed: Array.isArray(value) } : { value };
    });
    server = http.createServer(koa.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** POSTs the bytes in the given pieces (several writes make several chunks on the server). */
  function post(path: string, pieces: Buffer[]): Promise<{ status: number; text: string }> {
    const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', 'content-length': String(length), connection: 'close' },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      });
      // A refused upload (413) may end in EPIPE or ECONNRESET once the answer is in.
      req.on('error', reject);
      (async () => {
        for (const piece of pieces) {
          req.write(piece);
          await new Promise((wait) => setTimeout(wait, 2));
        }
        req.end();
      })().catch(reject);
    });
  }

  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const bodies: [string, Buffer[]][] = [
    ['an empty body', [Buffer.alloc(0)]],
    ['{}', [Buffer.from('{}')]],
    ['an object', [Buffer.from('{"key":"mr_x","n":-0,"big":1e309,"list":[1,"two",null]}')]],
    ['leading JSON whitespace', [Buffer.from(' \t\r\n{"a":1}')]],
    ['an array', [Buffer.from('[{"a":1}]')]],
    ['a string', [Buffer.from('"text"')]],
    ['a number', [Buffer.from('42')]],
    ['null', [Buffer.from('null')]],
    ['whitespace only', [Buffer.from('   ')]],
    ['a form feed before the object', [Buffer.from('\f{"a":1}')]],
    ['truncated JSON', [Buffer.from('{"a":')]],
    ['a trailing brace', [Buffer.from('{"a":1}}')]],
    ['a trailing comma', [Buffer.from('{"a":1,}')]],
    ['a byte order mark', [bom, Buffer.from('{"a":1}')]],
    ['a byte order mark split over chunks', [bom.subarray(0, 1), bom.subarray(1), Buffer.from('{"a":1}')]],
    ['two byte order marks', [bom, bom, Buffer.from('{}')]],
    ['a byte order mark alone', [bom]],
    ['a byte order mark inside', [Buffer.from('{"a":"'), bom, Buffer.from('"}')]],
    [
      'invalid UTF-8',
      [Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from('"}')],
    ],
    [
      'a character split over chunks',
      [Buffer.from('{"a":"'), Buffer.from([0xe2]), Buffer.from([0x82, 0xac, 0x22, 0x7d])],
    ],
    ['raw U+0000', [Buffer.from('{"a":"\u0000"}')]],
    ['an escaped U+0000', [Buffer.from('{"a":"\\u0000"}')]],
    ['a __proto__ key', [Buffer.from('{"__proto__":{"polluted":true}}')]],
    ['a nested __proto__ key', [Buffer.from('{"a":[{"b":{"__proto__":null}}]}')]],
    ['an escaped __proto__ key', [Buffer.from('{"\\u005f_proto\\u005F_":1}')]],
    ['__proto__ inside a string', [Buffer.from('{"a":"\\"__proto__\\": 1"}')]],
    ['a constructor.prototype key', [Buffer.from('{"constructor":{"prototype":{"polluted":true}}}')]],
    ['a body at the limit', [Buffer.from(`{"a":"${'x'.repeat(LIMIT - 8)}"}`)]],
    ['a body over the limit', [Buffer.from(`{"a":"${'x'.repeat(LIMIT)}"}`)]],
    [
      'a body in many chunks',
      Array.from({ length: 8 }, (_, i) => Buffer.from(i === 0 ? '{"a":"' : i === 7 ? '"}' : 'xy')),
    ],
  ];

  it.each(bodies)('answers %s as koa-body does', async (_label, pieces) => {
    const [plain, library] = [await post('/plain', pieces), await post('/library', pieces)];
    expect(plain).toEqual(library);
  });

  it.each([10_000, 1_000_000])('answers arrays %i levels deep as koa-body does', async (depth) => {
    const deep = [Buffer.from('['.repeat(depth) + ']'.repeat(depth))];
    expect(await post('/plain?deep', deep)).toEqual(await post('/library?deep', deep));
  });
});
