import { expect } from 'vitest';
import { LUAU_EXECUTION_WRITE, type CloudRunState } from '@moonrelay/contract/cloud-runs';
import type { BusEvent, EventBus } from '../src/platform/event-bus.ts';
import type { fakeOpenCloud } from './fake-open-cloud.ts';
import { registerUser, type TestServer } from './test-server.ts';

/**
 * What the screens are told of each cloud run, as the cloud-runs suites wait on it: its states
 * (`execution:logs`), its lines and its results (`execution:result`, the last thing told of a run
 * that ended). Waits resolve on the event itself (at once if it was told already), never on time.
 */
export function cloudRunNews() {
  const told = new Map<string, CloudRunState[]>();
  const lines = new Map<string, string[]>();
  const results = new Map<string, boolean[]>();
  const waiters: { ready: () => boolean; resolve: () => void }[] = [];
  const add = <T>(map: Map<string, T[]>, id: string, values: T[]) => map.set(id, [...(map.get(id) ?? []), ...values]);

  const once = (ready: () => boolean) =>
    new Promise<void>((resolve) => {
      if (ready()) resolve();
      else waiters.push({ ready, resolve });
    });

  return {
    told,
    lines,
    results,
    /** Listens to a bus (again after a restart: each start of an instance has a bus of its own). */
    watch(bus: EventBus): () => void {
      return bus.subscribe((event: BusEvent) => {
        if (event.type === 'execution:logs') {
          add(told, event.executionId, [event.state]);
          add(
            lines,
            event.executionId,
            event.lines.map((line) => line.message),
          );
        } else if (event.type === 'execution:result') {
          add(results, event.execution.executionId, [event.execution.success]);
        } else return;
        for (const waiter of [...waiters])
          if (waiter.ready()) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
      });
    },
    once,
    /** The run was told to be in one of `states`. */
    reaches: (id: string, states: CloudRunState[]) =>
      once(() => (told.get(id) ?? []).some((state) => states.includes(state))),
    /** The run's result was told. */
    ended: (id: string) => once(() => results.has(id)),
  };
}

/**
 * A new account whose saved Open Cloud key (an owner at Roblox of its own, with the Luau Execution
 * scope) runs code on a place of its own, at Roblox's stand-in and in Moonrelay.
 */
export async function cloudOwner(
  server: TestServer,
  roblox: ReturnType<typeof fakeOpenCloud>,
  place: { universeId: string; keyName: string; placeId: string },
) {
  const apiKey = `rbx-${place.keyName}-1234567890abcdefghijklmnop`;
  roblox.addKey(apiKey, place.universeId, [LUAU_EXECUTION_WRITE]);
  roblox.luau.addPlace(place.universeId, place.placeId);
  const user = await registerUser(server);
  const saved = await server.call('PUT', '/api/open-cloud/key', {
    token: user.token,
    body: { universeId: place.universeId, apiKey, placeId: place.placeId },
  });
  expect(saved.status).toBe(200);
  return { ...user, apiKey, placeId: place.placeId };
}
