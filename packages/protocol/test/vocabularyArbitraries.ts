import fc from 'fast-check';
import {
  accept,
  audio,
  blobContent,
  cancel,
  complete,
  contents,
  decline,
  embeddedResource,
  error,
  formElicitation,
  image,
  inputRequest,
  inputRequired,
  message,
  messages,
  resourceLink,
  results,
  roots,
  sampling,
  structured,
  text,
  textContent,
  urlElicitation,
  type Annotations,
  type ContentItem,
  type InputRequest,
  type InputRequestBody,
  type InputResponseValue,
  type Json,
  type JsonObject,
  type PromptResult,
  type ResourceContent,
  type ResourceResult,
  type SamplingRequest,
  type ToolResult,
  type VocabularyValue,
} from '../src/index.js';

/**
 * fast-check arbitraries for every vocabulary form, built with the constructors. Free-form parts
 * (structured content, meta, states, accepted content) are any JSON; the parts that become wire
 * JSON with a shape of its own (form schemas, model preferences, sampling tools, URIs, base64)
 * are generated valid for the spec, so the same values serve the wire tests.
 */

/** Any value JSON can carry (`-0` is not one: it reads back as `0`). */
export const json: fc.Arbitrary<Json> = fc
  .jsonValue({ maxDepth: 3 })
  .map((value) => JSON.parse(JSON.stringify(value)) as Json);

/** Any JSON object. */
export const jsonObject: fc.Arbitrary<JsonObject> = fc
  .dictionary(fc.string(), json, { maxKeys: 4 })
  .map((value) => JSON.parse(JSON.stringify(value)) as JsonObject);

/** Builds a record whose listed keys may be absent, as JSON (no null prototypes). */
function partial<T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<Partial<T>> {
  return fc.record(model, { requiredKeys: [], noNullPrototype: true }) as fc.Arbitrary<Partial<T>>;
}

const unit = fc.integer({ min: 0, max: 100 }).map((n) => n / 100);
const uri = fc.oneof(
  fc.webUrl(),
  fc.stringMatching(/^[a-z]{1,8}$/).map((name) => `file:///project/${name}.txt`),
);
const mimeType = fc.constantFrom('text/plain', 'text/markdown', 'image/png', 'audio/wav');
const base64 = fc.base64String({ maxLength: 24 });
const role = fc.constantFrom('user' as const, 'assistant' as const);

export const annotations: fc.Arbitrary<Annotations> = partial<Annotations>({
  audience: fc.uniqueArray(role, { maxLength: 2 }),
  priority: unit,
  lastModified: fc
    .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((date) => date.toISOString()),
});
const maybeAnnotations = fc.option(annotations, { nil: undefined });
const maybeMeta = fc.option(jsonObject, { nil: undefined });
const maybeMime = fc.option(mimeType, { nil: undefined });

const textContentValue = fc
  .tuple(uri, maybeMime, fc.string(), maybeMeta)
  .map(([u, m, t, meta]) => textContent(u, m, t, meta));
const blobContentValue = fc
  .tuple(uri, maybeMime, base64, maybeMeta)
  .map(([u, m, b, meta]) => blobContent(u, m, b, meta));

export const resourceContent: fc.Arbitrary<ResourceContent> = fc.oneof(
  textContentValue,
  blobContentValue,
);

const textItem = fc.tuple(fc.string(), maybeAnnotations).map(([t, a]) => text(t, a));
const errorItem = fc.string().map((message) => error(message));
const resourceLinkItem = fc
  .tuple(
    uri,
    fc.string(),
    partial({ description: fc.string(), mimeType, title: fc.string(), annotations }),
  )
  .map(([u, name, extra]) => resourceLink(u, name, extra));
const imageItem = fc.tuple(base64, mimeType, maybeAnnotations).map(([d, m, a]) => image(d, m, a));
const audioItem = fc.tuple(base64, mimeType, maybeAnnotations).map(([d, m, a]) => audio(d, m, a));
const embeddedResourceItem = fc
  .tuple(resourceContent, maybeAnnotations)
  .map(([c, a]) => embeddedResource(c, a));

export const contentItem: fc.Arbitrary<ContentItem> = fc.oneof(
  textItem,
  errorItem,
  resourceLinkItem,
  imageItem,
  audioItem,
  embeddedResourceItem,
);

const items = fc.array(contentItem, { maxLength: 3 });

const resultsValue = items.map((list) => results(list));
const structuredValue = fc
  .tuple(json, fc.option(items, { nil: undefined }))
  .map(([value, list]) => structured(value, list));

export const toolResult: fc.Arbitrary<ToolResult> = fc.oneof(
  contentItem,
  resultsValue,
  structuredValue,
);

const promptMessage = fc
  .tuple(role, fc.oneof(contentItem, fc.string()))
  .map(([r, c]) => message(r, c));

export const promptResult: fc.Arbitrary<PromptResult> = fc
  .tuple(fc.array(promptMessage, { maxLength: 3 }), fc.option(fc.string(), { nil: undefined }))
  .map(([list, description]) => messages(list, description));

export const resourceResult: fc.Arbitrary<ResourceResult> = fc
  .array(resourceContent, { maxLength: 3 })
  .map((list) => contents(list));

/** One field of an elicitation form, of any kind the 2025-11-25 schema knows. */
const formField: fc.Arbitrary<JsonObject> = fc.oneof(
  partial({
    title: fc.string(),
    minLength: fc.nat(9),
    format: fc.constantFrom('email', 'uri'),
  }).map((field) => ({ ...field, type: 'string' })),
  partial({ minimum: fc.integer(), maximum: fc.integer(), default: fc.integer() }).chain((field) =>
    fc.constantFrom('number', 'integer').map((type) => ({ ...field, type })),
  ),
  partial({ default: fc.boolean() }).map((field) => ({ ...field, type: 'boolean' })),
  fc.array(fc.string(), { minLength: 1, maxLength: 3 }).map((values) => ({
    type: 'string',
    enum: values,
  })),
  fc
    .array(fc.record({ const: fc.string(), title: fc.string() }, { noNullPrototype: true }), {
      maxLength: 3,
    })
    .map((options) => ({ type: 'string', oneOf: options })),
  fc.array(fc.string(), { maxLength: 3 }).map((values) => ({
    type: 'array',
    items: { type: 'string', enum: values },
  })),
);

/** A form-mode `requestedSchema`: an object schema of primitive fields. */
export const requestedSchema: fc.Arbitrary<JsonObject> = fc
  .dictionary(fc.string({ minLength: 1 }), formField, { maxKeys: 3, noNullPrototype: true })
  .chain((properties) =>
    fc
      .subarray(Object.keys(properties))
      .map((required) => ({ type: 'object', properties, required })),
  );

const samplingOptions = partial<Omit<SamplingRequest, 'kind' | 'messages'>>({
  modelPreferences: partial({
    hints: fc.array(fc.record({ name: fc.string() }, { noNullPrototype: true }), { maxLength: 2 }),
    costPriority: unit,
    speedPriority: unit,
    intelligencePriority: unit,
  }),
  systemPrompt: fc.string(),
  includeContext: fc.constantFrom('none', 'thisServer', 'allServers'),
  maxTokens: fc.integer({ min: 1, max: 100_000 }),
  temperature: fc.integer({ min: 0, max: 20 }).map((n) => n / 10),
  stopSequences: fc.array(fc.string(), { maxLength: 2 }),
  tools: fc.array(
    fc
      .tuple(fc.string({ minLength: 1 }), fc.string())
      .map(([name, description]) => ({ name, description, inputSchema: { type: 'object' } })),
    { maxLength: 2 },
  ),
  toolChoice: fc.constantFrom('auto', 'required', 'none').map((mode) => ({ mode })),
});

/** Sampling message content is text, image or audio (an error item is sent as text). */
const samplingContent = fc.oneof(
  fc.string().map((t) => text(t)),
  fc.string().map((t) => error(t)),
  fc.tuple(base64, mimeType).map(([data, m]) => image(data, m)),
  fc.tuple(base64, mimeType).map(([data, m]) => audio(data, m)),
);

const formElicitationBody = fc
  .tuple(fc.string(), requestedSchema)
  .map(([m, schema]) => formElicitation(m, schema));
const urlElicitationBody = fc
  .tuple(fc.string(), fc.webUrl(), fc.option(fc.string(), { nil: undefined }))
  .map(([m, url, id]) => urlElicitation(m, url, id));
const samplingBody = fc
  .tuple(
    fc.array(fc.record({ role, content: samplingContent }, { noNullPrototype: true }), {
      minLength: 1,
      maxLength: 3,
    }),
    samplingOptions,
  )
  .map(([list, options]) => sampling(list, options));
const rootsBody = fc.constant(roots());

export const inputRequestBody: fc.Arbitrary<InputRequestBody> = fc.oneof(
  formElicitationBody,
  urlElicitationBody,
  samplingBody,
  rootsBody,
);

const key = fc.string({ minLength: 1, maxLength: 12 });

export const inputRequestValue: fc.Arbitrary<InputRequest> = fc
  .tuple(key, inputRequestBody)
  .map(([k, body]) => inputRequest(k, body));

export const inputRequiredValue = fc
  .tuple(
    fc.uniqueArray(inputRequestValue, { selector: (request) => request.key, maxLength: 3 }),
    fc.option(json, { nil: undefined }),
  )
  .filter(([requests, state]) => requests.length > 0 || state !== undefined)
  .map(([requests, state]) => inputRequired(requests, state));

const acceptValue = fc.option(jsonObject, { nil: undefined }).map((content) => accept(content));
const samplingResultValue = fc
  .tuple(role, json, fc.string(), fc.option(fc.string(), { nil: undefined }))
  .map(([r, content, model, stopReason]): InputResponseValue =>
    stopReason === undefined
      ? { kind: 'sampling_result', role: r, content, model }
      : { kind: 'sampling_result', role: r, content, model, stopReason },
  );
const rootsResultValue = fc
  .array(
    fc
      .tuple(uri, fc.option(fc.string(), { nil: undefined }))
      .map(([u, name]) => (name === undefined ? { uri: u } : { uri: u, name })),
    { maxLength: 2 },
  )
  .map((list): InputResponseValue => ({ kind: 'roots_result', roots: list }));

export const inputResponse: fc.Arbitrary<InputResponseValue> = fc.oneof(
  acceptValue,
  fc.constant(decline()),
  fc.constant(cancel()),
  samplingResultValue,
  rootsResultValue,
);

const asRequest = (body: fc.Arbitrary<InputRequestBody>): fc.Arbitrary<VocabularyValue> =>
  fc.tuple(key, body).map(([k, b]) => inputRequest(k, b));

/**
 * One arbitrary per vocabulary form, by its `kind`. Input request bodies, which are never values
 * on their own, come wrapped in an `input_request`.
 */
export const vocabularyForms: Readonly<Record<string, fc.Arbitrary<VocabularyValue>>> = {
  text: textItem,
  error: errorItem,
  results: resultsValue,
  structured: structuredValue,
  resource_link: resourceLinkItem,
  image: imageItem,
  audio: audioItem,
  resource: embeddedResourceItem,
  message: promptMessage,
  messages: promptResult,
  contents: resourceResult,
  text_content: textContentValue,
  blob_content: blobContentValue,
  complete: fc.oneof(toolResult, promptResult, resourceResult).map((result) => complete(result)),
  input_required: inputRequiredValue,
  input_request: inputRequestValue,
  form_elicitation: asRequest(formElicitationBody),
  url_elicitation: asRequest(urlElicitationBody),
  sampling: asRequest(samplingBody),
  roots: asRequest(rootsBody),
  accept: acceptValue,
  decline: fc.constant(decline()),
  cancel: fc.constant(cancel()),
  sampling_result: samplingResultValue,
  roots_result: rootsResultValue,
};

/** Every vocabulary value. */
export const vocabularyValue: fc.Arbitrary<VocabularyValue> = fc.oneof(
  ...Object.values(vocabularyForms),
);
