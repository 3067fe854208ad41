import { describe, expect, it } from 'vitest';
import { createMemoryEventBus } from '../../platform/event-bus.ts';
import { createBusWaits } from './bus-waits.ts';

const setup = () => {
  const bus = createMemoryEventBus((error) => {
    throw error;
  });
  return { bus, waits: createBusWaits(bus) };
};

describe('bus waits', () => {
  it("wakes a long-poll for its own user and server (or an unaddressed command), not for others'", async () => {
    const { bus, waits } = setup();
    const wait = waits.commandQueued('u1', 's1', 1_000);
    bus.publish({ type: 'command:queued', userId: 'u2', serverIds: [null] });
    bus.publish({ type: 'command:queued', userId: 'u1', serverIds: ['s2'] });
    expect(waits.pending).toBe(1);
    bus.publish({ type: 'command:queued', userId: 'u1', serverIds: ['s2', 's1'] });
    expect(await wait).toBe(true);
    expect(waits.pending).toBe(0);
    const unaddressed = waits.commandQueued('u1', 's1', 1_000);
    bus.publish({ type: 'command:queued', userId: 'u1', serverIds: [null] });
    expect(await unaddressed).toBe(true);
  });

  it("ends a ping held with a team member's key, with nothing, when their membership changes or the team goes", async () => {
    const { bus, waits } = setup();
    const membership = (userId: string, change: 'removed' | 'changed' | 'deleted', teamId = 't1') =>
      bus.publish({ type: 'team:membership', teamId, userId, change, username: null, role: null });
    const madeByBob = waits.commandQueued('t1', 's1', 10_000, undefined, 'bob');
    const madeByAda = waits.commandQueued('t1', 's1', 10_000, undefined, 'ada');
    const ownKey = waits.commandQueued('t1', 's1', 10_000);
    membership('bob', 'removed', 't2');
    membership('carol', 'changed');
    expect(waits.pending).toBe(3);
    membership('bob', 'removed');
    expect(await madeByBob).toBe(false);
    expect(waits.pending).toBe(2);
    membership('carol', 'deleted');
    expect(await madeByAda).toBe(false);
    // A key of the account itself (no member made it) is not a member's to lose.
    expect(waits.pending).toBe(1);
    bus.publish({ type: 'command:queued', userId: 't1', serverIds: ['s1'] });
    expect(await ownKey).toBe(true);
  });

  it('answers null at the timeout, on abort, and at once after releaseAll', async () => {
    const { waits } = setup();
    expect(await waits.commandQueued('u', 's', 20)).toBeNull();
    const controller = new AbortController();
    const aborted = waits.commandQueued('u', 's', 10_000, controller.signal);
    controller.abort();
    expect(await aborted).toBeNull();
    const held = waits.commandFinished('c', 10_000);
    waits.releaseAll();
    expect(await held).toBeNull();
    expect(await waits.commandFinished('c', 10_000)).toBeNull();
    expect(waits.pending).toBe(0);
  });

  it('wakes a result wait only when its command reaches a final state', async () => {
    const { bus, waits } = setup();
    const wait = waits.commandFinished('c1', 1_000);
    const view = (status: 'delivered' | 'succeeded') => ({
      id: 'c1',
      userId: 'u',
      serverId: 's',
      type: 'execute' as const,
      status,
      source: 'execution' as const,
      executionId: 'e',
      attempts: 1,
      output: 'ok',
      error: null,
      durationMs: 1,
      createdAt: '',
      deliveredAt: null,
      completedAt: null,
    });
    bus.publish({ type: 'command:update', command: view('delivered') });
    expect(waits.pending).toBe(1);
    bus.publish({ type: 'command:update', command: view('succeeded') });
    expect((await wait)?.status).toBe('succeeded');
  });
});
