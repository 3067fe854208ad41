import type { BanPath } from '@moonrelay/contract/moderation';

/**
 * How a ban or unban reaches Roblox. Today always 'game': a live server of the owner's game runs
 * Players:BanAsync / UnbanAsync (one asked for while none is live waits, and goes when one
 * connects). Once the owner has an Open Cloud key with the user-restriction scope (the open-cloud
 * module), this answers 'open_cloud' instead: Roblox's user-restrictions API applies it without a
 * live server, and that path reports into the same rows through recordBanOutcome.
 */
export function chooseBanPath(owner: { hasOpenCloudKey: boolean }): BanPath {
  return owner.hasOpenCloudKey ? 'open_cloud' : 'game';
}
