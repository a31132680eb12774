import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as internal from '../src/internal.js';

/** The most runtime values the root may export: what users build with, not what siblings share. */
const ROOT_BUDGET = 120;

describe("@rondo/protocol's surfaces", () => {
  it(`exports at most ${ROOT_BUDGET} runtime values from its root`, () => {
    const names = Object.keys(root);
    console.info(`@rondo/protocol root: ${names.length} runtime exports`);
    expect(names.length).toBeLessThanOrEqual(ROOT_BUDGET);
  });

  it('exports each runtime value from one entry only', () => {
    const both = Object.keys(internal).filter((name) => name in root);
    expect(both).toEqual([]);
  });

  it('keeps the vocabulary, its constructors and the wire errors at the root', () => {
    for (const name of ['text', 'inputRequired', 'decodeVocabulary', 'McpError', 'ErrorCode'])
      expect(root).toHaveProperty(name);
  });

  it('keeps the wire schemas, method tables and wire conversion for siblings in ./internal', () => {
    const internalNames = Object.keys(internal);
    expect(internalNames.filter((name) => name.endsWith('Schema')).length).toBeGreaterThan(100);
    for (const name of ['parseRequestParams', 'toolResultToWire', 'inputResponseFromWire'])
      expect(internal).toHaveProperty(name);
    expect(Object.keys(root).filter((name) => name.endsWith('Schema'))).toEqual([]);
  });
});
