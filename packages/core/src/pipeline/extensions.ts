import { isPlainObject, type Era, type JsonObject } from '@rondo/protocol';
import { ConfigurationError } from '../errors.js';
import type { Extension } from '../contracts/extension.js';
import type { ServerRuntime } from '../runtime.js';
import type { DescriptorKind } from '../contracts/extension.js';
import type { EraMethod } from './pipeline.js';

/**
 * An era's method table with the methods the server's extensions add for that era. An extension
 * may not replace a method of the era: that is a `ConfigurationError` when the first connection
 * opens.
 */
export function withExtensionMethods<S>(
  base: ReadonlyMap<string, EraMethod<S, never>>,
  runtime: ServerRuntime,
  era: Era,
): ReadonlyMap<string, EraMethod<S, never>> {
  const added = runtime.extensions.flatMap((extension) =>
    Object.entries(extension.methods ?? {}).filter(([, method]) => method.eras.includes(era)),
  );
  if (added.length === 0) return base;
  const table = new Map(base);
  for (const [name, method] of added) {
    if (table.has(name))
      throw new ConfigurationError(
        `an extension adds ${name}, which the ${era} era already serves`,
      );
    table.set(name, {
      params: method.params,
      handle: (call, params) => method.handle(params, call, runtime),
      ...(method.requires ? { requires: method.requires } : {}),
      ...(method.longLived ? { longLived: true } : {}),
    });
  }
  return table;
}

/** The param an extension method routes on (its `Mcp-Name` header), if it declares one. */
export function extensionNameParam(runtime: ServerRuntime, method: string): string | undefined {
  for (const extension of runtime.extensions) {
    const found = extension.methods?.[method];
    if (found) return found.nameParam;
  }
  return undefined;
}

/** A descriptor with the `_meta` members the server's extensions add to it (unchanged without any). */
export function decorateDescriptor(
  extensions: readonly Extension[],
  kind: DescriptorKind,
  definition: object,
  era: Era,
): object {
  let meta: JsonObject | undefined;
  for (const extension of extensions) {
    const added = extension.describe?.(kind, definition, era);
    if (added !== undefined) meta = { ...meta, ...added };
  }
  if (meta === undefined) return definition;
  const own = (definition as { _meta?: unknown })._meta;
  return { ...definition, _meta: isPlainObject(own) ? { ...own, ...meta } : meta };
}
