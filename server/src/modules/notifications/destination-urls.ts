import { NOTIFICATION_ERRORS, type NotificationDestinationKind } from '@moonrelay/contract/notifications';
import { urlRefusal } from './outbound-http.ts';

const DISCORD_PATH = /^\/api(?:\/v\d{1,2})?\/webhooks\/(\d{15,25})\/([A-Za-z0-9_-]{20,120})\/?$/;

export interface UrlRules {
  discordOrigins: readonly string[];
  allowedHosts: ReadonlySet<string>;
}

/**
 * Checks a destination's URL for its kind; answers the error to show, or the URL as stored and
 * the form screens show (the part that works as a password left out).
 */
export function checkDestinationUrl(
  kind: NotificationDestinationKind,
  raw: string,
  rules: UrlRules,
): { error: string } | { url: string; masked: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {
      error: kind === 'discord' ? NOTIFICATION_ERRORS.discordUrlInvalid : NOTIFICATION_ERRORS.webhookUrlInvalid,
    };
  }
  if (kind === 'discord') {
    const match = DISCORD_PATH.exec(url.pathname);
    if (!rules.discordOrigins.includes(url.origin) || !match || url.username || url.password || url.hash)
      return { error: NOTIFICATION_ERRORS.discordUrlInvalid };
    return {
      url: `${url.origin}${url.pathname.replace(/\/$/, '')}`,
      masked: `${url.origin}/api/webhooks/${match[1]}/…`,
    };
  }
  if (url.username || url.password) return { error: NOTIFICATION_ERRORS.webhookUrlInvalid };
  const refusal = urlRefusal(url, rules.allowedHosts);
  if (refusal !== null) {
    // An https URL can only be refused for its host: say which range it is in (an IPv6 form
    // carrying a refused IPv4 address names that address), not only that it is refused.
    return {
      error:
        url.protocol === 'https:'
          ? `${NOTIFICATION_ERRORS.webhookUrlNotAllowed}: ${refusal}`
          : NOTIFICATION_ERRORS.webhookUrlInvalid,
    };
  }
  const hidden = url.pathname.length > 1 || url.search ? '/…' : '/';
  return { url: url.toString(), masked: `${url.origin}${hidden}` };
}
