/** Random bytes in a task id: 144 bits, above the 128 a guess must beat. */
const TASK_ID_BYTES = 18;

/**
 * A new task id: 144 random bits from the platform's `crypto.getRandomValues` (Node, Deno, Bun,
 * Workers and browsers all have it), base64url-encoded. A task id is a bearer name for stored
 * state, so it must not be guessable.
 */
export function newTaskId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(TASK_ID_BYTES));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_');
}
