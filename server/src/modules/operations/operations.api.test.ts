import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthSchema } from '@moonrelay/contract/operations';
import { engines } from '../../../test/engines.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';

/** The operator's two routes on the embedded default: health that says when the database is gone, and metrics that are not served unless configured. */
describe('operations routes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
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

  it('answers health 200 while the database answers, and 503 "degraded" once it does not', async () => {
    const healthy = await server.call('GET', '/api/health');
    expect(healthy.status).toBe(200);
    expect(HealthSchema.parse(healthy.body)).toMatchObject({ status: 'ok', database: 'ok', mode: 'embedded' });

    // The database goes away under the running app (a deleted volume, a closed handle).
    await server.app.database.close();
    const down = await server.call('GET', '/api/health');
    expect(down.status).toBe(503);
    expect(HealthSchema.parse(down.body)).toMatchObject({ status: 'degraded', database: 'error' });
  });
});
