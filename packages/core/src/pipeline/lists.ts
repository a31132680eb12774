import { withSerializedJson } from '@rondo/protocol';
import type { Catalog } from '../catalog.js';
import type { CatalogMemo } from '../catalogMemo.js';
import type { CompletionRequest } from '../definitions.js';
import { paginate } from '../pagination.js';
import type { RondoServer } from '../server.js';
import type { WireResult } from './pipeline.js';

/** The four catalog lists, as every era pages them. */
export type ListMethod =
  'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

/** What kind of descriptor a list holds, for eras that shape descriptors per revision. */
export type DescriptorKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

interface ListKind {
  readonly member: string;
  readonly kind: DescriptorKind;
  entries(catalog: Catalog): readonly { definition: object }[];
}

const LISTS: Readonly<Record<ListMethod, ListKind>> = {
  'tools/list': { member: 'tools', kind: 'tool', entries: (c) => c.tools },
  'prompts/list': { member: 'prompts', kind: 'prompt', entries: (c) => c.prompts },
  'resources/list': { member: 'resources', kind: 'resource', entries: (c) => c.resources },
  'resources/templates/list': {
    member: 'resourceTemplates',
    kind: 'resourceTemplate',
    entries: (c) => c.templates,
  },
};

/** How an era finishes a list page: each descriptor's shape, then the whole page's. */
export interface PageShape {
  /** A key naming everything the shape depends on besides the cursor (a revision, a cache policy). */
  readonly variant: string;
  descriptor(kind: DescriptorKind, definition: object): unknown;
  page(result: WireResult): WireResult;
}

/**
 * One page of a catalog list, in catalog (registration) order so pages are deterministic. A page is
 * built, shaped and serialised once per catalog, variant and cursor, then reused as it is.
 */
export function listPage(
  server: RondoServer,
  memo: CatalogMemo<WireResult>,
  method: ListMethod,
  cursor: string | undefined,
  shape: PageShape,
): WireResult {
  const list = LISTS[method];
  const catalog = server.catalog;
  const key = `${method}\u0000${shape.variant}\u0000${String(cursor)}`;
  return memo.get(catalog, key, () => {
    const page = paginate(list.entries(catalog), cursor, server.pageSize);
    const result: WireResult = {
      [list.member]: page.items.map((entry) => shape.descriptor(list.kind, entry.definition)),
    };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return withSerializedJson(shape.page(result));
  });
}

/** The params of `completion/complete` as both eras' schemas accept them. */
export interface CompleteParams {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

/** Answers `completion/complete` with the values for one argument of a prompt or template. */
export async function completeArgument(
  server: RondoServer,
  params: CompleteParams,
): Promise<WireResult> {
  const { ref, argument, context } = params;
  const request: CompletionRequest = {
    ref:
      ref.type === 'ref/prompt'
        ? { type: ref.type, name: ref.name }
        : { type: ref.type, uri: ref.uri },
    argument: { name: argument.name, value: argument.value },
  };
  if (context?.arguments !== undefined) request.context = { arguments: context.arguments };
  const completion = await server.complete(request);
  const wire: WireResult = { values: completion.values };
  if (completion.total !== undefined) wire.total = completion.total;
  if (completion.hasMore !== undefined) wire.hasMore = completion.hasMore;
  return { completion: wire };
}
