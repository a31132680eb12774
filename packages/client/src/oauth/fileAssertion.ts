import { readFile, stat } from 'node:fs/promises';

/** Largest platform token file read: a JWT is a few KiB. */
const MAX_ASSERTION_FILE_BYTES = 64 * 1024;

/**
 * An assertion source for `workloadIdentity` that reads the platform token from a file before every
 * grant (a Kubernetes projected service-account token, a CI's OIDC token file), so a rotated token
 * is picked up. A file over 64 KiB is refused, not read.
 */
export function fileAssertion(path: string): () => Promise<string> {
  return async () => {
    const { size } = await stat(path);
    if (size > MAX_ASSERTION_FILE_BYTES) {
      throw new RangeError(`${path} holds ${size} bytes, more than a platform token`);
    }
    return readFile(path, 'utf8');
  };
}
