/** The encodings the web app's files are stored in: brotli and gzip copies beside each original. */
export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** On a tie, the smaller transfer wins: brotli before gzip, either before the plain file. */
const BY_SIZE: ContentEncoding[] = ['br', 'gzip', 'identity'];

/** Below any weight a client can write (three decimals at most), above refusal. */
const UNNAMED_IDENTITY = 0.0001;

/** The weight a client gives each coding it names; a weight that is not a number counts as refusal. */
function weights(header: string): Map<string, number> {
  const named = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [coding, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (!coding) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((part) => part.trim());
      if (key !== 'q') continue;
      q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : 0;
    }
    named.set(coding, q);
  }
  return named;
}

/**
 * Picks how to send a file from the request's Accept-Encoding (RFC 9110 §12.5.3): the acceptable
 * coding with the highest weight, the smaller one on a tie. Browsers list `gzip, deflate, br`
 * with equal weights, and brotli is the smaller, so it wins there. No header, an unreadable one or
 * one refusing everything gets the plain file: an answer the client can always read.
 */
export function chooseEncoding(header: string | undefined): ContentEncoding {
  if (!header) return 'identity';
  const named = weights(header);
  const wildcard = named.get('*');
  // The plain file is acceptable unless refused, but a client that names codings would rather have them.
  const weightOf = (coding: ContentEncoding) =>
    named.get(coding) ?? wildcard ?? (coding === 'identity' ? UNNAMED_IDENTITY : 0);
  let best: ContentEncoding = 'identity';
  let bestWeight = 0;
  for (const coding of BY_SIZE) {
    const weight = weightOf(coding);
    if (weight > bestWeight) [best, bestWeight] = [coding, weight];
  }
  return best;
}
