import { readFileSync } from 'node:fs';

/** One fenced code block of a guide: its language, the rest of its info string, its text. */
export interface GuideBlock {
  language: string;
  label: string;
  code: string;
  /** The line the block starts on, for failure messages. */
  line: number;
}

/** Every fenced code block of a Markdown file, in order. */
export function guideBlocks(path: string): GuideBlock[] {
  const text = readFileSync(path, 'utf8');
  const blocks: GuideBlock[] = [];
  const fence = /^```([^\n]*)\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(text); match; match = fence.exec(text)) {
    const [language = '', ...label] = (match[1] ?? '').trim().split(/\s+/);
    const line = text.slice(0, match.index).split('\n').length;
    blocks.push({ language, label: label.join(' '), code: match[2] ?? '', line });
  }
  return blocks;
}

/**
 * An example program, the client lines (a ```jsonl try block right after it) it is tried with,
 * and the retries of later rounds the guide shows (a ```jsonl retry block after those).
 */
export interface GuideExample {
  program: GuideBlock;
  tryLines: string[];
  retryLines: string[];
}

/**
 * Pairs each program block of `language` with the ```jsonl try block that follows it (a `script`
 * block is run on its own instead, see {@link scriptsOf}).
 */
export function examplesOf(blocks: GuideBlock[], language: string): GuideExample[] {
  return blocks.flatMap((block, index) => {
    if (block.language !== language || block.label === 'script') return [];
    const next = blocks[index + 1];
    if (next?.language !== 'jsonl' || next.label !== 'try')
      throw new Error(
        `the ${language} block at line ${block.line} has no \`\`\`jsonl try block after it`,
      );
    const after = blocks[index + 2];
    const retryLines =
      after?.language === 'jsonl' && after.label === 'retry' ? after.code.trim().split('\n') : [];
    return [{ program: block, tryLines: next.code.trim().split('\n'), retryLines }];
  });
}

/** A program run on its own (```ts script) and what it must print (the ```text output after it). */
export interface GuideScript {
  program: GuideBlock;
  output: string;
}

/** Each `script` block of `language` with the ```text output block that follows it. */
export function scriptsOf(blocks: GuideBlock[], language: string): GuideScript[] {
  return blocks.flatMap((block, index) => {
    if (block.language !== language || block.label !== 'script') return [];
    const next = blocks[index + 1];
    if (next?.language !== 'text' || next.label !== 'output')
      throw new Error(`the script at line ${block.line} has no \`\`\`text output block after it`);
    return [{ program: block, output: next.code }];
  });
}
