/** A PKCE pair (RFC 7636): the verifier kept by the client, the S256 challenge sent ahead. */
export interface Pkce {
  verifier: string;
  challenge: string;
}

/** A fresh verifier of 32 random bytes (43 characters) and its S256 challenge, from Web Crypto. */
export async function createPkce(): Promise<Pkce> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

/** A random opaque value for `state`. */
export function randomState(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
