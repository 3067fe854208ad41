import type Router from '@koa/router';
import type { AppState } from './http/context.ts';
import type { FastRoute } from './http/fast-routes.ts';
import type { ModuleContext, ModuleEntry, Sweep } from './modules/module.ts';

/** A module's entry function: builds it from the context and the services it names. */
type ModuleBuilder<Needs, Services extends object> = (
  ctx: ModuleContext,
  needs: Needs,
) => ModuleEntry<Services, never> | ModuleEntry<Services, unknown>;

/**
 * The modules of a process, built in the order they are added: each takes, by name, services of
 * the modules added before it (a name it needs that none gave is a type error at the `add`).
 */
export interface Composition<Built extends object> {
  add<Needs, Services extends object>(
    build: ModuleBuilder<Needs, Services>,
    ...missing: Built extends Needs ? [] : [needs: Exclude<keyof Needs, keyof Built>]
  ): Composition<Built & Services>;
  /** Every module's services, merged. */
  readonly services: Built;
  /** The entries, in the order they were added. */
  readonly entries: readonly ModuleEntry<object, never>[];
}

export function compose<Core extends object>(ctx: ModuleContext, core: Core): Composition<Core> {
  const services: Record<string, unknown> = { ...(core as Record<string, unknown>) };
  const entries: ModuleEntry<object, never>[] = [];
  // Typed loosely inside: the `Composition` type checks each `add` where the modules are listed.
  const composition = {
    add(build: (ctx: ModuleContext, needs: never) => ModuleEntry<object, never>) {
      const entry = build(ctx, services as never);
      for (const name of Object.keys(entry.services)) {
        // Two modules giving one name would make the second silently win everywhere.
        if (name in services) throw new Error(`Two modules give a service named ${name}`);
      }
      Object.assign(services, entry.services);
      entries.push(entry);
      return composition;
    },
    services,
    entries,
  };
  return composition as unknown as Composition<Core>;
}

/**
 * Mounts every module's routes; answers their fast routes. Where two paths could both match a
 * request (`/api/players/bans` and `/api/players/:userId`, from different modules), the one with a
 * fixed segment where the other has a parameter is tried first, whichever module mounted it.
 */
export function mountModules(
  api: Router<AppState>,
  entries: readonly ModuleEntry<object, never>[],
  services: object,
): FastRoute[] {
  const fastRoutes = entries.flatMap((entry) => entry.routes?.(api, services as never) ?? []);
  api.stack.sort((a, b) => compareRoutePaths(String(a.path), String(b.path)));
  return fastRoutes;
}

/** Orders paths segment by segment, a fixed segment before a parameter (a stable, total order). */
export function compareRoutePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const [x, y] = [left[index]!, right[index]!];
    const [xParam, yParam] = [x.startsWith(':'), y.startsWith(':')];
    if (xParam !== yParam) return xParam ? 1 : -1;
    if (!xParam && x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

/**
 * Runs each sweep every `everyMs` until the answered function is called. A sweep never overlaps
 * itself: a round still running when the next is due skips that one.
 */
export function startSweeps(sweeps: Sweep[], onError: (error: unknown, name: string) => void): () => void {
  const stops = sweeps.map(({ name, everyMs, run }) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      run()
        .catch((error: unknown) => onError(error, name))
        .finally(() => (running = false));
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  });
  return () => stops.forEach((stop) => stop());
}
