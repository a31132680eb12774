/** A timer handle of any runtime: an object on Node and Bun, a number on Deno and Workers. */
export type TimerHandle = ReturnType<typeof setTimeout>;

/** Lets the process exit while `timer` is pending, where the runtime has that notion (Node, Bun). */
export function unrefTimer(timer: TimerHandle): TimerHandle {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
