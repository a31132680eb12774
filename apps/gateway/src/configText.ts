import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { ConfigError } from './configError.js';

/**
 * Reads a configuration file's text: JSON, with the comments and trailing commas VS Code's
 * `mcp.json` allows. A syntax error is a {@link ConfigError} naming the line and column
 * (`servers.json:4:3: comma expected`).
 */
export function parseConfigText(text: string, source: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: false,
  });
  const [first] = errors;
  if (first !== undefined) {
    const { line, column } = positionOf(text, first.offset);
    throw new ConfigError(`${source}:${line}:${column}: not JSON: ${describe(first)}`);
  }
  return value;
}

/** The 1-based line and column of a character offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/** `CommaExpected` as "comma expected". */
function describe(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  return code.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
}
