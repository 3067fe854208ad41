import type { ServerUrl, ServerUrlSource } from '../../http/server-url.ts';

/**
 * Who passkeys are made for: the origin the browser must report and the relying party id (its host
 * name) the credential is bound to. They come from the address Moonrelay is reached at, as loader URLs
 * do: PUBLIC_URL when set, otherwise the request's host only when it is one PUBLIC_HOSTS names, so a
 * forged Host header cannot have a passkey made or accepted for another site.
 */
export interface RelyingParty {
  origin: string;
  rpId: string;
}

export const relyingPartyOf = (serverUrl: ServerUrl, request: ServerUrlSource): RelyingParty => {
  const origin = new URL(serverUrl(request)).origin;
  return { origin, rpId: new URL(origin).hostname };
};
