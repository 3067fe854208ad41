import { describe, expect, it } from 'vitest';
import { PAGE_LOADERS, PAGE_ROUTES, pageForPath } from './route-pages.ts';

describe('the signed-in pages by path', () => {
  it('finds the page a path opens, as the router matches it', () => {
    expect(pageForPath('/')).toBe('dashboard');
    expect(pageForPath('/dashboard')).toBe('dashboard');
    expect(pageForPath('/editor')).toBe('editor');
    expect(pageForPath('/Editor/')).toBe('editor');
    expect(pageForPath('/scriptblox')).toBe('catalogue');
    expect(pageForPath('/api-docs')).toBe('apiDocs');
    expect(pageForPath('/no-such-screen')).toBeUndefined();
    expect(pageForPath('/editor/extra')).toBeUndefined();
  });

  it('routes every page, each path once', () => {
    const paths = PAGE_ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(PAGE_ROUTES.map((route) => route.page))).toEqual(new Set(Object.keys(PAGE_LOADERS)));
  });
});
