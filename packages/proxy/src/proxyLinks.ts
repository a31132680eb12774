import type { EraChoice } from '@rondo/client';
import type { ToolDefinition } from '@rondo/core';
import type { LoggingMessageNotificationParams } from '@rondo/protocol';
import type { ChangeRelay } from './changeRelay.js';
import type { ProxyOptions } from './proxyProvider.js';
import { forwardAnnouncements } from './upstreamAnnouncements.js';
import { UpstreamLink } from './upstreamLink.js';
import type { UpstreamSpec } from './upstreamSpec.js';

/** The primary connection to the upstream and, for `era: 'mirror'`, the maker of a legacy one. */
export function upstreamLinks(
  name: string,
  spec: UpstreamSpec,
  options: ProxyOptions,
  changes: ChangeRelay,
  singleCallLog: () => ((params: LoggingMessageNotificationParams) => void) | undefined,
): { primary: UpstreamLink; legacy: (() => UpstreamLink) | undefined } {
  // The client advertises every input capability: a question reaches the caller of the call it
  // belongs to (per-call handlers), and these only answer questions that belong to no call.
  const refuse = (): never => {
    throw new Error('The gateway has no call this question belongs to');
  };
  const primaryEra = options.era === 'mirror' || options.era === undefined ? 'auto' : options.era;
  const link = (era: EraChoice, primary: boolean): UpstreamLink =>
    new UpstreamLink(
      name,
      spec,
      { elicitation: refuse, sampling: refuse, roots: refuse },
      {
        connected: () => changes.all(),
        wire: (client) => forwardAnnouncements(client, changes, singleCallLog),
        ...(primary && options.onStatus ? { status: options.onStatus } : {}),
      },
      { ...options, era },
    );
  return {
    primary: link(primaryEra, true),
    legacy: options.era === 'mirror' ? () => link('2025-11-25', false) : undefined,
  };
}

/** A tool of the upstream's list as a definition, without its task support (see `taskSupport`). */
export function toolDefinition(tool: Record<string, unknown>): ToolDefinition {
  const { execution: _execution, ...rest } = tool;
  return rest as unknown as ToolDefinition;
}
