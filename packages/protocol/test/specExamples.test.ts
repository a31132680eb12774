import { expect, it } from 'vitest';
import type { z } from 'zod';
import {
  McpError,
  classifyMessage,
  isRequest,
  parseMessage,
  type JsonRpcMessage,
} from '../src/index.js';
import {
  ModernCancelledNotificationParamsSchema,
  describeZodError,
  modernNotificationParams,
  modernRequestParams,
  modernResults,
  modernServerNotificationParams,
  parseRequestParams,
} from '../src/internal.js';
import {
  describeWithSpec,
  loadSpecExamples,
  specAvailable,
  specDefinitions,
  specErrors,
  type SpecDefinition,
  type SpecExample,
} from '@rondo/test-support/specSchemas';
import {
  buildingBlocks,
  clientNotificationParams,
  clientNotifications,
  clientRequestParams,
  clientRequests,
  errorObjects,
  errorResponses,
  refusedExamples,
  serverNotifications,
  serverResultResponses,
  serverResults,
} from './specExampleChecks.js';

const examples = specAvailable()
  ? loadSpecExamples('2026-07-28')
  : new Map<string, SpecExample[]>();

function isRefused(example: SpecExample): boolean {
  return refusedExamples.some((r) => r.type === example.type && r.file === example.file);
}

function examplesOf(type: string): SpecExample[] {
  return examples.get(type) ?? [];
}

function cases(types: Iterable<string>): [string, SpecExample][] {
  return [...types].flatMap((type) =>
    examplesOf(type).map((example): [string, SpecExample] => [`${type}/${example.file}`, example]),
  );
}

function parsedMessage(example: SpecExample): JsonRpcMessage {
  const outcome = parseMessage(JSON.stringify(example.value));
  if (!outcome.ok)
    throw new Error(`${example.type}/${example.file}: ${outcome.error.error.message}`);
  return outcome.message;
}

function expectAccepted(schema: z.ZodType, value: unknown, root: string): void {
  const parsed = schema.safeParse(value);
  expect(parsed.success ? 'accepted' : describeZodError(parsed.error, root)).toBe('accepted');
}

/**
 * The spec's definitions of what a client sends: every message whose method is one of
 * `ClientRequest` / `ClientNotification`, and the params definitions they refer to.
 */
function clientMessageTypes(): Set<string> {
  const definitions = specDefinitions('2026-07-28');
  const methodOf = (definition: SpecDefinition | undefined): unknown =>
    (definition?.properties as { method?: { const?: unknown } } | undefined)?.method?.const;
  const membersOf = (name: string): string[] => {
    const union = definitions[name]?.anyOf as { $ref: string }[] | undefined;
    return union ? union.map((member) => member.$ref.split('/').pop()!) : [name];
  };
  const methods = new Set(
    [...membersOf('ClientRequest'), ...membersOf('ClientNotification')].map((name) =>
      methodOf(definitions[name]),
    ),
  );
  const types = new Set<string>();
  for (const [name, definition] of Object.entries(definitions)) {
    if (!methods.has(methodOf(definition))) continue;
    types.add(name);
    const params = (definition.properties as { params?: { $ref?: string } }).params?.$ref;
    if (params !== undefined) types.add(params.split('/').pop()!);
  }
  return types;
}

describeWithSpec('2026-07-28 spec examples', () => {
  it('maps every client request and notification example folder to a schema', () => {
    const mapped = new Set([
      ...Object.keys(clientRequests),
      ...Object.keys(clientRequestParams),
      ...Object.keys(clientNotifications),
      ...Object.keys(clientNotificationParams),
    ]);
    const clientTypes = clientMessageTypes();
    const unmapped = [...examples.keys()].filter(
      (type) => clientTypes.has(type) && !mapped.has(type),
    );
    expect(unmapped, `client message examples without a schema: ${unmapped.join(', ')}`).toEqual(
      [],
    );
    expect(clientTypes.has('CallToolRequest') && clientTypes.has('CallToolRequestParams')).toBe(
      true,
    );
  });

  it('maps every example folder to something that checks it', () => {
    const checked = new Set([
      ...Object.keys(clientRequests),
      ...Object.keys(clientRequestParams),
      ...Object.keys(clientNotifications),
      ...Object.keys(clientNotificationParams),
      ...Object.keys(serverResults),
      ...Object.keys(serverResultResponses),
      ...serverNotifications,
      ...Object.keys(buildingBlocks),
      ...Object.keys(errorResponses),
      ...Object.keys(errorObjects),
    ]);
    const unchecked = [...examples.keys()].filter((type) => !checked.has(type));
    expect(unchecked, `example folders nothing checks: ${unchecked.join(', ')}`).toEqual([]);
  });

  it.each(cases(Object.keys(clientRequests)))('accepts client request %s', (_name, example) => {
    const message = parsedMessage(example);
    expect(isRequest(message)).toBe(true);
    expect(classifyMessage(message)).toBe('modern');
    const method = clientRequests[example.type];
    expect('method' in message && message.method).toBe(method);
    const schema = modernRequestParams[method!];
    expect(schema).toBeDefined();
    const outcome = parseRequestParams(schema!, 'params' in message ? message.params : undefined);
    expect(outcome).toMatchObject({ ok: true });
  });

  it.each(cases(Object.keys(clientRequests)))(
    'refuses client request %s without its protocol version',
    (_name, example) => {
      const value = structuredClone(example.value) as { method: string; params: { _meta: object } };
      delete (value.params._meta as Record<string, unknown>)[
        'io.modelcontextprotocol/protocolVersion'
      ];
      const outcome = parseRequestParams(modernRequestParams[value.method]!, value.params);
      expect(outcome).toEqual({
        ok: false,
        message: 'params._meta["io.modelcontextprotocol/protocolVersion"]: expected string',
      });
    },
  );

  it.each(cases(Object.keys(clientRequestParams)))('accepts client params %s', (_name, example) => {
    for (const method of clientRequestParams[example.type]!) {
      const outcome = parseRequestParams(modernRequestParams[method]!, example.value);
      expect(outcome, method).toMatchObject({ ok: true });
    }
  });

  it.each(cases(Object.keys(clientNotifications)))(
    'accepts client notification %s',
    (_n, example) => {
      const message = parsedMessage(example);
      const method = clientNotifications[example.type]!;
      expect('method' in message && message.method).toBe(method);
      const params = 'params' in message ? message.params : undefined;
      expect(parseRequestParams(modernNotificationParams[method]!, params)).toMatchObject({
        ok: true,
      });
    },
  );

  it.each(cases(Object.keys(clientNotificationParams)))(
    'accepts notification params %s',
    (_n, ex) => {
      const method = clientNotificationParams[ex.type]!;
      expect(parseRequestParams(modernNotificationParams[method]!, ex.value)).toMatchObject({
        ok: true,
      });
    },
  );

  it.each(cases(Object.keys(serverResults)))('accepts server result %s', (_name, example) => {
    expectAccepted(serverResults[example.type]!, example.value, 'result');
  });

  it.each(cases(Object.keys(serverResultResponses)).filter(([, example]) => !isRefused(example)))(
    'accepts server response %s',
    (_name, example) => {
      const message = parsedMessage(example);
      const result = 'result' in message ? message.result : undefined;
      expectAccepted(modernResults[serverResultResponses[example.type]!]!, result, 'result');
    },
  );

  it.each(refusedExamples.map((r): [string, (typeof refusedExamples)[number]] => [r.file, r]))(
    'refuses %s, which the official schema accepts only through a loophole',
    (_name, refused) => {
      const example = examplesOf(refused.type).find((e) => e.file === refused.file);
      expect(
        example,
        `${refused.type}/${refused.file} is gone: drop it from the list`,
      ).toBeDefined();
      expect(specErrors('2026-07-28', refused.type, example!.value)).toEqual([]);
      const result = (example!.value as { result: unknown }).result;
      const parsed = modernResults[serverResultResponses[refused.type]!]!.safeParse(result);
      expect(parsed.success ? 'accepted' : describeZodError(parsed.error, 'result')).toBe(
        refused.because,
      );
    },
  );

  it.each(cases(serverNotifications))('accepts server notification %s', (_name, example) => {
    const message = parsedMessage(example);
    expect('method' in message).toBe(true);
    const method = (message as { method: string }).method;
    const schema = modernServerNotificationParams[method];
    expect(schema, method).toBeDefined();
    expectAccepted(schema!, 'params' in message ? message.params : {}, 'params');
  });

  it.each(cases(Object.keys(buildingBlocks)))('accepts %s', (_name, example) => {
    expectAccepted(buildingBlocks[example.type]!, example.value, example.type);
  });

  it('accepts the modern cancellation params', () => {
    const [example] = examplesOf('CancelledNotificationParams');
    expectAccepted(ModernCancelledNotificationParamsSchema, example?.value, 'params');
  });

  it.each(cases(Object.keys(errorResponses)))('reads error response %s', (_name, example) => {
    const message = parsedMessage(example);
    expect('error' in message && message.error.code).toBe(errorResponses[example.type]);
  });

  it.each(cases(Object.keys(errorObjects)))('matches the error code of %s', (_name, example) => {
    const error = example.value as { code: number; message: string; data?: unknown };
    expect(error.code).toBe(errorObjects[example.type]);
    expect(new McpError(error.code, error.message, error.data).toJson()).toEqual(error);
  });
});
