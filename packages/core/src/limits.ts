import { ErrorCode, McpError } from '@rondo/protocol';

/** Limits a server puts on what a request may carry, checked before any recursive walk. */
export interface ServerLimits {
  /**
   * How deeply a tool's or a prompt's `arguments` may nest (default 64): the object itself is
   * level 1, each object or array inside it one more. Deeper arguments are refused with -32602
   * before validation, so no validator or provider walks them on the call stack.
   */
  maxArgumentDepth?: number;
}

/** The default of {@link ServerLimits.maxArgumentDepth}. */
export const DEFAULT_MAX_ARGUMENT_DEPTH = 64;

/** The default of `ServerOptions.maxPageBytes`: 4 MiB of descriptors per list page. */
export const DEFAULT_MAX_PAGE_BYTES = 4 * 1024 * 1024;

/** Limits up to this are walked by recursion, which allocates nothing: as many frames at most. */
const RECURSIVE_WALK_LIMIT = 256;

/**
 * True when `value` nests objects or arrays more than `limit` levels deep (a scalar is level 0, an
 * object or array one more than its deepest member). Stops at the first member past the limit, so
 * the walk never goes more than `limit` levels down: within a few hundred levels on the call stack
 * (every message a client or a server decodes is walked here, and recursion allocates nothing),
 * past that with its own stack.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return limit <= RECURSIVE_WALK_LIMIT ? deeperWithin(value, limit) : deeperByStack(value, limit);
}

/** True when container `value` (one level) holds more than `levels` levels, itself included. */
function deeperWithin(value: object, levels: number): boolean {
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const member of value as unknown[]) {
      if (typeof member === 'object' && member !== null && deeperWithin(member, levels - 1))
        return true;
    }
    return false;
  }
  for (const key in value) {
    // Own members only, as Object.values gives them.
    if (!Object.hasOwn(value, key)) continue;
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === 'object' && member !== null && deeperWithin(member, levels - 1))
      return true;
  }
  return false;
}

/** {@link nestsDeeperThan} for a limit too deep for the call stack. */
function deeperByStack(value: object, limit: number): boolean {
  const pending: { value: object; depth: number }[] = [{ value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.depth > limit) return true;
    const members = Array.isArray(next.value) ? next.value : Object.values(next.value);
    for (const member of members as unknown[]) {
      if (typeof member === 'object' && member !== null)
        pending.push({ value: member, depth: next.depth + 1 });
    }
  }
  return false;
}

/** Refuses (-32602, naming the limit) arguments nesting deeper than `limit` levels. */
export function checkArgumentDepth(args: unknown, limit: number): void {
  if (!nestsDeeperThan(args, limit)) return;
  throw new McpError(
    ErrorCode.InvalidParams,
    `Invalid params: arguments nest deeper than ${limit} levels (limit maxArgumentDepth)`,
    { limit: 'maxArgumentDepth', maxArgumentDepth: limit },
  );
}

/** A tool's arguments once admitted: the object, or why the tool answers with an error. */
export type AdmittedArguments =
  { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/**
 * Admits a tool's arguments: too deep is -32602 (thrown); absent is `{}`; anything but an object
 * is a tool error, as a failed validation is.
 */
export function admitToolArguments(name: string, args: unknown, limit: number): AdmittedArguments {
  checkArgumentDepth(args, limit);
  const given = args === undefined ? {} : args;
  if (typeof given === 'object' && given !== null && !Array.isArray(given))
    return { ok: true, value: given as Record<string, unknown> };
  return {
    ok: false,
    message: `Invalid arguments for tool "${name}": arguments must be an object`,
  };
}
