import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WEBHOOK_HEADERS } from '@moonrelay/contract/notifications';
import { describeOnSQLite } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const GUIDE = fs.readFileSync(path.join(REPO_ROOT, 'docs/webhooks.md'), 'utf8');

/** The fenced code block that follows `<!-- example: name -->` in docs/webhooks.md. */
function exampleOf(name: string): string {
  const match = new RegExp(`<!-- example: ${name} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(GUIDE);
  if (!match) throw new Error(`docs/webhooks.md has no example named ${name}`);
  return match[1]!;
}

interface Delivery {
  headers: http.IncomingHttpHeaders;
  /** The body exactly as it arrived, byte for byte. */
  raw: Buffer;
}

/** A receiver that keeps what arrives as it arrived, and checks nothing itself. */
function recorder() {
  const waiting: ((delivery: Delivery) => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(200).end('ok');
      waiting.shift()?.({ headers: req.headers, raw: Buffer.concat(chunks) });
    });
  });
  return {
    next: () => new Promise<Delivery>((resolve) => waiting.push(resolve)),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const python = await new Promise<boolean>((resolve) => execFile('python3', ['--version'], (error) => resolve(!error)));

/**
 * docs/webhooks.md tells a receiver how to check Moonrelay-Signature, with an example in Node and
 * one in Python. Both run here against a delivery Moonrelay really sent (Send test), as a receiver
 * would run them: the untouched delivery passes; a changed body, another secret, an old timestamp
 * and a replayed signature do not. The OpenAPI document's `webhooks` section describes the same
 * delivery.
 */
describeOnSQLite('signed webhooks, as documented', (engine) => {
  let server: TestServer;
  const receiver = recorder();
  let receiverUrl = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-webhook-docs-'));
  let delivery: Delivery;
  const SECRET = 'whsec_documented-example-secret-0123456789';

  beforeAll(async () => {
    receiverUrl = await receiver.start();
    server = await startTestServer(engine, { NOTIFY_ALLOWED_HOSTS: '127.0.0.1' });
    const { token } = await registerUser(server);
    const created = await server.call('POST', '/api/notifications/destinations', {
      token,
      body: {
        kind: 'webhook',
        name: 'Docs receiver',
        url: `${receiverUrl}/moonrelay`,
        secret: SECRET,
        events: ['run.failed'],
      },
    });
    expect(created.status, created.text).toBe(200);
    const arrived = receiver.next();
    const sent = await server.call('POST', `/api/notifications/destinations/${created.body.id}/test`, { token });
    expect(sent.status, sent.text).toBe(200);
    delivery = await arrived;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await receiver.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const signature = () => String(delivery.headers[WEBHOOK_HEADERS.signature.toLowerCase()]);
  const signedAt = () => Number(/(?:^|,)t=(\d+)/.exec(signature())![1]);

  it('signs each delivery with the header the guide describes', () => {
    expect(signature()).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(delivery.headers['moonrelay-event']).toBe('test');
    expect(delivery.headers['content-type']).toBe('application/json');
    const body = JSON.parse(delivery.raw.toString('utf8'));
    expect(body).toMatchObject({ type: 'test', id: delivery.headers['moonrelay-event-id'] });
    expect(GUIDE).toContain('Moonrelay-Signature: t=');
  });

  it('the Node example verifies the real delivery, and refuses it changed, under another secret, late or replayed', async () => {
    const file = path.join(dir, 'verify.mjs');
    fs.writeFileSync(file, `${exampleOf('node')}\nexport { verifyMoonrelayWebhook };\n`);
    const { verifyMoonrelayWebhook } = (await import(pathToFileURL(file).href)) as {
      verifyMoonrelayWebhook: (
        secret: string,
        rawBody: Buffer | string,
        header: string,
        options?: { toleranceSeconds?: number; nowSeconds?: number },
      ) => boolean;
    };
    const at = signedAt();
    expect(verifyMoonrelayWebhook(SECRET, delivery.raw, signature(), { nowSeconds: at + 1 })).toBe(true);
    expect(verifyMoonrelayWebhook(SECRET, delivery.raw.toString('utf8'), signature(), { nowSeconds: at })).toBe(true);
    const changed = Buffer.from(delivery.raw.toString('utf8').replace('"test"', '"run.failed"'));
    expect(verifyMoonrelayWebhook(SECRET, changed, signature(), { nowSeconds: at })).toBe(false);
    expect(verifyMoonrelayWebhook(`${SECRET}x`, delivery.raw, signature(), { nowSeconds: at })).toBe(false);
    expect(verifyMoonrelayWebhook(SECRET, delivery.raw, signature(), { nowSeconds: at + 301 })).toBe(false);
    expect(verifyMoonrelayWebhook(SECRET, delivery.raw, 'v1=abc', { nowSeconds: at })).toBe(false);
    // The receiver's handler in the guide remembers signatures it accepted: the second is refused.
    fs.writeFileSync(
      path.join(dir, 'receiver.mjs'),
      `${exampleOf('node')}\n${exampleOf('node-replay')}\nexport { acceptDelivery };\n`,
    );
    const handler = (await import(pathToFileURL(path.join(dir, 'receiver.mjs')).href)) as {
      acceptDelivery: (secret: string, rawBody: Buffer, header: string, nowSeconds?: number) => boolean;
    };
    expect(handler.acceptDelivery(SECRET, delivery.raw, signature(), at)).toBe(true);
    expect(handler.acceptDelivery(SECRET, delivery.raw, signature(), at)).toBe(false);
  });

  it.skipIf(!python)('the Python example verifies the real delivery, and refuses it changed or late', async () => {
    const file = path.join(dir, 'verify.py');
    fs.writeFileSync(
      file,
      `${exampleOf('python')}\n\n` +
        [
          'import json, sys',
          'case = json.load(sys.stdin)',
          'raw = bytes.fromhex(case["raw"])',
          'print(json.dumps([',
          '    verify_moonrelay_webhook(case["secret"], raw, case["header"], now=case["at"] + 1),',
          '    verify_moonrelay_webhook(case["secret"], raw + b" ", case["header"], now=case["at"]),',
          '    verify_moonrelay_webhook(case["secret"] + "x", raw, case["header"], now=case["at"]),',
          '    verify_moonrelay_webhook(case["secret"], raw, case["header"], now=case["at"] + 301),',
          '    verify_moonrelay_webhook(case["secret"], raw, "garbage", now=case["at"]),',
          ']))',
        ].join('\n'),
    );
    const answer = await new Promise<string>((resolve, reject) => {
      const child = execFile('python3', [file], (error, stdout, stderr) =>
        error ? reject(new Error(stderr || error.message)) : resolve(stdout),
      );
      child.stdin!.end(
        JSON.stringify({ secret: SECRET, raw: delivery.raw.toString('hex'), header: signature(), at: signedAt() }),
      );
    });
    expect(JSON.parse(answer)).toEqual([true, false, false, false, false]);
  });

  it('the OpenAPI document describes the delivery in its webhooks section, and the real body matches it', async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).body;
    const operation = doc.webhooks?.notification?.post;
    expect(operation, 'webhooks.notification.post').toBeDefined();
    const headers = Object.fromEntries(
      (operation.parameters as { name: string; in: string; required: boolean }[]).map((p) => [p.name, p]),
    );
    for (const name of Object.values(WEBHOOK_HEADERS)) expect(headers[name]).toMatchObject({ in: 'header' });
    expect(headers[WEBHOOK_HEADERS.signature]).toMatchObject({ required: true });
    const documented = (headers[WEBHOOK_HEADERS.signature] as unknown as { schema: { pattern: string } }).schema;
    expect(new RegExp(documented.pattern).test(signature())).toBe(true);
    expect(operation.description).toContain('docs/webhooks.md');
    const schema = operation.requestBody.content['application/json'].schema;
    expect(schema).toEqual({ $ref: '#/components/schemas/WebhookDelivery' });
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const validate = ajv.compile({ $ref: 'doc#/components/schemas/WebhookDelivery' });
    const body = JSON.parse(delivery.raw.toString('utf8'));
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.components.schemas.WebhookDelivery.properties.type.enum).toContain('run.failed');
  });
});
