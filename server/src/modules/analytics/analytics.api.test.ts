import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ScriptAnalyticsSchema, UsageAnalyticsSchema } from '@moonrelay/contract/analytics';
import { ERRORS } from '@moonrelay/contract/messages';
import { describeEachEngine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createLogger } from '../../logger.ts';
import { requestMetricsRepo } from './analytics.repo.ts';
import { REQUEST_METRICS_FLUSH_MS } from './request-metrics.ts';

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const HOUR_MS = 3_600_000;

describeEachEngine('analytics API', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.close());

  it('answers usage after known traffic with exact counts by route pattern, for the caller only', async () => {
    const { token, user } = await registerUser(server);
    const key = user.apiKey as string;
    const other = await registerUser(server);
    const trafficStartedAt = Date.now();

    for (let i = 0; i < 3; i++) expect((await server.call('GET', '/api/scripts', { token: key })).status).toBe(200);
    const ids: string[] = [];
    for (const name of ['One', 'Two']) {
      const created = await server.call('POST', '/api/scripts', { token: key, body: { name, code: 'print(1)' } });
      ids.push(created.body.id);
    }
    for (const id of ids) {
      expect((await server.call('PUT', `/api/scripts/${id}`, { token, body: { code: 'print(2)' } })).status).toBe(200);
    }
    // Two errors: a script that is not there, and a body that is not valid.
    expect((await server.call('DELETE', '/api/scripts/no-such-script', { token: key })).status).toBe(404);
    expect((await server.call('POST', '/api/scripts', { token: key, body: { code: 'x' } })).status).toBe(400);
    for (let i = 0; i < 4; i++) {
      expect((await server.call('POST', '/api/game/ping', { body: { key, serverId: 'studio' } })).status).toBe(200);
    }
    expect((await server.call('GET', '/api/user', { token })).status).toBe(200);
    // Not counted for anyone: anonymous calls, refused credentials, paths no route matches.
    expect((await server.call('GET', '/api/openapi.json')).status).toBe(200);
    expect((await server.call('GET', '/api/scripts', { token: 'mrs_not-a-session' })).status).toBe(401);
    expect((await server.call('GET', '/api/nothing-here', { token })).status).toBe(404);
    // Someone else's traffic.
    for (let i = 0; i < 5; i++) await server.call('GET', '/api/scripts', { token: other.token });

    const trafficEndedAt = Date.now();

    const res = await server.call('GET', '/api/analytics/usage', { token });
    expect(res.status).toBe(200);
    const usage = UsageAnalyticsSchema.parse(res.body);
    expect(usage.requestsByEndpoint).toEqual({
      'POST /api/game/ping': 4,
      'GET /api/scripts': 3,
      'POST /api/scripts': 3,
      'PUT /api/scripts/:id': 2,
      'DELETE /api/scripts/:id': 1,
      'GET /api/user': 1,
    });
    // Busiest first.
    expect(Object.keys(usage.requestsByEndpoint)[0]).toBe('POST /api/game/ping');
    expect(usage.totalRequests).toBe(14);
    expect(usage.totalErrors).toBe(2);
    expect(usage.averageResponseTime).toBeGreaterThan(0);
    expect(usage.period).toBe('24h');
    expect(usage.requestsOverTime).toHaveLength(24);
    expect(sum(usage.requestsOverTime.map((bucket) => bucket.requests))).toBe(14);
    expect(sum(usage.requestsOverTime.map((bucket) => bucket.errors))).toBe(2);
    // The buckets are clock hours: traffic that straddled the turn of an hour is split between the
    // last two, and the last holds at least what came after the turn.
    const lastTwo = usage.requestsOverTime.slice(-2).map((bucket) => bucket.requests);
    if (Math.floor(trafficStartedAt / HOUR_MS) === Math.floor(trafficEndedAt / HOUR_MS)) {
      expect(lastTwo).toEqual([0, 14]);
    } else {
      expect(sum(lastTwo)).toBe(14);
      expect(lastTwo[1]).toBeGreaterThan(0);
    }
    const start = Date.parse(usage.periodStart);
    const end = Date.parse(usage.periodEnd);
    expect(Math.abs(end - Date.now())).toBeLessThan(10_000);
    expect(end - start).toBeGreaterThan(23 * HOUR_MS);
    expect(end - start).toBeLessThanOrEqual(24 * HOUR_MS);

    // The analytics call itself counts from the next answer on.
    const again = UsageAnalyticsSchema.parse((await server.call('GET', '/api/analytics/usage', { token: key })).body);
    expect(again.totalRequests).toBe(15);
    expect(again.requestsByEndpoint['GET /api/analytics/usage']).toBe(1);

    const theirs = UsageAnalyticsSchema.parse(
      (await server.call('GET', '/api/analytics/usage', { token: other.token })).body,
    );
    expect(theirs.requestsByEndpoint).toEqual({ 'GET /api/scripts': 5 });
  });

  it('answers script analytics after known runs with exact counts', async () => {
    const { token, user } = await registerUser(server);
    const key = user.apiKey as string;
    const hello = (
      await server.call('POST', '/api/scripts', { token: key, body: { name: 'Hello', code: 'print("hi")' } })
    ).body.id as string;
    const broken = (
      await server.call('POST', '/api/scripts', { token: key, body: { name: 'Broken', code: 'error("boom")' } })
    ).body.id as string;
    const run = (scriptId: string) =>
      server.call('POST', `/api/scripts/${scriptId}/execute`, { token: key, body: { target: 'sandbox' } });
    for (let i = 0; i < 3; i++) expect((await run(hello)).body.success).toBe(true);
    for (let i = 0; i < 2; i++) expect((await run(broken)).body.success).toBe(false);
    const custom = await server.call('POST', '/api/scripts/execute', {
      token,
      body: { code: 'print(1)', target: 'sandbox' },
    });
    expect(custom.body.success).toBe(true);
    // No game connected: recorded, and counted as a run like any other (its outcome says why).
    const offline = await server.call('POST', '/api/scripts/execute', { token, body: { code: 'print(1)' } });
    expect(offline.body.gameConnected).toBe(false);
    // A syntax error runs nothing and records nothing.
    expect((await server.call('POST', `/api/scripts/execute`, { token, body: { code: 'print(' } })).status).toBe(400);

    const res = await server.call('GET', '/api/analytics/scripts?period=1h', { token: key });
    expect(res.status).toBe(200);
    const stats = ScriptAnalyticsSchema.parse(res.body);
    expect(stats.totalExecutions).toBe(7);
    expect(stats.executionsByScript).toEqual([
      { scriptId: hello, name: 'Hello', executions: 3, succeeded: 3, failed: 0 },
      { scriptId: broken, name: 'Broken', executions: 2, succeeded: 0, failed: 2 },
      { scriptId: null, name: 'Custom code', executions: 2, succeeded: 1, failed: 0 },
    ]);
    // 4 of the 7 runs succeeded.
    expect(stats.successRate).toBe(57.1);
    expect(stats.outcomes).toEqual({ succeeded: 4, failed: 2, pending: 0, notConnected: 1 });
    expect(stats.averageExecutionTime).toBeGreaterThanOrEqual(0);
    expect(stats.period).toBe('1h');
    expect(stats.executionsOverTime).toHaveLength(12);
    expect(sum(stats.executionsOverTime.map((bucket) => bucket.executions))).toBe(7);
    expect(sum(stats.executionsOverTime.map((bucket) => bucket.succeeded))).toBe(4);
    expect(sum(stats.executionsOverTime.map((bucket) => bucket.failed))).toBe(2);
    expect(sum(stats.executionsOverTime.map((bucket) => bucket.notConnected))).toBe(1);

    // A fresh account has nothing yet.
    const empty = ScriptAnalyticsSchema.parse(
      (await server.call('GET', '/api/analytics/scripts', { token: (await registerUser(server)).token })).body,
    );
    expect(empty).toMatchObject({ totalExecutions: 0, executionsByScript: [], successRate: null });
    expect(empty.averageExecutionTime).toBeNull();
  });

  it('takes the period from the query string, and refuses one it does not know', async () => {
    const { token } = await registerUser(server);
    for (const [period, buckets] of [
      ['1h', 12],
      ['24h', 24],
      ['7d', 28],
      ['30d', 30],
    ] as const) {
      const usage = await server.call('GET', `/api/analytics/usage?period=${period}`, { token });
      expect(usage.body.requestsOverTime, period).toHaveLength(buckets);
      const scripts = await server.call('GET', `/api/analytics/scripts?period=${period}`, { token });
      expect(scripts.body.executionsOverTime, period).toHaveLength(buckets);
      expect(scripts.body.period).toBe(period);
    }
    const bad = await server.call('GET', '/api/analytics/usage?period=2d', { token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^period: /);
  });

  it('answers 401 without a credential', async () => {
    for (const route of ['/api/analytics/usage', '/api/analytics/scripts']) {
      const res = await server.call('GET', route);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: ERRORS.authenticationFailed });
    }
  });

  it('writes the counts to the database on its own every few seconds, off the request path', async () => {
    const { token, user } = await registerUser(server);
    const { db } = server.app.database;
    expect((await server.call('GET', '/api/user', { token })).status).toBe(200);
    const rows = () =>
      db
        .selectFrom('requestMetrics')
        .select('requestCount')
        .where('userId', '=', user.id as string)
        .where('endpoint', '=', 'GET /api/user')
        .execute();
    await expect
      .poll(async () => (await rows()).map((row) => Number(row.requestCount)), {
        timeout: REQUEST_METRICS_FLUSH_MS * 2,
        interval: 250,
      })
      .toEqual([1]);
    expect(await requestMetricsRepo.countRows(db)).toBeGreaterThan(0);
  });
});

describeEachEngine('request metrics at shutdown', (engine) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-shutdown-'));
  let drop: () => Promise<void>;
  afterAll(async () => {
    await drop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The app over a database that outlives it, served on an ephemeral port. */
  async function serve(database: Awaited<ReturnType<typeof engine.create>>['config']) {
    const config = {
      ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000' }),
      database,
    };
    const app = await buildApp(config, createLogger('silent'));
    const httpServer = http.createServer(app.koa.callback());
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    const call = async (method: string, route: string, token?: string, body?: unknown) => {
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      if (body) headers['content-type'] = 'application/json';
      const res = await fetch(url + route, { method, headers, body: body ? JSON.stringify(body) : undefined });
      return { status: res.status, body: await res.json() };
    };
    const stop = async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      await app.close();
    };
    return { call, stop };
  }

  it('flushes the last counts when the app closes, before its database does', async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    const first = await serve(created.config);
    const registered = await first.call('POST', '/api/auth/register', undefined, {
      email: 'shutdown@example.com',
      username: 'shutdown',
      name: 'Shutdown',
      password: 'correct horse battery',
    });
    const token = registered.body.token as string;
    for (let i = 0; i < 7; i++) expect((await first.call('GET', '/api/scripts', token)).status).toBe(200);
    await first.stop();

    const second = await serve(created.config);
    try {
      const usage = await second.call('GET', '/api/analytics/usage', token);
      expect(usage.body.requestsByEndpoint).toEqual({ 'GET /api/scripts': 7 });
    } finally {
      await second.stop();
    }
  });
});
