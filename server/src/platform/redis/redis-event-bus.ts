import type { Redis } from 'ioredis';
import type { BusEvent, BusHandler, EventBus } from '../event-bus.ts';

const CHANNEL = 'moonrelay:events';

/**
 * The event bus over Redis pub/sub. Every instance (the publisher included) receives each event
 * from Redis, so a handler sees the same stream wherever the change happened: a game's result that
 * reaches instance A wakes the execute call held by instance B.
 */
export function createRedisEventBus(deps: {
  publisher: Redis;
  subscriber: Redis;
  onError: (error: unknown, event: BusEvent | undefined) => void;
}): EventBus {
  const handlers = new Set<BusHandler>();
  void deps.subscriber.subscribe(CHANNEL).catch((error: unknown) => deps.onError(error, undefined));
  deps.subscriber.on('message', (channel: string, message: string) => {
    if (channel !== CHANNEL) return;
    let event: BusEvent;
    try {
      event = JSON.parse(message) as BusEvent;
    } catch (error) {
      deps.onError(error, undefined);
      return;
    }
    for (const handler of handlers) {
      try {
        handler(event);
      } catch (error) {
        deps.onError(error, event);
      }
    }
  });
  return {
    publish(event) {
      deps.publisher.publish(CHANNEL, JSON.stringify(event)).catch((error: unknown) => deps.onError(error, event));
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      handlers.clear();
      await deps.subscriber.unsubscribe(CHANNEL).catch(() => undefined);
    },
  };
}
