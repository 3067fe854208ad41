import { describe, expect, it } from 'vitest';
import { addressRefusal, isBlockedAddress } from './blocked-addresses.ts';

/**
 * Addresses as a resolver may answer them (any spelling Node's net.isIP takes), refused or not.
 * IPv6 forms that carry an IPv4 address are the ones a plain IPv6 range list lets through.
 */
const ADDRESSES: [address: string, refused: boolean, what: string][] = [
  ['93.184.215.14', false, 'public IPv4'],
  ['2606:4700::6810:84e5', false, 'public IPv6'],
  ['127.0.0.1', true, 'loopback'],
  ['169.254.169.254', true, 'metadata'],
  ['0.0.0.0', true, 'this network'],
  ['192.88.99.1', true, '6to4 relay anycast'],
  ['::', true, 'unspecified'],
  ['::1', true, 'IPv6 loopback'],
  ['fe80::1%eth0', true, 'link-local with a zone'],
  ['fec0::1', true, 'site-local'],
  ['3fff::1', true, 'documentation (RFC 9637)'],
  ['100::1', true, 'discard-only'],
  // IPv4-mapped (::ffff:0:0/96): the kernel dials the IPv4 address itself, so it is judged as that.
  ['::ffff:127.0.0.1', true, 'mapped loopback'],
  ['::ffff:7f00:1', true, 'mapped loopback, hex'],
  ['0:0:0:0:0:ffff:a9fe:a9fe', true, 'mapped metadata, uncompressed'],
  ['::FFFF:10.0.0.1', true, 'mapped private, upper case'],
  ['::ffff:93.184.215.14', false, 'mapped public'],
  ['::ffff:5db8:d70e', false, 'mapped public, hex'],
  // IPv4-compatible (::/96), deprecated: refused whatever it carries.
  ['::127.0.0.1', true, 'compatible loopback'],
  ['::7f00:1', true, 'compatible loopback, hex (how the URL parser writes [::127.0.0.1])'],
  ['::a9fe:a9fe', true, 'compatible metadata, hex'],
  ['::93.184.215.14', true, 'compatible public'],
  ['::5db8:d70e', true, 'compatible public, hex'],
  // IPv4-translated (::ffff:0:0:0/96, SIIT), obsolete: refused whatever it carries.
  ['::ffff:0:127.0.0.1', true, 'translated loopback'],
  ['::ffff:0:7f00:1', true, 'translated loopback, hex'],
  ['::ffff:0:5db8:d70e', true, 'translated public'],
  // NAT64 well-known prefix (64:ff9b::/96): DNS64 answers these for IPv4-only names on IPv6-only
  // networks, so a public IPv4 inside is allowed; a refused one is refused.
  ['64:ff9b::127.0.0.1', true, 'NAT64 loopback'],
  ['64:ff9b::7f00:1', true, 'NAT64 loopback, hex'],
  ['64:ff9b::a9fe:a9fe', true, 'NAT64 metadata'],
  ['64:ff9b::10.1.2.3', true, 'NAT64 private'],
  ['64:ff9b::5db8:d70e', false, 'NAT64 public'],
  // NAT64 local-use prefix (64:ff9b:1::/48): the operator's own translator, refused.
  ['64:ff9b:1::a00:1', true, 'local NAT64 private'],
  ['64:ff9b:1:ffff::5db8:d70e', true, 'local NAT64 public'],
  // 6to4 (2002::/16), deprecated: refused whatever it carries.
  ['2002:7f00:1::', true, '6to4 loopback'],
  ['2002:a9fe:a9fe::1', true, '6to4 metadata'],
  ['2002:5db8:d70e::1', true, '6to4 public'],
  // Teredo (2001::/32): refused whatever it carries.
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', true, 'Teredo, client 127.0.0.1'],
  ['2001:0:4136:e378:8000:63bf:a247:28f1', true, 'Teredo, public client'],
  ['2001:2::1', true, 'IPv6 benchmarking'],
  // Near the carrying forms but not in them: public.
  ['2001:4860:4860::8888', false, 'public, next to Teredo'],
  ['2003::1', false, 'public, next to 6to4'],
  // Outside global unicast (2000::/3) and not a form judged by its IPv4: nothing public lives there.
  ['::1:0:7f00:1', true, 'reserved, beside ::/96 and ::ffff:0:0/96'],
  ['5f00::1', true, 'SRv6 SIDs'],
  ['4000::1', true, 'unassigned'],
  ['64:ff9b:2::1', true, 'beside local NAT64'],
  ['not-an-address', true, 'not an address'],
];

describe('refused addresses', () => {
  it.each(ADDRESSES)('%s is refused: %s (%s)', (address, refused) => {
    expect(isBlockedAddress(address)).toBe(refused);
  });
});

describe('why an address is refused', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1 is a loopback address (127.0.0.0/8)'],
    ['::1', '::1 is the loopback address (::1)'],
    [
      '::7f00:1',
      '::7f00:1 is an IPv4-compatible address (::/96, deprecated) carrying 127.0.0.1, a loopback address (127.0.0.0/8)',
    ],
    [
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::a9fe:a9fe is a NAT64 address (64:ff9b::/96) carrying 169.254.169.254, a link-local address, where cloud metadata services answer (169.254.0.0/16)',
    ],
    [
      '2002:7f00:1::',
      '2002:7f00:1:: is a 6to4 address (2002::/16, deprecated) carrying 127.0.0.1, a loopback address (127.0.0.0/8)',
    ],
    [
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:0:4136:e378:8000:63bf:80ff:fffe is a Teredo address (2001::/32) carrying 127.0.0.1, a loopback address (127.0.0.0/8)',
    ],
    [
      '2002:5db8:d70e::1',
      '2002:5db8:d70e::1 is a 6to4 address (2002::/16, deprecated), refused whatever IPv4 address it carries',
    ],
    [
      '64:ff9b:1::a00:1',
      '64:ff9b:1::a00:1 is a local-use NAT64 address (64:ff9b:1::/48), refused whatever IPv4 address it carries',
    ],
    [
      'fd00:ec2::254',
      'fd00:ec2::254 is a unique-local (private) address (fc00::/7), the AWS metadata service’s included',
    ],
    ['64:ff9b::5db8:d70e', null],
  ])('%s: %s', (address, why) => {
    expect(addressRefusal(address)).toBe(why);
  });
});
