/**
 * Where the pages' images may come from, besides Moonrelay itself and data:/blob: URLs (the
 * two-factor QR code, downloads): Roblox's image CDN, which the thumbnails API answers for player
 * avatars and game icons (tr.rbxcdn.com and its numbered siblings), and the script catalogue's own
 * site, which serves its script images. The Content-Security-Policy allows exactly these, and image
 * addresses from those third parties that point anywhere else are dropped before the page sees them,
 * so a page never asks for an image the policy would refuse.
 */
export const ROBLOX_IMAGE_SOURCE = 'https://*.rbxcdn.com';

export interface ImageSources {
  /** The script catalogue's site (SCRIPTBLOX_SITE_URL): its origin serves the catalogue's images. */
  catalogueSiteUrl: string;
}

/** The img-src sources besides 'self' data: blob:. */
export function imageSourcesOf(sources: ImageSources): string[] {
  return [ROBLOX_IMAGE_SOURCE, new URL(sources.catalogueSiteUrl).origin];
}

const parsed = (value: string): URL | null => {
  try {
    return new URL(value);
  } catch {
    return null;
  }
};

/** The URL when it is an image on Roblox's CDN (https, a *.rbxcdn.com host), else null. */
export function robloxImageUrl(value: string): string | null {
  const url = parsed(value);
  return url?.protocol === 'https:' && url.hostname.endsWith('.rbxcdn.com') && url.port === '' ? value : null;
}

/** The URL when a page may show it under the policy (on Roblox's CDN or the catalogue's site), else null. */
export function shownImageUrl(value: string, sources: ImageSources): string | null {
  const url = parsed(value);
  if (url && url.origin === new URL(sources.catalogueSiteUrl).origin) return value;
  return robloxImageUrl(value);
}
