import { describe, expect, it } from 'vitest';
import { createMemoryEventBus, type BusEvent } from './event-bus.ts';
import { createReactions, tellWhatIsPublished } from './reactions.ts';

// Events of this test's own, told only here.
declare module './reactions.ts' {
  interface ReactionEvents {
    'test:told': number;
  }
}

describe('reactions', () => {
  it('runs the reactions in the order they were registered, each waited for before the next', async () => {
    const reactions = createReactions();
    const seen: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    reactions.on('test:told', async (n) => {
      await held;
      seen.push(`first ${n}`);
    });
    reactions.on('test:told', (n) => void seen.push(`second ${n}`));
    const told = reactions.tell('test:told', 7);
    expect(seen).toEqual([]);
    release();
    await told;
    expect(seen).toEqual(['first 7', 'second 7']);
  });

  it('tells synchronously while no reaction answers a promise', () => {
    const reactions = createReactions();
    const seen: number[] = [];
    reactions.on('test:told', (n) => void seen.push(n));
    expect(reactions.tell('test:told', 1)).toBeUndefined();
    expect(seen).toEqual([1]);
  });

  it('gives the teller the error of a failing reaction, and runs none after it', async () => {
    const reactions = createReactions();
    const seen: number[] = [];
    reactions.on('test:told', async () => {
      throw new Error('settling failed');
    });
    reactions.on('test:told', (n) => void seen.push(n));
    await expect(reactions.tell('test:told', 1)).rejects.toThrow('settling failed');
    expect(seen).toEqual([]);
  });

  it('stops a reaction that is removed, even while the event is being told', () => {
    const reactions = createReactions();
    const seen: string[] = [];
    const removeSecond = reactions.on('test:told', () => {
      seen.push('first');
      removeSecond2();
    });
    const removeSecond2 = reactions.on('test:told', () => void seen.push('second'));
    reactions.tell('test:told', 1);
    reactions.tell('test:told', 2);
    removeSecond();
    reactions.tell('test:told', 3);
    expect(seen).toEqual(['first', 'second', 'first']);
  });

  it('tells what the process publishes before it goes out on the bus', () => {
    const reactions = createReactions();
    const order: string[] = [];
    const bus = tellWhatIsPublished(
      createMemoryEventBus(() => {}),
      reactions,
    );
    reactions.on('bus:published', (event) => void order.push(`told ${event.type}`));
    bus.subscribe((event) => void order.push(`published ${event.type}`));
    const event: BusEvent = { type: 'players:changed', userId: 'u1' };
    bus.publish(event);
    expect(order).toEqual(['told players:changed', 'published players:changed']);
  });
});
