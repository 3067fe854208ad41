/**
 * An image address from a third party (an avatar, say) as the browser may load it: an https: URL,
 * or nothing. Any other scheme (javascript:, data:, http:) from a misbehaving upstream is dropped.
 */
export function httpsUrlOrNull(value: string): string | null {
  try {
    return new URL(value).protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}
