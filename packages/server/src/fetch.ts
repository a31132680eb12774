// The fetch edge (Workers, Deno, Bun: any runtime with `Request` and `Response`),
// `createFetchHandler(endpoint)`. Each edge is its own subpath, so an app loads only the edge it
// serves and needs no optional peer of another.
export * from '@rondo/transport-http/fetch';
