/**
 * The shape of JSON-RPC messages as the stdio suites read them off the wire: loose enough for
 * assertions on whatever a revision carries, typed enough that tests name the members they use.
 */
export interface WireMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: WireParams;
  result?: WireResult;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

export interface WireParams {
  [key: string]: unknown;
  name?: string;
  uri?: string;
  message?: string;
  requestId?: string | number;
  progressToken?: string | number;
  progress?: number;
  requestState?: string;
  inputResponses?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface WireResult {
  [key: string]: unknown;
  resultType?: string;
  protocolVersion?: string;
  requestState?: string;
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  content?: { type: string; text?: string }[];
  tools?: { name: string }[];
}

/** The concatenated text items of a tool result. */
export function textOf(result: unknown): string {
  const { content } = result as { content: { text?: string }[] };
  return content.map((item) => item.text ?? '').join('');
}

/** The first property of an elicitation's requested schema, and the answer a test gives to it. */
export function formAnswer(
  params: unknown,
  answers: Record<string, string | boolean>,
): Record<string, string | boolean> {
  const schema = (params as { requestedSchema?: { properties?: Record<string, unknown> } })
    .requestedSchema;
  const fields = Object.keys(schema?.properties ?? {});
  const content: Record<string, string | boolean> = {};
  for (const field of fields) {
    const value = answers[field];
    if (value !== undefined) content[field] = value;
  }
  return content;
}
