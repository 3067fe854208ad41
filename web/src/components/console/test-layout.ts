/**
 * A layout for the console's log in jsdom, which has none: the log (role="log") is `viewport` px
 * tall, each row of the virtual list `row` px, the log's content as tall as the list says it is.
 * `scrollTo` moves the log at once and reports the scroll at the next animation frame, as a browser
 * does. `restore()` puts jsdom back (files share their modules, and so these prototypes).
 */
export function layOutLog({ viewport, row }: { viewport: number; row: number }) {
  const proto = HTMLElement.prototype;
  const saved = (['clientHeight', 'scrollHeight', 'offsetHeight', 'scrollTo'] as const).map(
    (name) => [name, Object.getOwnPropertyDescriptor(proto, name)] as const,
  );
  const isLog = (element: HTMLElement) => element.getAttribute('role') === 'log';
  const contentHeight = (log: HTMLElement) =>
    parseFloat(log.querySelector<HTMLElement>('.console-rows')?.style.height ?? '') || 0;
  const maxTop = (log: HTMLElement) => Math.max(0, contentHeight(log) - viewport);

  Object.defineProperty(proto, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return isLog(this) ? viewport : 0;
    },
  });
  Object.defineProperty(proto, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return isLog(this) ? Math.max(viewport, contentHeight(this)) : 0;
    },
  });
  Object.defineProperty(proto, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.hasAttribute('data-index') ? row : 0;
    },
  });
  Object.defineProperty(proto, 'scrollTo', {
    configurable: true,
    writable: true,
    value(this: HTMLElement, options: ScrollToOptions) {
      this.scrollTop = Math.min(Math.max(0, options.top ?? this.scrollTop), maxTop(this));
      requestAnimationFrame(() => this.dispatchEvent(new Event('scroll')));
    },
  });

  return {
    /** What the reader sees: the texts of the lines inside the log's window, top first. */
    onScreen(log: HTMLElement) {
      return [...log.querySelectorAll<HTMLElement>('[data-index]')]
        .map((slot) => ({ slot, top: slotTop(slot) }))
        .filter(({ top }) => top >= log.scrollTop && top + row <= log.scrollTop + viewport)
        .sort((a, b) => a.top - b.top)
        .map(({ slot, top }) => ({
          text: slot.querySelector('[data-testid="console-line-text"]')?.textContent ?? '',
          fromTop: top - log.scrollTop,
        }));
    },
    maxTop,
    restore() {
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(proto, name, descriptor);
        else delete (proto as unknown as Record<string, unknown>)[name];
      }
    },
  };
}

/** Where the virtual list put a row (its slot's transform). */
function slotTop(slot: HTMLElement): number {
  const match = /translateY\((-?[\d.]+)px\)/.exec(slot.style.transform);
  return match ? Number(match[1]) : NaN;
}
