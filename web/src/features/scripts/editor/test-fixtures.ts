import type { Script } from '@moonrelay/contract/scripts';

/** A stored script as GET /api/scripts returns it; tests override what they care about. */
export function storedScript(overrides: Partial<Script> = {}): Script {
  return {
    id: 's1',
    name: 'Fly',
    description: 'Lets you fly',
    code: 'print("fly")',
    isAutoExecute: false,
    isPublic: false,
    executionCount: 0,
    userId: 'u1',
    gameId: null,
    gameName: null,
    gameImageUrl: null,
    autoExecuteGames: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/**
 * jsdom has no PointerEvent, which Chakra's radio group and switch create when their input loses
 * focus after a press. Call at the top of a test file that presses them.
 */
export function providePointerEvent(): void {
  if (typeof window.PointerEvent === 'function') return;
  class PointerEvent extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 0;
      this.pointerType = init.pointerType ?? '';
    }
  }
  window.PointerEvent = PointerEvent as unknown as typeof window.PointerEvent;
}
