import net from 'node:net';

/**
 * Addresses a webhook may not reach: a user's URL must not become a way into Moonrelay's own host,
 * its private network or a cloud's metadata service. Checked on the address a name resolved to, at
 * every attempt (a name can point somewhere else by the next attempt).
 */
const blocked = new net.BlockList();
// IPv4: "this" network, private, shared (carrier-grade NAT), loopback, link-local (cloud metadata
// 169.254.169.254 included), IETF protocol assignments, test nets, benchmarking, multicast, reserved.
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(address, prefix, 'ipv4');
// IPv6: unspecified, loopback, unique-local, link-local, multicast, documentation, and the
// AWS metadata service's IPv6 address (fd00:ec2::254 is within fc00::/7 already).
blocked.addAddress('::', 'ipv6');
blocked.addAddress('::1', 'ipv6');
for (const [address, prefix] of [
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const)
  blocked.addSubnet(address, prefix, 'ipv6');

/** IPv4 written inside IPv6 (::ffff:10.0.0.1, ::10.0.0.1, 64:ff9b::10.0.0.1) is judged as the IPv4 it carries. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    return v4 ? blocked.check(v4, 'ipv4') : blocked.check(address, 'ipv6');
  }
  // Not an address at all: nothing to dial safely.
  return true;
}
