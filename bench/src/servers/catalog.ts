/**
 * The tools every contender serves, described once so the SDK server, the Rondo server and the
 * ceiling's precomputed answers agree on names, schemas and results.
 */

/** A flat JSON Schema object, as tools and forms use. */
export interface ObjectSchema {
  [key: string]: string | string[] | Record<string, { type: 'string' | 'boolean' }>;
  type: 'object';
  properties: Record<string, { type: 'string' | 'boolean' }>;
  required: string[];
}

/** The echo tool's input schema: one string, `text`. */
export function textObjectSchema(): ObjectSchema {
  return { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
}

/** The yes/no form the MRTR tool asks with. */
export function confirmForm(): ObjectSchema {
  return { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
}

/** Names of the filler tools of the tools/list scenario. */
export function fillerToolNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `tool_${String(i).padStart(4, '0')}`);
}

/** The description of a filler tool: a realistic sentence, not an empty string. */
export function fillerDescription(name: string): string {
  return `Looks up ${name} records by text and returns the matching entries.`;
}

/** The echo tool's wire result (what every contender sends back for a call). */
export function echoResult(text: string): Record<string, unknown> {
  return { content: [{ type: 'text', text }], structuredContent: { text } };
}
