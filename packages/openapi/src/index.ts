export {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  OpenApiProvider,
  openApiProvider,
  type OpenApiOptions,
} from './openApiProvider.js';
export type { SchemeCredentials } from './credentials.js';
export {
  operationsOf,
  type HttpMethod,
  type Operation,
  type OperationBody,
  type OperationFilter,
  type OperationParameter,
  type ParameterPlace,
} from './operations.js';
export { toJsonSchema } from './jsonSchema.js';
export { DEFAULT_MAX_DOCUMENT_BYTES, loadDocument, type LoadedDocument } from './source.js';
export { ERROR_BODY_CHARS } from './operationCall.js';
export { OpenApiDocumentError } from './errors.js';
