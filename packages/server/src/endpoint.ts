// The endpoint composition alone (core and the two era adapters, nothing of Node): what a portable
// app (a Worker, Deno, Bun) imports beside `@rondo/server/fetch` without loading `serve`.
export { composeEndpoint, type ServeEras } from './eras.js';
export type { LegacyEraOptions } from '@rondo/adapter-2025';
export type { ModernEraOptions } from '@rondo/adapter-2026';
