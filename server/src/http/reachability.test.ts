import { describe, expect, it } from 'vitest';
import { judgeAddress, reachabilityOf, REACHABILITY_TEXT } from './reachability.ts';

describe('judgeAddress: can a game on Roblox reach the scripts’ address?', () => {
  it.each([
    ['https://moonrelay.games', true],
    ['https://relay.my-game.dev/moonrelay', true],
    ['http://relay.my-game.dev:8080', false],
    ['https://8.8.8.8', true],
    ['http://[2606:4700:4700::1111]:3000', false],
    ['https://some-random-words.trycloudflare.com', true],
    // A public name that ends like a local one, only not at a label's edge.
    ['https://mylocal.games', true],
  ])('%s is reachable (https: %s)', (address, https) => {
    expect(judgeAddress(address)).toEqual({ reachable: true, https });
  });

  it.each([
    ['http://localhost:3917', 'localhost is this machine’s own name'],
    ['http://LOCALHOST:3000', 'localhost is this machine’s own name'],
    ['http://app.localhost:3000', '.localhost'],
    ['http://127.0.0.1:3000', 'a loopback address (127.0.0.0/8)'],
    ['http://127.8.9.10', 'a loopback address'],
    ['http://[::1]:3000', 'the loopback address (::1)'],
    ['http://0.0.0.0:3000', '"this network"'],
    ['http://10.0.0.5:3000', 'a private address (10.0.0.0/8)'],
    ['http://172.16.3.4', 'a private address (172.16.0.0/12)'],
    ['http://172.31.255.254', 'a private address (172.16.0.0/12)'],
    ['http://192.168.1.20:3000', 'a private address (192.168.0.0/16)'],
    ['https://192.168.1.20', 'a private address (192.168.0.0/16)'],
    ['http://169.254.10.20', 'a link-local address'],
    ['http://100.64.0.1', 'carrier-grade NAT'],
    ['http://100.127.255.1', 'carrier-grade NAT'],
    ['http://[fd12:3456:789a::1]:3000', 'unique-local'],
    ['http://[fc00::1]', 'unique-local'],
    ['http://[fe80::1]', 'a link-local address (fe80::/10)'],
    ['http://[::ffff:192.168.0.1]', 'carrying 192.168.0.1, a private address'],
    ['http://203.0.113.7', 'a documentation address'],
    ['http://moonrelay:3000', 'moonrelay is a single-label name'],
    ['http://moonrelay.local:3000', 'ends in .local'],
    ['http://moonrelay.local.:3000', 'ends in .local'],
    ['http://box.internal', 'ends in .internal'],
    ['http://pi.lan', 'ends in .lan'],
    ['http://nas.home.arpa', 'ends in .home.arpa'],
    ['https://server.corp', 'ends in .corp'],
    ['https://moonrelay.test', 'ends in .test'],
  ])('%s is not reachable: %s', (address, why) => {
    const judged = judgeAddress(address);
    expect(judged.reachable).toBe(false);
    expect(judged.https).toBe(address.startsWith('https:'));
    expect(judged.problem).toContain(why);
    expect(judged.problem).toMatch(/^A game published on Roblox runs on Roblox’s servers, which cannot reach /);
  });

  it('names the host and port it judged', () => {
    expect(judgeAddress('http://localhost:3917').problem).toBe(
      'A game published on Roblox runs on Roblox’s servers, which cannot reach localhost:3917: localhost is this machine’s own name.',
    );
    expect(judgeAddress('http://10.1.2.3/moonrelay').problem).toContain(
      'cannot reach 10.1.2.3: 10.1.2.3 is a private address',
    );
  });
});

describe('reachabilityOf: the answer, worded for its reader', () => {
  it('tells an admin to set PUBLIC_URL, and a member to ask the operator', () => {
    const admin = reachabilityOf('http://localhost:3000', 'admin');
    expect(admin).toMatchObject({ reachable: false, address: 'http://localhost:3000', https: false });
    expect(admin.fix).toBe(REACHABILITY_TEXT.adminFix);
    expect(admin.fix).toContain('PUBLIC_URL');
    const member = reachabilityOf('http://localhost:3000', 'member');
    expect(member.problem).toBe(admin.problem);
    expect(member.fix).toBe('Ask the operator of this Moonrelay to set its public address.');
    expect(member.fix).not.toContain('PUBLIC_URL');
  });

  it('says nothing more about a public https address', () => {
    for (const audience of ['admin', 'member'] as const) {
      expect(reachabilityOf('https://moonrelay.games', audience)).toEqual({
        reachable: true,
        address: 'https://moonrelay.games',
        https: true,
      });
    }
  });

  it('notes plain http to an admin only, who can put HTTPS in front', () => {
    expect(reachabilityOf('http://moonrelay.games', 'admin')).toEqual({
      reachable: true,
      address: 'http://moonrelay.games',
      https: false,
      note: REACHABILITY_TEXT.plainHttp,
    });
    expect(reachabilityOf('http://moonrelay.games', 'member')).toEqual({
      reachable: true,
      address: 'http://moonrelay.games',
      https: false,
    });
  });
});
