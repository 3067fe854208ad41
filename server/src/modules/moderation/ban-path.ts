import type { BanPath } from '@moonrelay/contract/moderation';

/**
 * How a ban or unban reaches Roblox. An owner who saved an Open Cloud key (the open-cloud module)
 * gets 'open_cloud': Roblox's user-restrictions API applies it with no live server, paced to
 * Roblox's limits, and reports into the same rows through recordBanOutcome. Otherwise 'game': a
 * live server of the owner's game runs Players:BanAsync / UnbanAsync (one asked for while none is
 * live waits, and goes when one connects).
 */
export function chooseBanPath(owner: { hasOpenCloudKey: boolean }): BanPath {
  return owner.hasOpenCloudKey ? 'open_cloud' : 'game';
}
