/** Times are stored and sent as ISO 8601 UTC strings with milliseconds, which sort as text. */
export const nowIso = (): string => new Date().toISOString();
export const isoPlus = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();
