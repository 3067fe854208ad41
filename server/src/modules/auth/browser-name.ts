/**
 * A short reading of a User-Agent for the sessions list ("Firefox on Linux"): enough for a person to
 * tell their laptop from their phone. Not used for any decision; the full text is shown beside it.
 */
export function browserName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg(e|A|iOS)?\//.test(userAgent)
    ? 'Edge'
    : /OPR\/|Opera/.test(userAgent)
      ? 'Opera'
      : /Firefox\/|FxiOS\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\/|CriOS\/|Chromium\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : /^curl\//.test(userAgent)
              ? 'curl'
              : /^node|undici/i.test(userAgent)
                ? 'Node.js'
                : null;
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /CrOS/.test(userAgent)
            ? 'ChromeOS'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown browser';
}
