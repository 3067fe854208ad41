import net from 'node:net';

/**
 * A key's IP allow list: addresses and CIDR ranges (validated by the contract), matched against the
 * client address as the app determines it (X-Forwarded-For only behind TRUST_PROXY). An IPv4 client
 * seen through an IPv6 socket (::ffff:203.0.113.7) is matched as the IPv4 address it is.
 */
export interface AllowList {
  allows(ip: string): boolean;
}

const SEEN_MAX = 1_000;
const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

export const plainAddress = (ip: string): string => MAPPED_IPV4.exec(ip)?.[1] ?? ip;

const family = (address: string): 'ipv4' | 'ipv6' => (net.isIPv6(address) ? 'ipv6' : 'ipv4');

export function allowListOf(entries: readonly string[]): AllowList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const plain = plainAddress(address);
    if (prefix === undefined) list.addAddress(plain, family(plain));
    else list.addSubnet(plain, Number(prefix), family(plain));
  }
  // BlockList.check costs several microseconds; a key is used from few addresses (a game's servers,
  // a CI runner), so answers are remembered per address, up to a bound.
  const seen = new Map<string, boolean>();
  return {
    allows(ip) {
      const known = seen.get(ip);
      if (known !== undefined) return known;
      const plain = plainAddress(ip);
      const allowed = net.isIP(plain) !== 0 && list.check(plain, family(plain));
      if (seen.size >= SEEN_MAX) seen.clear();
      seen.set(ip, allowed);
      return allowed;
    },
  };
}
