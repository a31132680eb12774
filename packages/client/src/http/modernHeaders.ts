import type { HeaderSource } from '../openRequest.js';
import type { ToolCatalog } from '../tools.js';
import { paramHeaders, standardHeaders } from './toolHeaders.js';

/**
 * The HTTP headers of a 2026-07-28 request at one negotiated revision: `MCP-Protocol-Version`, the
 * standard headers that mirror the method and name, and for `tools/call` the `Mcp-Param-*` headers
 * its tool declares. Asked only by transports that send headers (HTTP), so stdio pays nothing.
 */
export class ModernHeaders implements HeaderSource {
  constructor(
    private readonly protocolVersion: string,
    private readonly tools: ToolCatalog,
  ) {}

  headersFor(method: string, params: Record<string, unknown> | undefined): Record<string, string> {
    const headers = {
      'MCP-Protocol-Version': this.protocolVersion,
      ...standardHeaders(method, params),
    };
    if (method !== 'tools/call' || typeof params?.name !== 'string') return headers;
    const args = params.arguments as Record<string, unknown> | undefined;
    return { ...headers, ...paramHeaders(this.tools.headersOf(params.name), args) };
  }
}
