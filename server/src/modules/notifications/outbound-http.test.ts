import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlockedAddress } from '../../security/blocked-addresses.ts';
import {
  ANSWER_READ_MAX_BYTES,
  OutboundError,
  postOutbound,
  systemNetwork,
  urlAllowed,
  urlRefusal,
  type OutboundNetwork,
  type SocketTarget,
} from './outbound-http.ts';

/** A network whose names resolve as the test says, recording every socket it is asked to open. */
function recordingNetwork(names: Record<string, string[]>) {
  const dialled: SocketTarget[] = [];
  const network: OutboundNetwork = {
    resolve: async (host) => {
      const found = names[host];
      if (!found) throw new Error('ENOTFOUND');
      return found;
    },
    openSocket: (target) => {
      dialled.push(target);
      // Only ever the local test server is really dialled.
      return systemNetwork.openSocket({ ...target, address: '127.0.0.1', tls: false });
    },
  };
  return { network, dialled };
}

describe('outbound webhook requests', () => {
  let port = 0;
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
      return res.end();
    }
    if (req.url === '/huge') {
      res.writeHead(200);
      // 1 MB, far beyond what is read.
      const chunk = Buffer.alloc(16 * 1024, 'x');
      for (let i = 0; i < 64; i++) res.write(chunk);
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('fine');
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['metadata', '169.254.169.254'],
    ['loopback', '127.0.0.1'],
    ['private', '10.1.2.3'],
    ['private 192.168', '192.168.1.1'],
    ['private 172.16', '172.20.0.5'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['IPv6 loopback', '::1'],
    ['unique-local', 'fd00::1'],
    ['AWS IPv6 metadata', 'fd00:ec2::254'],
    ['link-local IPv6', 'fe80::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private (hex)', '::ffff:a00:1'],
    ['IPv4-compatible loopback', '::7f00:1'],
    ['IPv4-translated loopback', '::ffff:0:7f00:1'],
    ['NAT64 loopback', '64:ff9b::7f00:1'],
    ['NAT64 metadata', '64:ff9b::a9fe:a9fe'],
    ['local-use NAT64', '64:ff9b:1::a00:1'],
    ['6to4 loopback', '2002:7f00:1::'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
  ])('refuses a name resolving to a %s address without dialling it', async (_kind, address) => {
    const { network, dialled } = recordingNetwork({ 'hooks.example.com': ['93.184.215.14', address] });
    await expect(
      postOutbound(network, new Set(), { url: 'https://hooks.example.com/x', headers: {}, body: '{}' }),
    ).rejects.toThrow(/address not allowed/);
    expect(dialled).toEqual([]);
  });

  it('refuses plain http and address literals of refused ranges before resolving anything', async () => {
    const { network, dialled } = recordingNetwork({});
    for (const url of ['http://hooks.example.com/x', 'https://10.0.0.1/x', 'https://[::1]/x', 'https://localhost/x'])
      await expect(postOutbound(network, new Set(), { url, headers: {}, body: '{}' })).rejects.toThrow(OutboundError);
    expect(dialled).toEqual([]);
  });

  it('dials a name resolving to a public IPv4 address behind the NAT64 prefix', async () => {
    const { network, dialled } = recordingNetwork({ 'hooks.example.com': ['64:ff9b::5db8:d70e'] });
    const answer = await postOutbound(network, new Set(), {
      url: `https://hooks.example.com:${port}/ok`,
      headers: {},
      body: '{}',
    });
    expect(answer.status).toBe(200);
    expect(dialled).toEqual([expect.objectContaining({ address: '64:ff9b::5db8:d70e' })]);
  });

  it('checks the address again at every attempt: a name that moved to a private address is refused', async () => {
    const names: Record<string, string[]> = { 'hooks.example.com': ['127.0.0.1'] };
    const { network, dialled } = recordingNetwork(names);
    // Allowed while it named the operator's allowed host's address...
    const allowed = new Set(['hooks.example.com']);
    expect(
      (await postOutbound(network, allowed, { url: `http://hooks.example.com:${port}/ok`, headers: {}, body: '{}' }))
        .status,
    ).toBe(200);
    // ...and refused once the allow-list no longer covers it.
    await expect(
      postOutbound(network, new Set(), { url: `https://hooks.example.com:${port}/ok`, headers: {}, body: '{}' }),
    ).rejects.toThrow(/address not allowed/);
    expect(dialled).toHaveLength(1);
  });

  it('dials the checked address (not the name again) and does not follow redirects', async () => {
    const { network, dialled } = recordingNetwork({ 'hooks.example.com': ['203.0.113.10'] });
    // 203.0.113.0/24 is a documentation range (refused); the allow-list lets this name through.
    const answer = await postOutbound(network, new Set(['hooks.example.com']), {
      url: `http://hooks.example.com:${port}/redirect`,
      headers: {},
      body: '{}',
    });
    expect(answer.status).toBe(302);
    expect(dialled).toEqual([
      expect.objectContaining({ address: '203.0.113.10', port, servername: 'hooks.example.com' }),
    ]);
    expect(seen.filter((url) => url === '/redirect')).toHaveLength(1);
  });

  it('reads at most 64 KB of an answer', async () => {
    const { network } = recordingNetwork({ '127.0.0.1': ['127.0.0.1'] });
    const answer = await postOutbound(network, new Set(['127.0.0.1']), {
      url: `http://127.0.0.1:${port}/huge`,
      headers: {},
      body: '{}',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(ANSWER_READ_MAX_BYTES);
  });

  it('knows public addresses from refused ones', () => {
    expect(isBlockedAddress('93.184.215.14')).toBe(false);
    expect(isBlockedAddress('2606:4700::6810:84e5')).toBe(false);
    expect(isBlockedAddress('0.0.0.0')).toBe(true);
    expect(isBlockedAddress('not-an-address')).toBe(true);
  });
});

/**
 * A destination's URL is judged by its address literal, as the URL parser rewrote what the user
 * typed, before any name is resolved.
 */
describe('refused addresses in a URL', () => {
  it.each([
    ['https://[::127.0.0.1]/x', false],
    ['https://[::7f00:1]/x', false],
    ['https://[0::127.0.0.1]/x', false],
    ['https://[64:ff9b::127.0.0.1]/x', false],
    ['https://[64:ff9b::a9fe:a9fe]/x', false],
    ['https://[::ffff:0:127.0.0.1]/x', false],
    ['https://[::ffff:127.0.0.1]/x', false],
    ['https://[2002:7f00:1::]/x', false],
    ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x', false],
    ['https://[64:ff9b:1::a00:1]/x', false],
    ['https://0x7f000001/x', false],
    ['https://127.1/x', false],
    ['https://localhost./x', false],
    ['https://api.localhost./x', false],
    ['https://[64:ff9b::93.184.215.14]/x', true],
    ['https://[::ffff:93.184.215.14]/x', true],
    ['https://hooks.example.com/x', true],
  ])('a URL written %s is allowed before resolving: %s', (url, allowed) => {
    expect(urlAllowed(new URL(url), new Set())).toBe(allowed);
  });

  it('names the address as the URL parser wrote it', () => {
    expect(urlRefusal(new URL('https://[::127.0.0.1]/x'), new Set())).toBe(
      '::7f00:1 is an IPv4-compatible address (::/96, deprecated) carrying 127.0.0.1, a loopback address (127.0.0.0/8)',
    );
    expect(urlRefusal(new URL('https://localhost./x'), new Set())).toBe('localhost. names this host (loopback)');
    expect(urlRefusal(new URL('https://[::7f00:1]/x'), new Set(['::7f00:1']))).toBeNull();
  });
});
