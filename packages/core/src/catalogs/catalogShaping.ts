import type { ToolDefinition } from '../contracts/definitions.js';
import type { Provider } from '../contracts/provider.js';
import {
  checkToolTransform,
  deriveTool,
  ToolTransformError,
  type ToolTransform,
} from './toolTransform.js';

/** How a tool behind tool search is told apart: the search provider's own tools and pinned ones stay listed. */
export interface SearchShaping {
  readonly provider: Provider;
  readonly pinned: ReadonlySet<string>;
}

/**
 * The catalog transforms of one server, applied each time its catalog is built: tools derived
 * from others (by the name the server offers the original under) and tool search.
 */
export class CatalogShaping {
  private readonly transforms = new Map<string, ToolTransform>();
  search: SearchShaping | undefined;

  /** Adds transforms, checking what can be checked before the tools are known. */
  addTransforms(transforms: Readonly<Record<string, ToolTransform>>): void {
    for (const [tool, spec] of Object.entries(transforms)) {
      checkToolTransform(tool, spec);
      this.transforms.set(tool, spec);
    }
  }

  /** The transform of the tool offered as `name`, if any. */
  transformOf(name: string): ToolTransform | undefined {
    return this.transforms.get(name);
  }

  /** True when a tool stays in `tools/list` (not behind tool search). */
  lists(provider: Provider, name: string): boolean {
    if (provider.listsTool?.(name) === false) return false;
    const search = this.search;
    return search === undefined || provider === search.provider || search.pinned.has(name);
  }
}

/** What a tool becomes in a catalog: the descriptors offered for it (derived, original or both). */
export type ShapedTool =
  | { kind: 'original' }
  | { kind: 'derived'; derived: ReturnType<typeof deriveTool>; keepOriginal: boolean }
  | { kind: 'refused'; error: ToolTransformError };

/** Applies the transform of `definition`, if any; a transform that does not fit is refused. */
export function shapeTool(
  shaping: CatalogShaping | undefined,
  definition: ToolDefinition,
): ShapedTool {
  const spec = shaping?.transformOf(definition.name);
  if (spec === undefined) return { kind: 'original' };
  try {
    return {
      kind: 'derived',
      derived: deriveTool(definition, spec),
      keepOriginal: spec.keepOriginal === true,
    };
  } catch (failure) {
    if (failure instanceof ToolTransformError) return { kind: 'refused', error: failure };
    throw failure;
  }
}
