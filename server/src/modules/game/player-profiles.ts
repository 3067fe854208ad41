import { PLAYER_PROFILE_CACHE_MS } from '@moonrelay/contract/constants';
import type { PlayerProfile } from '@moonrelay/contract/game';
import { AppError } from '../../http/app-error.ts';
import { robloxImageUrl } from '../../http/image-sources.ts';

export const PROFILE_UNAVAILABLE = 'Player profile unavailable';
const FETCH_TIMEOUT_MS = 5_000;
const CACHE_MAX_ENTRIES = 5_000;

interface RobloxUser {
  id: number;
  name: string;
  displayName?: string;
  description?: string;
  created?: string;
  hasVerifiedBadge?: boolean;
}

interface Thumbnails {
  data?: { targetId: number; state: string; imageUrl: string | null }[];
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    headers: { accept: 'application/json' },
  });
  if (response.status === 404) throw new AppError(404, 'Player not found');
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/**
 * Player profiles from Roblox's users and thumbnails APIs. Game servers may not call roblox.com,
 * so Moonrelay does, and keeps each profile 10 minutes (concurrent requests for one player share a
 * fetch). A missing avatar does not sink the profile; Roblox being unreachable answers 502.
 */
export function createPlayerProfiles(config: { usersApiUrl: string; thumbnailsApiUrl: string }) {
  const cache = new Map<string, { profile: PlayerProfile; expiresAt: number }>();
  const inFlight = new Map<string, Promise<PlayerProfile>>();

  async function avatarUrl(userId: string): Promise<string | null> {
    try {
      const thumbnails = await getJson<Thumbnails>(
        `${config.thumbnailsApiUrl}/v1/users/avatar-headshot?userIds=${userId}&size=150x150&format=Png&isCircular=false`,
      );
      const entry = thumbnails.data?.find((item) => String(item.targetId) === userId);
      return entry?.state === 'Completed' && entry.imageUrl ? robloxImageUrl(entry.imageUrl) : null;
    } catch {
      return null;
    }
  }

  async function fetchProfile(userId: string): Promise<PlayerProfile> {
    let user: RobloxUser;
    try {
      user = await getJson<RobloxUser>(`${config.usersApiUrl}/v1/users/${userId}`);
      if (typeof user?.id !== 'number' || typeof user.name !== 'string') throw new Error('unexpected user shape');
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(502, PROFILE_UNAVAILABLE);
    }
    return {
      id: user.id,
      name: user.name,
      displayName: user.displayName || user.name,
      description: user.description ?? '',
      avatarUrl: await avatarUrl(userId),
      hasVerifiedBadge: user.hasVerifiedBadge === true,
      created: user.created ?? null,
    };
  }

  return {
    async get(userId: string): Promise<PlayerProfile> {
      const cached = cache.get(userId);
      if (cached && cached.expiresAt > Date.now()) return cached.profile;
      let pending = inFlight.get(userId);
      if (!pending) {
        pending = fetchProfile(userId).finally(() => inFlight.delete(userId));
        inFlight.set(userId, pending);
      }
      const profile = await pending;
      if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(userId, { profile, expiresAt: Date.now() + PLAYER_PROFILE_CACHE_MS });
      return profile;
    },
  };
}

export type PlayerProfiles = ReturnType<typeof createPlayerProfiles>;
