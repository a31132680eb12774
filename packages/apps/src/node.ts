import { readFile } from 'node:fs/promises';

/**
 * The HTML of a UI resource read from a file on every `resources/read` (so an edited App shows on
 * the next read), for `uiResource`'s `html`. Node only; the root entry stays portable.
 */
export function htmlFile(path: string): () => Promise<string> {
  return () => readFile(path, 'utf8');
}
