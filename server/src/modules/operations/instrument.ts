import type { Middleware } from 'koa';
import { isLive } from '../../platform/presence.ts';
import type { AppState } from '../../http/context.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { Presence } from '../../platform/presence.ts';

/**
 * What /metrics reports besides the platform's own counters: requests by status class, connected
 * game servers, held long-polls and memory. Counting a request is one map update: the middleware
 * counts what the Koa stack answers, `countAnswer` what the fast routes (http/fast-routes.ts) answer.
 */
export function instrument(
  metrics: Metrics,
  deps: { presence: Presence; heldLongPolls: () => number },
): { middleware: Middleware<AppState>; countAnswer(status: number): void } {
  metrics.gauge(
    'moonrelay_game_servers_connected',
    'Game servers that pinged within the connection window',
    async () => (await deps.presence.listAll()).filter((p) => isLive(p, Date.now())).length,
  );
  metrics.gauge('moonrelay_long_polls_held', 'Game pings held open waiting for a command', deps.heldLongPolls);
  metrics.gauge('process_resident_memory_bytes', 'Resident memory of this process', () => process.memoryUsage().rss);
  const requests = metrics.counter(
    'moonrelay_http_requests_total',
    'HTTP requests answered, by status class',
    'status',
  );
  const countAnswer = (status: number) => requests.inc(`${Math.floor(status / 100)}xx`);
  return {
    middleware: async (ctx, next) => {
      try {
        await next();
      } finally {
        countAnswer(ctx.status);
      }
    },
    countAnswer,
  };
}
