import type { CompletionRequest, CompletionResult, McpCall } from '@rondo/core';
import { LazyAbortController } from '@rondo/core/internal';
import type { Gate } from './gate.js';
import type { NameMap } from './names.js';
import { upstreamFailure } from './roundRunner.js';
import type { UpstreamLink } from './upstreamLink.js';

/** The upstream's reference for a completion reference of the catalog; `undefined`: not its. */
export function completionRef(
  ref: CompletionRequest['ref'],
  promptNames: NameMap,
  templateUris: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  if (ref.type !== 'ref/prompt') {
    return templateUris.has(ref.uri) ? { type: 'ref/resource', uri: ref.uri } : undefined;
  }
  const name = promptNames.upstream(ref.name);
  return name === undefined ? undefined : { type: 'ref/prompt', name };
}

/** `completion/complete` of `ref` at the upstream, in a slot of its gate; failures say which upstream. */
export async function completeUpstream(
  upstreamName: string,
  link: UpstreamLink,
  gate: Gate,
  ref: unknown,
  request: CompletionRequest,
  call: McpCall | undefined,
): Promise<CompletionResult> {
  // A completion asked outside a request is never cancelled.
  const cancellation = call?.cancellation ?? new LazyAbortController();
  try {
    return await gate.run(cancellation, async () => {
      const client = await link.client();
      const options = { cancellation };
      const result = await client.complete(
        ref as never,
        request.argument,
        request.context,
        options,
      );
      return result.completion;
    });
  } catch (error) {
    throw upstreamFailure(upstreamName, error);
  }
}
