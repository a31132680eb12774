import { ConfigurationError } from '@rondo/core';

/** An OpenAPI document Rondo cannot serve: unreadable, too large, not OpenAPI 3.x, or a bad `$ref`. */
export class OpenApiDocumentError extends ConfigurationError {
  override readonly code: string = 'openapi.document';
  override readonly name = 'OpenApiDocumentError';
}
