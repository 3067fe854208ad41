import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { Simulator } from './simulator.service.ts';

/** The dashboard's simulated game server: its status, start and stop, for the signed-in user. */
export function mountSimulatorRoutes(router: Router<AppState>, limits: RateLimits, simulator: Simulator): void {
  mountEndpoint(router, endpoints.simulatorStatus, limits, ({ principal }) => simulator.status(principal.userId));
  mountEndpoint(router, endpoints.startSimulator, limits, ({ principal }) => simulator.start(principal.userId));
  mountEndpoint(router, endpoints.stopSimulator, limits, ({ principal }) => simulator.stop(principal.userId));
}
