/** A JSON-RPC error as a client rejects with it. */
export interface Refusal {
  readonly code: number;
  readonly message: string;
  readonly data: Record<string, unknown>;
}

/** The rejection of `promise`, which must reject: the test fails when it resolves. */
export async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  try {
    await promise;
  } catch (failure) {
    return failure as Refusal;
  }
  throw new Error('expected a refusal');
}
