import type { BusEvent, EventBus } from './event-bus.ts';

/**
 * What one module tells the others when something happened that they act on: a command finished,
 * a game server pinged or went, an Open Cloud ban ended, a user signed in. The module where it
 * happened tells it; each module that cares registers its reaction in its own folder, so a flow
 * reads inside the modules it concerns and the composition root joins nothing by hand.
 *
 * Unlike the event bus (what screens show and the wake-ups between instances: fire and forget,
 * across processes), a reaction runs once, in the process where the thing happened, in the order
 * the reactions were registered, and the teller may wait for all of them: a command's result has
 * completed its run before the call that brought it is answered.
 *
 * The events are declared by the modules that tell them, by augmenting `ReactionEvents`:
 *
 *   declare module '../../platform/reactions.ts' {
 *     interface ReactionEvents { 'commands:finished': CommandView[] }
 *   }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the modules that tell
export interface ReactionEvents {}

export type ReactionName = keyof ReactionEvents;
export type Reaction<K extends ReactionName> = (payload: ReactionEvents[K]) => void | Promise<void>;

export interface Reactions {
  /** Registers `reaction` to run each time `event` is told; answers the function that removes it. */
  on<K extends ReactionName>(event: K, reaction: Reaction<K>): () => void;
  /**
   * Runs the event's reactions one after another. A reaction that fails stops the ones after it
   * and the teller sees the error, as a direct call would. Reactions that answer nothing (not a
   * promise) run without leaving the current turn, so the hot paths (a game's ping) pay no promise.
   */
  tell<K extends ReactionName>(event: K, payload: ReactionEvents[K]): void | Promise<void>;
}

export function createReactions(): Reactions {
  const registered = new Map<ReactionName, Reaction<ReactionName>[]>();
  return {
    on(event, reaction) {
      const entry = reaction as Reaction<ReactionName>;
      registered.set(event, [...(registered.get(event) ?? []), entry]);
      return () => registered.set(event, registered.get(event)?.filter((other) => other !== entry) ?? []);
    },
    tell(event, payload) {
      // A copy per change (above), so a reaction removed while the event is told does not shift the rest.
      const list = registered.get(event);
      if (!list) return;
      for (let index = 0; index < list.length; index += 1) {
        const answer = list[index]!(payload);
        if (answer instanceof Promise) return finish(answer, list, index + 1, payload);
      }
    },
  };
}

/** The rest of the reactions, once the one that answered a promise has settled. */
async function finish<K extends ReactionName>(
  pending: Promise<void>,
  list: Reaction<ReactionName>[],
  from: number,
  payload: ReactionEvents[K],
): Promise<void> {
  await pending;
  for (let index = from; index < list.length; index += 1) await list[index]!(payload);
}

declare module './reactions.ts' {
  interface ReactionEvents {
    /** This process published an event on the bus (told before it goes out). */
    'bus:published': BusEvent;
  }
}

/** The bus, telling each event this process publishes as the reaction 'bus:published' first. */
export function tellWhatIsPublished(bus: EventBus, reactions: Reactions): EventBus {
  return {
    publish(event) {
      void reactions.tell('bus:published', event);
      bus.publish(event);
    },
    subscribe: (handler) => bus.subscribe(handler),
    close: () => bus.close(),
  };
}
