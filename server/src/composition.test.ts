import Router from '@koa/router';
import { describe, expect, it } from 'vitest';
import { compareRoutePaths, compose, mountModules } from './composition.ts';
import type { AppState } from './http/context.ts';
import { moduleEntry, type ModuleContext } from './modules/module.ts';

// compose() hands each module the context untouched; these modules read none of it.
const ctx = {} as ModuleContext;

describe('composing modules', () => {
  it('hands each module, by name, the services of the modules added before it', () => {
    const counter = () => moduleEntry({ services: { count: { value: 41 } } });
    const reader = (_: ModuleContext, needs: { count: { value: number } }) =>
      moduleEntry({ services: { answer: needs.count.value + 1 } });
    const { services, entries } = compose(ctx, { core: true }).add(counter).add(reader);
    expect(services).toMatchObject({ core: true, count: { value: 41 }, answer: 42 });
    expect(entries).toHaveLength(2);
  });

  it('refuses two modules that give a service of the same name', () => {
    const one = () => moduleEntry({ services: { audit: 1 } });
    const other = () => moduleEntry({ services: { audit: 2 } });
    expect(() => compose(ctx, {}).add(one).add(other)).toThrow('Two modules give a service named audit');
  });

  it("mounts the modules' routes with a fixed segment tried before a parameter, whichever came first", async () => {
    const players = () =>
      moduleEntry({
        services: {},
        routes: (api) => void api.get('/api/players/:userId', (ctx) => (ctx.body = `player ${ctx.params.userId}`)),
      });
    const bans = () =>
      moduleEntry({ services: {}, routes: (api) => void api.get('/api/players/bans', (ctx) => (ctx.body = 'bans')) });
    const { entries, services } = compose(ctx, {}).add(players).add(bans);
    const api = new Router<AppState>();
    mountModules(api, entries, services);
    expect(api.stack.map((layer) => layer.path)).toEqual(['/api/players/bans', '/api/players/:userId']);
  });
});

describe('route order', () => {
  it('puts a fixed segment before a parameter at the first place they differ', () => {
    const paths = ['/api/scripts/:id/versions', '/api/scripts/temp/:id', '/api/scripts/:id', '/api/scripts/execute'];
    expect([...paths].sort(compareRoutePaths)).toEqual([
      '/api/scripts/execute',
      '/api/scripts/temp/:id',
      '/api/scripts/:id',
      '/api/scripts/:id/versions',
    ]);
  });
});
