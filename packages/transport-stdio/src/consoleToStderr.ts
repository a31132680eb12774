import { Console } from 'node:console';

/**
 * While a server speaks on stdout, a `console.log` from a handler would land between protocol
 * frames and break the client's parser. This points every console method at stderr (one console,
 * so `group` indentation and `count` stay consistent) and returns the function that puts back
 * whatever is still ours.
 */
export function consoleToStderr(): () => void {
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  const target = console as unknown as Record<string, unknown>;
  const source = toStderr as unknown as Record<string, unknown>;
  const saved = new Map<string, unknown>();
  for (const key of Object.keys(source)) {
    const method = source[key];
    if (typeof method !== 'function' || typeof target[key] !== 'function') continue;
    saved.set(key, target[key]);
    target[key] = method;
  }
  return () => {
    // A method someone replaced after us is theirs now: leave it.
    for (const [key, original] of saved) if (target[key] === source[key]) target[key] = original;
  };
}
