#!/usr/bin/env node
// The conformance suite's client fixture: `conformance client --command "node .../main.js"` runs it
// once per scenario with the server URL as the last argument and the scenario in the environment.
import { scenarios } from './scenarios.js';
import type { ScenarioRun } from './scenario.js';

function readRun(): ScenarioRun {
  const serverUrl = process.argv.at(-1);
  const name = process.env.MCP_CONFORMANCE_SCENARIO;
  if (!serverUrl || process.argv.length < 3) throw new Error('usage: main.js <server-url>');
  if (!name) throw new Error('MCP_CONFORMANCE_SCENARIO is not set');
  const rawContext = process.env.MCP_CONFORMANCE_CONTEXT;
  const context = rawContext ? (JSON.parse(rawContext) as Record<string, unknown>) : {};
  return {
    name,
    serverUrl,
    context,
    protocolVersion: process.env.MCP_CONFORMANCE_PROTOCOL_VERSION || undefined,
  };
}

async function main(): Promise<void> {
  const run = readRun();
  const handler = scenarios[run.name];
  if (!handler) throw new Error(`unknown scenario ${run.name}`);
  await handler(run);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    // A transport failure's cause (the socket error under "fetch failed") says what went wrong.
    if (error instanceof Error && error.cause !== undefined) console.error('cause:', error.cause);
    process.exit(1);
  },
);
