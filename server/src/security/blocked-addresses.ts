import net from 'node:net';

/**
 * Addresses a webhook may not reach: a user's URL must not become a way into Moonrelay's own host,
 * its private network or a cloud's metadata service. Checked on a URL's address literal when a
 * destination is added, and on the address a name resolved to at every attempt (a name can point
 * somewhere else by the next attempt). The check of the address written into the integration
 * scripts (http/reachability.ts) names an address outside the public internet from the same list.
 *
 * Addresses are compared as numbers, not as text: an IPv6 address has many spellings
 * (`::127.0.0.1`, `::7f00:1`, `0:0::7f00:1`, upper case, a zone) and the URL parser rewrites what a
 * user typed (`[::127.0.0.1]` becomes `[::7f00:1]`), so a pattern over the text misses some.
 */

interface Range {
  base: bigint;
  prefix: number;
  /** Why it is refused, as the error names it: "a loopback address". */
  what: string;
}

const range = (width: 32 | 128, address: string, prefix: number, what: string): Range => ({
  base: width === 32 ? ipv4Number(address) : ipv6Number(address),
  prefix,
  what,
});

const within = (value: bigint, width: number, { base, prefix }: { base: bigint; prefix: number }) =>
  value >> BigInt(width - prefix) === base >> BigInt(width - prefix);

/** Refused IPv4 ranges (IANA's special-purpose registry, less what a webhook may reach). */
const IPV4_REFUSED: Range[] = [
  range(32, '0.0.0.0', 8, 'in "this network" (0.0.0.0/8)'),
  range(32, '10.0.0.0', 8, 'a private address (10.0.0.0/8)'),
  range(32, '100.64.0.0', 10, 'a shared, carrier-grade NAT address (100.64.0.0/10)'),
  range(32, '127.0.0.0', 8, 'a loopback address (127.0.0.0/8)'),
  range(32, '169.254.0.0', 16, 'a link-local address, where cloud metadata services answer (169.254.0.0/16)'),
  range(32, '172.16.0.0', 12, 'a private address (172.16.0.0/12)'),
  range(32, '192.0.0.0', 24, 'an IETF protocol assignment (192.0.0.0/24)'),
  range(32, '192.0.2.0', 24, 'a documentation address (192.0.2.0/24)'),
  // 6to4 relays' anycast, deprecated with 6to4 itself (RFC 7526): a way into a tunnel, not a host.
  range(32, '192.88.99.0', 24, 'a 6to4 relay address (192.88.99.0/24)'),
  range(32, '192.168.0.0', 16, 'a private address (192.168.0.0/16)'),
  range(32, '198.18.0.0', 15, 'a benchmarking address (198.18.0.0/15)'),
  range(32, '198.51.100.0', 24, 'a documentation address (198.51.100.0/24)'),
  range(32, '203.0.113.0', 24, 'a documentation address (203.0.113.0/24)'),
  range(32, '224.0.0.0', 4, 'a multicast address (224.0.0.0/4)'),
  range(32, '240.0.0.0', 4, 'a reserved or broadcast address (240.0.0.0/4)'),
];

/**
 * IPv6 forms that carry an IPv4 address. `judged`: the IPv4 address is where the connection
 * really goes (the kernel dials it for a mapped address; a NAT64 translator for the well-known
 * prefix, which is what DNS64 answers for an IPv4-only name on an IPv6-only network — Discord's own
 * names included), so the address is allowed exactly when its IPv4 address is. The others are
 * refused whatever they carry: deprecated or obsolete forms no webhook is reached at, tunnels whose
 * relay sends the packet on to the IPv4 address, and a local translator whose prefix length (so
 * where the IPv4 address sits) only its operator knows. Their IPv4 address is still named in the
 * error when it is a refused one, since that is what such a URL was aiming at.
 */
interface CarryingForm extends Range {
  carried: ((value: bigint) => bigint) | null;
  judged: boolean;
}

const low32 = (value: bigint) => value & 0xffffffffn;

// Most specific first: the first form an address is within decides.
const IPV6_CARRYING: CarryingForm[] = [
  {
    ...range(128, '::ffff:0:0', 96, 'an IPv4-mapped address (::ffff:0:0/96)'),
    carried: low32,
    judged: true,
  },
  {
    ...range(128, '64:ff9b::', 96, 'a NAT64 address (64:ff9b::/96)'),
    carried: low32,
    judged: true,
  },
  {
    ...range(128, '::ffff:0:0:0', 96, 'an IPv4-translated address (::ffff:0:0:0/96, obsolete)'),
    carried: low32,
    judged: false,
  },
  {
    ...range(128, '::', 96, 'an IPv4-compatible address (::/96, deprecated)'),
    carried: low32,
    judged: false,
  },
  {
    ...range(128, '64:ff9b:1::', 48, 'a local-use NAT64 address (64:ff9b:1::/48)'),
    carried: null,
    judged: false,
  },
  // The IPv4 address sits in bits 16 to 47.
  {
    ...range(128, '2002::', 16, 'a 6to4 address (2002::/16, deprecated)'),
    carried: (value) => low32(value >> 80n),
    judged: false,
  },
  // The client's IPv4 address is the last 32 bits, inverted (RFC 4380).
  {
    ...range(128, '2001::', 32, 'a Teredo address (2001::/32)'),
    carried: (value) => low32(value) ^ 0xffffffffn,
    judged: false,
  },
];

/** Refused IPv6 ranges within global unicast; everything outside 2000::/3 is refused too. */
const IPV6_REFUSED: Range[] = [
  // IETF protocol assignments: anycast services, benchmarking, ORCHID — no webhook lives there.
  range(128, '2001::', 23, 'an IETF protocol assignment (2001::/23)'),
  range(128, '2001:db8::', 32, 'a documentation address (2001:db8::/32)'),
  range(128, '3fff::', 20, 'a documentation address (3fff::/20)'),
];
const IPV6_GLOBAL_UNICAST = range(128, '2000::', 3, 'global unicast');
/** Named for a clearer error than "outside global unicast"; all outside 2000::/3. */
const IPV6_NAMED_OUTSIDE: Range[] = [
  range(128, 'fc00::', 7, 'a unique-local (private) address (fc00::/7), the AWS metadata service’s included'),
  range(128, 'fe80::', 10, 'a link-local address (fe80::/10)'),
  range(128, 'fec0::', 10, 'a site-local address (fec0::/10, deprecated)'),
  range(128, 'ff00::', 8, 'a multicast address (ff00::/8)'),
  range(128, '100::', 64, 'a discard-only address (100::/64)'),
];

function ipv4Number(address: string): bigint {
  return address.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

/** An address net.isIP called IPv6, as a 128-bit number (a zone, `%eth0`, is left out). */
function ipv6Number(address: string): bigint {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string) => (part ? part.split(':') : []);
  const [head = '', tail] = text.split('::');
  const before = groups(head);
  const after = tail === undefined ? [] : groups(tail);
  const all =
    tail === undefined ? before : [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  return all.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const dotted = (value: bigint) => [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');

const ipv4Refusal = (value: bigint) => IPV4_REFUSED.find((r) => within(value, 32, r))?.what ?? null;

/**
 * Why `address` may not be dialled, in words for an error ("::7f00:1 is an IPv4-compatible address
 * (::/96, deprecated) carrying 127.0.0.1, a loopback address (127.0.0.0/8)"); null when it may be.
 */
export function addressRefusal(address: string): string | null {
  const family = net.isIP(address);
  if (family === 4) {
    const what = ipv4Refusal(ipv4Number(address));
    return what && `${address} is ${what}`;
  }
  if (family !== 6) return `${address} is not an IP address`;
  const value = ipv6Number(address);
  if (value === 0n) return `${address} is the unspecified address (::)`;
  if (value === 1n) return `${address} is the loopback address (::1)`;
  const form = IPV6_CARRYING.find((f) => within(value, 128, f));
  if (form) {
    const carried = form.carried?.(value);
    const carriedRefusal = carried === undefined ? null : ipv4Refusal(carried);
    if (carriedRefusal) return `${address} is ${form.what} carrying ${dotted(carried!)}, ${carriedRefusal}`;
    if (form.judged) return null;
    return `${address} is ${form.what}, refused whatever IPv4 address it carries`;
  }
  const refused =
    IPV6_REFUSED.find((r) => within(value, 128, r)) ?? IPV6_NAMED_OUTSIDE.find((r) => within(value, 128, r));
  if (refused) return `${address} is ${refused.what}`;
  if (!within(value, 128, IPV6_GLOBAL_UNICAST))
    return `${address} is outside global unicast (2000::/3), where no public host is`;
  return null;
}

export function isBlockedAddress(address: string): boolean {
  return addressRefusal(address) !== null;
}
