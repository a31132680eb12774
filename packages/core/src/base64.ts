/**
 * Base64 and base64url with the web platform's `btoa` / `atob`, so the core loads where `Buffer`
 * does not exist (Workers, Deno without Node compatibility, browsers).
 */

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** Standard Base64 (with padding) of some bytes. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

/** The bytes of a standard Base64 text; throws on characters outside the alphabet. */
export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Base64url without padding (RFC 4648 §5) of some bytes. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');
}

/** The bytes of a base64url text (padding optional); throws on characters outside the alphabet. */
export function base64UrlToBytes(text: string): Uint8Array {
  if (/[+/=]/.test(text.replace(/=+$/, ''))) throw new SyntaxError('Not base64url');
  return base64ToBytes(text.replaceAll('-', '+').replaceAll('_', '/'));
}

/** Base64url of a string's UTF-8 bytes. */
export function textToBase64Url(text: string): string {
  return bytesToBase64Url(utf8Encoder.encode(text));
}

/** The string whose UTF-8 bytes a base64url text holds; throws on bad Base64 or bad UTF-8. */
export function base64UrlToText(text: string): string {
  return utf8Decoder.decode(base64UrlToBytes(text));
}

/** The UTF-8 bytes of a string. */
export function utf8Bytes(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

/** `byteCount` cryptographically random bytes as base64url: an unguessable id of visible ASCII. */
export function randomToken(byteCount = 32): string {
  return bytesToBase64Url(crypto.getRandomValues(new Uint8Array(byteCount)));
}
