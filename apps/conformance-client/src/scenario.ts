/** What the harness tells the fixture about the scenario it runs. */
export interface ScenarioRun {
  /** The scenario's name (`MCP_CONFORMANCE_SCENARIO`). */
  readonly name: string;
  /** The server URL: the fixture's last argument. */
  readonly serverUrl: string;
  /** The scenario's context (`MCP_CONFORMANCE_CONTEXT`, parsed JSON), or an empty object. */
  readonly context: Readonly<Record<string, unknown>>;
  /** The revision the harness asks for (`MCP_CONFORMANCE_PROTOCOL_VERSION`), if any. */
  readonly protocolVersion: string | undefined;
}

/** A scenario's behaviour: what the client does against the harness's server. */
export type ScenarioHandler = (run: ScenarioRun) => Promise<void>;

/** Scenario handlers by scenario name. */
export type ScenarioTable = Readonly<Record<string, ScenarioHandler>>;
