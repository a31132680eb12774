import type { ToolDefinition } from '../contracts/definitions.js';

/**
 * BM25 ranking of tools for a natural-language query. Each tool is one document made of four
 * fields, weighted: its name (3), its title (2), its argument names (1.5) and its description (1).
 * Text is split on anything but letters and digits and at camelCase humps, lower-cased, common
 * English words dropped and plurals and verb endings cut, so "listing repositories" meets
 * `list_repos` half way and "repository" meets "repositories". Scores use k1 = 1.2, b = 0.75 over
 * the weighted term counts.
 */

const K1 = 1.2;
const B = 0.75;
const WEIGHTS = { name: 3, title: 2, args: 1.5, description: 1 } as const;

const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from get give has have how i in into is it its me my ' +
    'of on or our please show some that the their them then there these this to up use using want ' +
    'what when where which who will with you your all any new one'
  ).split(' '),
);

/** A term's stem: plural, -ing and -ed endings cut (a light rule, enough for tool names). */
function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('es') && /(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The terms of a text, in order, stop words left out. */
export function terms(text: string): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  const out: string[] = [];
  for (const word of words) if (word !== '' && !STOP_WORDS.has(word)) out.push(stem(word));
  return out;
}

interface Document {
  readonly name: string;
  readonly counts: ReadonlyMap<string, number>;
  readonly length: number;
}

/** A ranked tool name with its score. */
export interface Ranked {
  readonly name: string;
  readonly score: number;
}

/** The BM25 index of a list of tools, built once per catalog. */
export class ToolSearchIndex {
  private readonly documents: Document[] = [];
  private readonly frequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(tools: readonly ToolDefinition[]) {
    let total = 0;
    for (const tool of tools) {
      const counts = new Map<string, number>();
      let length = 0;
      const add = (text: string | undefined, weight: number) => {
        for (const term of terms(text ?? '')) {
          counts.set(term, (counts.get(term) ?? 0) + weight);
          length += weight;
        }
      };
      add(tool.name, WEIGHTS.name);
      add(tool.title, WEIGHTS.title);
      add(argumentNames(tool).join(' '), WEIGHTS.args);
      add(tool.description, WEIGHTS.description);
      for (const term of counts.keys())
        this.frequency.set(term, (this.frequency.get(term) ?? 0) + 1);
      this.documents.push({ name: tool.name, counts, length });
      total += length;
    }
    this.averageLength = this.documents.length > 0 ? total / this.documents.length : 1;
  }

  /** Every tool with a positive score for `query`, best first (ties in catalog order). */
  rank(query: string): Ranked[] {
    const wanted = [...new Set(terms(query))];
    const count = this.documents.length;
    const ranked: Ranked[] = [];
    for (const document of this.documents) {
      let score = 0;
      for (const term of wanted) {
        const tf = document.counts.get(term);
        if (tf === undefined) continue;
        const df = this.frequency.get(term) ?? 0;
        const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
        const norm = K1 * (1 - B + (B * document.length) / this.averageLength);
        score += (idf * tf * (K1 + 1)) / (tf + norm);
      }
      if (score > 0) ranked.push({ name: document.name, score });
    }
    return ranked.sort((a, b) => b.score - a.score);
  }
}

/** The names of a tool's arguments (the top-level properties of its input schema). */
function argumentNames(tool: ToolDefinition): string[] {
  const properties = tool.inputSchema.properties;
  return properties !== null && typeof properties === 'object' && !Array.isArray(properties)
    ? Object.keys(properties)
    : [];
}
