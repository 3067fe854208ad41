import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthLiveSchema, HealthReadySchema, HealthSchema } from '@moonrelay/contract/operations';
import { engines } from '../../../test/engines.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';

/** The operator's two routes on the embedded default: health that says when the database is gone, and metrics that are not served unless configured. */
describe('operations routes', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A general budget of 5 a minute: probes must never spend it.
    server = await startTestServer(engines[0]!, { RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => server.close());

  it('does not serve /metrics at all without METRICS_TOKEN, whatever the credentials', async () => {
    for (const authorization of [undefined, 'Bearer anything-at-all-0123456789', 'Basic Zm9vOmJhcg==']) {
      const res = await server.call('GET', '/metrics', { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Not found' });
      expect(res.text).not.toMatch(/moonrelay_/);
    }
  });

  it('never rate-limits the health checks: 60 probes of each from one address, while the same address is refused other calls', async () => {
    for (let probe = 0; probe < 60; probe++) {
      for (const path of ['/api/health', '/api/health/live', '/api/health/ready']) {
        const res = await server.call('GET', path);
        expect(res.status, `${path} probe ${probe}`).toBe(200);
        expect(res.headers.get('ratelimit-limit')).toBeNull();
      }
    }
    const others = [];
    for (let call = 0; call < 6; call++) others.push((await server.call('GET', '/api/auth/providers')).status);
    expect(others).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('answers readiness with each dependency: the embedded mode runs its jobs in-process', async () => {
    const ready = await server.call('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(HealthReadySchema.parse(ready.body)).toMatchObject({
      status: 'ok',
      database: 'ok',
      redis: 'disabled',
      workers: { status: 'in-process', count: null },
    });
    expect(HealthLiveSchema.parse((await server.call('GET', '/api/health/live')).body).status).toBe('ok');
  });

  it('answers health 200 while the database answers, and 503 "degraded" once it does not; liveness stays 200', async () => {
    const healthy = await server.call('GET', '/api/health');
    expect(healthy.status).toBe(200);
    expect(HealthSchema.parse(healthy.body)).toMatchObject({ status: 'ok', database: 'ok', mode: 'embedded' });

    // The database goes away under the running app (a deleted volume, a closed handle).
    await server.app.database.close();
    const down = await server.call('GET', '/api/health');
    expect(down.status).toBe(503);
    expect(HealthSchema.parse(down.body)).toMatchObject({ status: 'degraded', database: 'error' });
    const notReady = await server.call('GET', '/api/health/ready');
    expect(notReady.status).toBe(503);
    expect(HealthReadySchema.parse(notReady.body)).toMatchObject({ status: 'degraded', database: 'error' });
    // The process itself is fine: an orchestrator must not restart it for its database.
    expect((await server.call('GET', '/api/health/live')).status).toBe(200);
  });
});
