import net from 'node:net';
import type { IntegrationReachability } from '@moonrelay/contract/game';
import { addressRefusal } from '../security/blocked-addresses.ts';

/**
 * Whether a game on Roblox can reach the address written into the integration scripts. A published
 * game runs on Roblox's servers, out on the internet: it can call only a public address. This is
 * judged from the address alone, without DNS (a lookup here would say what this machine sees, not
 * what Roblox sees), so a public name that resolves to a private address is not caught; what a name
 * or IP literal says by itself is.
 */

/**
 * Suffixes only a local network resolves: mDNS (.local), the names RFC 6761 and RFC 8375 set
 * aside, and the ones home routers and clouds' private DNS hand out. `.internal` is ICANN's
 * private-use top-level domain.
 */
const LOCAL_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'lan',
  'home',
  'home.arpa',
  'localdomain',
  'intranet',
  'corp',
  'private',
  'test',
  'invalid',
  'example',
];

export interface AddressJudgement {
  reachable: boolean;
  https: boolean;
  /** Why a game on Roblox cannot reach it, in words; absent when it can. */
  problem?: string;
}

/** Why the host of a URL (hostname as URL gives it: lower case, IPv6 in brackets) is not public, or null. */
function hostProblem(hostname: string): string | null {
  const host = hostname.replace(/\.$/, '');
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (net.isIP(literal)) {
    const refusal = addressRefusal(literal);
    return refusal && `${refusal}, which is not on the public internet`;
  }
  if (host === 'localhost') return 'localhost is this machine’s own name';
  const suffix = LOCAL_SUFFIXES.find((name) => host.endsWith(`.${name}`));
  if (suffix) return `${host} ends in .${suffix}, a name only a local network knows`;
  if (!host.includes('.')) return `${host} is a single-label name, which only a local network knows`;
  return null;
}

/** Judges a base URL of the integration scripts (http or https; normaliseServerUrl has checked it). */
export function judgeAddress(address: string): AddressJudgement {
  const url = new URL(address);
  const https = url.protocol === 'https:';
  const problem = hostProblem(url.hostname);
  if (problem === null) return { reachable: true, https };
  return {
    reachable: false,
    https,
    problem: `A game published on Roblox runs on Roblox’s servers, which cannot reach ${url.host}: ${problem}.`,
  };
}

/** Who reads the answer: only an admin runs Moonrelay's settings, so only an admin is told to change them. */
export type Audience = 'admin' | 'member';

export const REACHABILITY_TEXT = {
  adminFix:
    'Set PUBLIC_URL to the public https address games reach this Moonrelay at (a domain with HTTPS in front, or a tunnel while you try it from home), then restart Moonrelay.',
  memberFix: 'Ask the operator of this Moonrelay to set its public address.',
  plainHttp:
    'This address is plain http: Roblox can call it, but the game key in the scripts crosses the internet unencrypted. Put HTTPS in front of Moonrelay and set PUBLIC_URL to the https address.',
} as const;

/** The `reachability` of the integration-scripts answer for this address and reader. */
export function reachabilityOf(address: string, audience: Audience): IntegrationReachability {
  const { reachable, https, problem } = judgeAddress(address);
  if (!reachable) {
    const fix = audience === 'admin' ? REACHABILITY_TEXT.adminFix : REACHABILITY_TEXT.memberFix;
    return { reachable, address, https, problem, fix };
  }
  // Advice a member could not act on is left out: the scripts work as they are.
  if (!https && audience === 'admin') return { reachable, address, https, note: REACHABILITY_TEXT.plainHttp };
  return { reachable, address, https };
}
