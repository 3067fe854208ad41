/**
 * jsdom has no PointerEvent, which Chakra's radio group and switch create when their input loses
 * focus after a press. setup.ts provides it for every component test.
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
