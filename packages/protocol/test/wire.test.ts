import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { z } from 'zod';
import {
  error,
  formElicitation,
  isPlainObject,
  results,
  roots,
  sampling,
  structured,
  text,
  type InputRequestBody,
} from '../src/index.js';
import {
  ContentBlockSchema,
  InputRequestSchema,
  InputRequiredResultSchema,
  LegacyCallToolResultSchema,
  LegacyGetPromptResultSchema,
  LegacyReadResourceResultSchema,
  ModernCallToolResultSchema,
  ModernGetPromptResultSchema,
  ModernReadResourceResultSchema,
  contentItemToWire,
  describeZodError,
  inputRequestToWire,
  inputResponseFromWire,
  legacyServerRequestParams,
  promptResultToWire,
  resourceContentToWire,
  resourceResultToWire,
  toolResultToWire,
} from '../src/internal.js';
import {
  SPEC_REVISIONS,
  assertSpecValid,
  describeWithSpec,
  loadSpecExamples,
  specErrors,
  type SpecRevision,
} from '@rondo/test-support/specSchemas';
import {
  inputRequestValue,
  contentItem,
  inputRequestBody,
  promptResult,
  resourceContent,
  resourceResult,
  toolResult,
} from './vocabularyArbitraries.js';

const LEGACY: readonly SpecRevision[] = ['2025-06-18', '2025-11-25'];
const runs = { numRuns: 200 };

/** The members a modern adapter adds to a finished result (and to cacheable ones). */
const complete = { resultType: 'complete' };
const cached = { ...complete, ttlMs: 60_000, cacheScope: 'private' };

function expectZodAccepts(schema: z.ZodType, value: unknown): void {
  const parsed = schema.safeParse(value);
  expect(parsed.success ? 'accepted' : describeZodError(parsed.error, 'value')).toBe('accepted');
}

/** The JSON-RPC request a legacy server sends for an input request. */
function legacyRequest(body: InputRequestBody): Record<string, unknown> {
  return { jsonrpc: '2.0', id: 1, ...inputRequestToWire(body) };
}

const legacyRequestDefinitions = {
  'elicitation/create': 'ElicitRequest',
  'sampling/createMessage': 'CreateMessageRequest',
  'roots/list': 'ListRootsRequest',
} as const;

describeWithSpec('vocabulary to wire, checked against the official JSON schemas', () => {
  it('has a live schema check: it refuses image data that is not base64', () => {
    const block = { type: 'image', data: 'not base64!', mimeType: 'image/png' };
    for (const revision of SPEC_REVISIONS) {
      expect(specErrors(revision, 'ContentBlock', block)).not.toEqual([]);
    }
  });

  it('turns content items into ContentBlocks of every revision', () => {
    fc.assert(
      fc.property(contentItem, (item) => {
        const wire = contentItemToWire(item);
        for (const revision of SPEC_REVISIONS) assertSpecValid(revision, 'ContentBlock', wire);
        expectZodAccepts(ContentBlockSchema, wire);
      }),
      runs,
    );
  });

  it('turns resource contents into Text- or BlobResourceContents', () => {
    fc.assert(
      fc.property(resourceContent, (content) => {
        const definition =
          content.kind === 'text_content' ? 'TextResourceContents' : 'BlobResourceContents';
        for (const revision of SPEC_REVISIONS) {
          assertSpecValid(revision, definition, resourceContentToWire(content));
        }
      }),
      runs,
    );
  });

  it('turns tool results into 2026-07-28 CallToolResults once resultType is added', () => {
    fc.assert(
      fc.property(toolResult, (result) => {
        const wire = { ...toolResultToWire(result), ...complete };
        assertSpecValid('2026-07-28', 'CallToolResult', wire);
        expectZodAccepts(ModernCallToolResultSchema, wire);
      }),
      runs,
    );
  });

  it('turns tool results into legacy CallToolResults exactly when structured content is an object', () => {
    fc.assert(
      fc.property(toolResult, (result) => {
        const wire = toolResultToWire(result);
        const legacyValid = result.kind !== 'structured' || isPlainObject(result.structured);
        for (const revision of LEGACY) {
          expect(specErrors(revision, 'CallToolResult', wire).length === 0).toBe(legacyValid);
        }
        expect(LegacyCallToolResultSchema.safeParse(wire).success).toBe(legacyValid);
      }),
      runs,
    );
  });

  it('sets isError when a tool result holds an error item, and only then', () => {
    expect(toolResultToWire(error('boom'))).toEqual({
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
    expect(toolResultToWire(results([text('a'), error('b')]))).toMatchObject({ isError: true });
    expect(toolResultToWire(structured({ n: 1 }, [error('partial')]))).toMatchObject({
      isError: true,
      structuredContent: { n: 1 },
    });
    expect(toolResultToWire(results([text('a')]))).not.toHaveProperty('isError');
  });

  it('turns prompt results into GetPromptResults of every revision', () => {
    fc.assert(
      fc.property(promptResult, (result) => {
        const wire = promptResultToWire(result);
        for (const revision of LEGACY) assertSpecValid(revision, 'GetPromptResult', wire);
        assertSpecValid('2026-07-28', 'GetPromptResult', { ...wire, ...complete });
        expectZodAccepts(LegacyGetPromptResultSchema, wire);
        expectZodAccepts(ModernGetPromptResultSchema, { ...wire, ...complete });
      }),
      runs,
    );
  });

  it('turns resource results into ReadResourceResults of every revision', () => {
    fc.assert(
      fc.property(resourceResult, (result) => {
        const wire = resourceResultToWire(result);
        for (const revision of LEGACY) assertSpecValid(revision, 'ReadResourceResult', wire);
        assertSpecValid('2026-07-28', 'ReadResourceResult', { ...wire, ...cached });
        expectZodAccepts(LegacyReadResourceResultSchema, wire);
        expectZodAccepts(ModernReadResourceResultSchema, { ...wire, ...cached });
      }),
      runs,
    );
  });

  it('turns input requests into 2025-11-25 server requests', () => {
    fc.assert(
      fc.property(inputRequestBody, (body) => {
        const request = legacyRequest(body);
        const method = request.method as keyof typeof legacyRequestDefinitions;
        assertSpecValid('2025-11-25', legacyRequestDefinitions[method], request);
        expectZodAccepts(legacyServerRequestParams[method]!, request.params);
      }),
      runs,
    );
  });

  it('turns input requests into a 2026-07-28 input_required result', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(inputRequestValue, { selector: (request) => request.key, minLength: 1 }),
        (requests) => {
          const inputRequests = Object.fromEntries(
            requests.map((request) => [request.key, inputRequestToWire(request.request)]),
          );
          const wire = { resultType: 'input_required', inputRequests, requestState: 'opaque' };
          assertSpecValid('2026-07-28', 'InputRequiredResult', wire);
          expectZodAccepts(InputRequiredResultSchema, wire);
          for (const request of Object.values(inputRequests)) {
            assertSpecValid('2026-07-28', 'InputRequest', request);
            expectZodAccepts(InputRequestSchema, request);
          }
        },
      ),
      runs,
    );
  });

  it('gives sampling requests a default maxTokens and keeps the options', () => {
    const wire = inputRequestToWire(
      sampling([{ role: 'user', content: text('hi') }], { systemPrompt: 's' }),
    );
    expect(wire).toEqual({
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 1000,
        systemPrompt: 's',
      },
    });
  });

  it('reads the spec example answers as input responses', () => {
    const examples = loadSpecExamples('2026-07-28');
    const answers: [string, InputRequestBody][] = [
      ['ElicitResult', formElicitation('name?', { type: 'object', properties: {} })],
      ['CreateMessageResult', sampling([{ role: 'user', content: text('hi') }])],
      ['ListRootsResult', roots()],
    ];
    for (const [type, body] of answers) {
      const found = examples.get(type) ?? [];
      expect(found.length).toBeGreaterThan(0);
      for (const example of found) {
        const response = inputResponseFromWire(body, example.value);
        expect(['accept', 'decline', 'cancel', 'sampling_result', 'roots_result']).toContain(
          response.kind,
        );
      }
    }
  });
});
