import { afterAll, beforeAll, expect, it } from 'vitest';
import { LUAU_EXECUTION_WRITE } from '@moonrelay/contract/cloud-runs';
import type { ExecutionResponse } from '@moonrelay/contract/executions';
import type { Schedule } from '@moonrelay/contract/schedules';
import type { BusEvent } from '../../platform/event-bus.ts';
import { describeOnSQLite } from '../../../test/engines.ts';
import { fakeOpenCloud } from '../../../test/fake-open-cloud.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

const UNIVERSE = '4500000001';
const PLACE = '4500000002';
const KEY = 'rbx-scheduled-key-1234567890abcdefghijklm';

/**
 * A schedule whose target is `cloud` (a nightly job against the game's real DataStores): its due
 * run is a cloud run like one started by hand, queued for Roblox, followed to its end, and listed
 * in the runs as started by the schedule.
 */
describeOnSQLite('scheduled cloud runs', (engine) => {
  const roblox = fakeOpenCloud({
    luau: { limits: { createsPerMinute: 100 }, timing: { queuedMs: 20, processingMs: 50 } },
  });
  let server: TestServer;

  beforeAll(async () => {
    const base = await roblox.start();
    roblox.addKey(KEY, UNIVERSE, [LUAU_EXECUTION_WRITE]);
    roblox.luau.addPlace(UNIVERSE, PLACE);
    // Intervals down to one second, so the schedule is due within the test.
    server = await startTestServer(engine, {
      ROBLOX_OPEN_CLOUD_URL: base,
      OPEN_CLOUD_RETRY_BASE_MS: '50',
      CLOUD_RUN_POLL_MS: '50',
      SCHEDULE_MIN_INTERVAL_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await server?.close();
    await roblox.stop();
  });

  it('runs its script in Roblox: the run is listed as a cloud run started by the schedule, and succeeds', async () => {
    const { token, user } = await registerUser(server);
    const saved = await server.call('PUT', '/api/open-cloud/key', {
      token,
      body: { universeId: UNIVERSE, apiKey: KEY, placeId: PLACE },
    });
    expect(saved.status).toBe(200);
    const code = 'print("nightly, in Roblox")\nreturn "kept"';
    const script = await server.call('POST', '/api/scripts', { token, body: { name: 'Nightly', code } });
    expect(script.status).toBe(200);

    // The first run of the account to end, as its screens are told.
    const firstResult = new Promise<ExecutionResponse>((resolve) => {
      const stop = server.app.services.bus.subscribe((event: BusEvent) => {
        if (event.type !== 'execution:result' || event.userId !== user.id) return;
        stop();
        resolve(event.execution);
      });
    });
    const created = await server.call('POST', `/api/scripts/${script.body.id}/schedules`, {
      token,
      body: { kind: 'interval', intervalSeconds: 1, target: 'cloud' },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ target: 'cloud', enabled: true });
    const result = await firstResult;
    const paused = await server.call('PUT', `/api/schedules/${created.body.id}`, { token, body: { enabled: false } });
    expect(paused.status).toBe(200);

    expect(result).toMatchObject({ target: 'cloud', success: true, cloudState: 'succeeded' });
    const listed = await server.call('GET', `/api/executions?target=cloud&scriptId=${script.body.id}`, { token });
    expect(listed.body.runs).toContainEqual(
      expect.objectContaining({
        id: result.executionId,
        target: 'cloud',
        status: 'succeeded',
        cloudState: 'succeeded',
        startedBy: 'schedule',
        scriptId: script.body.id,
      }),
    );
    const detail = await server.call('GET', `/api/executions/${result.executionId}`, { token });
    expect(detail.body).toMatchObject({
      target: 'cloud',
      status: 'succeeded',
      output: 'nightly, in Roblox',
      cloud: { state: 'succeeded', placeId: PLACE, returnValues: ['kept'] },
    });
    const [schedule] = (await server.call('GET', `/api/scripts/${script.body.id}/schedules`, { token })).body
      .schedules as Schedule[];
    expect(schedule).toMatchObject({ target: 'cloud', lastError: null, lastRun: expect.any(Object) });
    // Roblox ran the schedule's script, as the run shows.
    const task = roblox.luau.tasks().find((candidate) => candidate.path === detail.body.cloud.taskPath);
    expect(task).toMatchObject({ script: code, state: 'COMPLETE', results: ['kept'] });
  });
});
