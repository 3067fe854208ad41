import type { AppContext } from '../../http/context.ts';
import type { Device } from './sessions.service.ts';

/** Where a sign-in came from, as the sessions list shows it: the address (behind TRUST_PROXY, the client's) and browser. */
export function deviceOf(ctx: AppContext): Device {
  return { address: ctx.ip || null, userAgent: ctx.get('user-agent') || null };
}
