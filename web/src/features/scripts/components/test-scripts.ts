import { vi, type MockInstance } from 'vitest';
import type { Script } from '@moonrelay/contract/scripts';
import { signInAs, testScript } from '../../../test/fixtures.ts';

/** A stored script last modified three hours ago (the list shows relative times). */
export function makeScript(fields: Partial<Script> & Pick<Script, 'id' | 'name'>): Script {
  return testScript({ updatedAt: new Date(Date.now() - 3 * 3600 * 1000).toISOString(), ...fields });
}

/** A signed-in session: the scripts list is fetched only with a token. */
export function signIn(): void {
  signInAs();
}

/** What GET /api/scripts/page answers for a script: its summary, without the code. */
export const summaryOf = ({
  id,
  name,
  description,
  isAutoExecute,
  isPublic,
  executionCount,
  createdAt,
  updatedAt,
}: Script) => ({
  id,
  name,
  description,
  isAutoExecute,
  isPublic,
  executionCount,
  createdAt,
  updatedAt,
});

/**
 * A jsonFetch handler answering GET /api/scripts/page as the server does over `list()` (already
 * newest first): q searches name and description in any case, type filters, the cursor is the
 * offset of the next page. `pageSize` stands in for the default limit (a test may want all at once).
 */
export function scriptPages(list: () => Script[], { pageSize = 50 }: { pageSize?: number } = {}) {
  return (_body: unknown, url?: URL) => {
    const params = url!.searchParams;
    const q = (params.get('q') ?? '').trim().toLowerCase();
    const type = params.get('type') ?? 'all';
    const limit = Number(params.get('limit') ?? pageSize);
    const start = Number(params.get('cursor') ?? 0);
    const all = list();
    const matching = all.filter(
      (script) =>
        (type === 'all' || script.isAutoExecute === (type === 'auto')) &&
        (!q || script.name.toLowerCase().includes(q) || (script.description ?? '').toLowerCase().includes(q)),
    );
    const end = start + limit;
    return {
      body: {
        scripts: matching.slice(start, end).map(summaryOf),
        nextCursor: end < matching.length ? String(end) : null,
        total: all.length,
        matching: matching.length,
      },
    };
  };
}

const isScroller = (element: Element) => element.getAttribute('data-testid') === 'scripts-scroller';

/**
 * jsdom lays nothing out: My Scripts' scroll area is given `view` pixels of height and, when
 * `content` is given, content that tall (it scrolls when taller than the view); each drawn card
 * measures `card` pixels. Answers the spies, for mockRestore after the test.
 */
export function layOutScripts({ view, content, card }: { view: number; content?: number; card?: number }) {
  const spies: MockInstance[] = [
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
      return isScroller(this) ? view : 0;
    }),
  ];
  if (content !== undefined) {
    spies.push(
      vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
        return isScroller(this) ? content : 0;
      }),
    );
  }
  if (card !== undefined) {
    spies.push(
      vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
        return this.dataset.testid === 'script-card' ? card : 0;
      }),
    );
  }
  return spies;
}
