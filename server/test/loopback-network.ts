import { OutboundError, systemNetwork, type OutboundNetwork } from '../src/modules/notifications/outbound-http.ts';

/**
 * What test servers' notification deliveries reach: 127.0.0.1 only. Any other host (an example's
 * discord.com or hooks.example.com) fails to resolve, so no test ever sends a packet off the machine.
 */
export const loopbackOnlyNetwork: OutboundNetwork = {
  async resolve(host) {
    if (host === '127.0.0.1') return [host];
    throw new OutboundError('tests reach 127.0.0.1 only');
  },
  openSocket: (target) => systemNetwork.openSocket(target),
};
