import { decorateDescriptor } from './extensions.js';
import { withSerializedJson } from '@rondo/protocol';
import type { Catalog, CatalogList } from '../catalog.js';
import type { CatalogMemo } from '../catalogMemo.js';
import type { CompletionRequest, Principal } from '../contracts/definitions.js';
import { isListResult, type ListResult, type McpResult } from '../contracts/middleware.js';
import { isVisible, type Visibility } from '../visibility.js';
import type { RequestCall } from './call.js';
import { paginate } from '../pagination.js';
import type { ServerRuntime } from '../runtime.js';
import type { WireResult } from './pipeline.js';
import type { DescriptorKind } from '../contracts/extension.js';

/** The four catalog lists, as every era pages them. */
export type ListMethod =
  'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

/** What kind of descriptor a list holds, for eras that shape descriptors per revision. */
interface ListKind {
  readonly member: string;
  readonly kind: DescriptorKind;
  readonly list: CatalogList;
}

const LISTS: Readonly<Record<ListMethod, ListKind>> = {
  'tools/list': { member: 'tools', kind: 'tool', list: 'tools' },
  'prompts/list': { member: 'prompts', kind: 'prompt', list: 'prompts' },
  'resources/list': { member: 'resources', kind: 'resource', list: 'resources' },
  'resources/templates/list': {
    member: 'resourceTemplates',
    kind: 'resourceTemplate',
    list: 'templates',
  },
};

/** How an era finishes a list page: each descriptor's shape, then the whole page's. */
export interface PageShape {
  /** A key naming everything the shape depends on besides the cursor (a revision, a cache policy). */
  readonly variant: string;
  descriptor(kind: DescriptorKind, definition: object): unknown;
  page(result: WireResult): WireResult;
}

/** True when what a list shows depends on the caller (some entry has a visibility rule). */
export function listVariesByCaller(runtime: ServerRuntime, method: ListMethod): boolean {
  return runtime.catalog.variesByCaller(LISTS[method].list);
}

/**
 * One page of a catalog list, in catalog (registration) order so pages are deterministic, with
 * only the entries the caller may see. Middleware sees the page's descriptors and may return
 * others. A page is shaped and serialised once per catalog, variant, visible set and cursor, then
 * reused as it is, unless middleware changed it.
 */
export async function listPage(
  call: RequestCall,
  runtime: ServerRuntime,
  memo: CatalogMemo<WireResult>,
  method: ListMethod,
  cursor: string | undefined,
  shape: PageShape,
): Promise<WireResult> {
  const list = LISTS[method];
  const catalog = runtime.catalog;
  const extensions = runtime.extensions;
  const { entries, signature } = visibleEntries(catalog, list.list, call.principal);
  const key = `${method}\u0000${shape.variant}\u0000${signature}\u0000${String(cursor)}`;
  const finish = (page: ListResult): WireResult => {
    const result: WireResult = {
      [list.member]: page.items.map((definition) =>
        shape.descriptor(
          list.kind,
          decorateDescriptor(extensions, list.kind, definition, call.era),
        ),
      ),
    };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return withSerializedJson(shape.page(result));
  };
  const pageOf = (): ListResult => {
    const page = paginate(entries, cursor, runtime.pageSize, {
      max: runtime.maxPageBytes,
      sizeOf: (entry) => jsonBytes(entry.definition),
    });
    const items = page.items.map((entry) => entry.definition);
    return page.nextCursor === undefined ? { items } : { items, nextCursor: page.nextCursor };
  };
  if (call.middleware.length === 0) return memo.get(catalog, key, () => finish(pageOf()));
  const original = pageOf();
  const seen = await call.intercept(async (): Promise<McpResult> => original);
  if (seen === original) return memo.get(catalog, key, () => finish(original));
  if (!isListResult(seen)) throw new Error(`a middleware answered ${method} with no list page`);
  return finish(seen);
}

const encoder = new TextEncoder();

/** The size of a descriptor as JSON, in UTF-8 bytes. */
function jsonBytes(definition: object): number {
  return encoder.encode(JSON.stringify(definition)).length;
}

/** The entries of a list the caller may see, and a key naming which those are. */
function visibleEntries(
  catalog: Catalog,
  list: CatalogList,
  principal: Principal | undefined,
): { entries: readonly { definition: object; visible?: Visibility }[]; signature: string } {
  const all: readonly { definition: object; visible?: Visibility }[] = catalog[list];
  if (!catalog.variesByCaller(list)) return { entries: all, signature: '' };
  const shown: { definition: object; visible?: Visibility }[] = [];
  let signature = '';
  all.forEach((entry, index) => {
    if (isVisible(entry.visible, principal)) shown.push(entry);
    else signature += `${index},`;
  });
  return { entries: shown, signature };
}

/** The params of `completion/complete` as both eras' schemas accept them. */
export interface CompleteParams {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

/** Answers `completion/complete` with the values for one argument of a prompt or template. */
export async function completeArgument(
  call: RequestCall,
  runtime: ServerRuntime,
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
  const completion = await call.intercept(() => runtime.complete(request, call.principal, call));
  const wire: WireResult = { values: completion.values };
  if (completion.total !== undefined) wire.total = completion.total;
  if (completion.hasMore !== undefined) wire.hasMore = completion.hasMore;
  return { completion: wire };
}
