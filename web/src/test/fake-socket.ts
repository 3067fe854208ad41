import { vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

/**
 * Stands in for a socket.io-client Socket in tests: records listeners as its emitter does (the same
 * function may be added twice; off removes one), and lets a test play what the server would send
 * and the connection coming and going (`serverSends('connect')`).
 */
export class FakeSocket {
  readonly listeners = new Map<string, Listener[]>();
  readonly disconnect = vi.fn();

  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  off(event: string, listener: Listener) {
    const listeners = this.listeners.get(event) ?? [];
    const index = listeners.indexOf(listener);
    if (index >= 0) this.listeners.set(event, listeners.toSpliced(index, 1));
    return this;
  }

  serverSends(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }

  listenerCount(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}
