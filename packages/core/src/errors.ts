/** Local failures of the core. They are mapped to wire errors in one place (`toWireError`). */

/** The server was configured wrongly (a duplicate tool name, a bad schema). Thrown at build time. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

/** A server-to-client request was not answered in time, or was refused by the client. */
export class ClientRequestError extends Error {
  override readonly name = 'ClientRequestError';
}
