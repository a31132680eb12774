export type { HttpAuthorizer } from './http/authorizer.js';
